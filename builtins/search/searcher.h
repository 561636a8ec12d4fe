// Searching one file for the lines a pattern matches, as fast as the machine reads: the pattern
// is run over whole blocks of the file, not line by line, and a line is only cut out where a
// match is. PCRE2's JIT does the searching; a pattern without regex syntax is compiled as a
// literal, and a regex that requires some text is searched for that text first (searcher.cpp
// says why and how fast).
//
// Semantics follow ripgrep's defaults, so that toold reports what `rg -n` reports:
//   - a match never spans lines: `^` and `$` match at line starts and ends ("\n" only; a "\r"
//     before it is part of the line, so `x$` does not match "x\r\n"), and a match the engine
//     found across a line end is checked again within its first line alone;
//   - each matching line is reported once, with its 1-based number;
//   - \w, \d, \s and \b are Unicode-aware (PCRE2_UCP), and case-insensitive search folds
//     Unicode case (so "k" also matches the Kelvin sign), as in ripgrep;
//   - a NUL byte means binary data: the search of the file stops at the block (of the order of
//     256 KiB) that holds it; lines matched in the blocks before are kept, nothing of that block
//     is reported, and the result says Binary;
//   - text that is not valid UTF-8 is still searched: its valid parts can match, "." never
//     matches a stray byte;
//   - a pattern that backtracks without end gives up on a line after a bounded number of steps:
//     that line counts as not matching and the search goes on (ripgrep's engine cannot
//     backtrack, so it has no such case);
//   - a file whose search keeps the engine busy past its time budget (search_budget.h: 1 s plus
//     1 s per 16 MiB) is given up, whatever the pattern: the result says TimeLimit, and lines
//     matched before are kept.
#pragma once

#include "core/base/cancellation.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <variant>

namespace toold::builtins {

/// A compiled search pattern (PCRE2 with JIT where available, else its interpreter). Immutable;
/// share it between threads — each thread uses its own match data internally.
class SearchPattern {
public:
  struct Options {
    bool caseInsensitive = false;
    bool literal = false; ///< the pattern is text, not a regular expression
  };
  /// Compiles `pattern`; an invalid one gives the engine's message with the offset, e.g.
  /// "missing closing parenthesis at offset 4".
  static std::variant<SearchPattern, std::string> compile(std::string_view pattern, Options options);
  static std::variant<SearchPattern, std::string> compile(std::string_view pattern) { return compile(pattern, Options{}); }

  /// Whether the pattern is searched as plain text: it has no regex syntax, or `literal`.
  bool isLiteral() const;
  const std::string& pattern() const;

  struct Engine; ///< private
private:
  explicit SearchPattern(std::shared_ptr<const Engine> engine) : engine_(std::move(engine)) {}
  std::shared_ptr<const Engine> engine_;
  friend class FileSearcher;
};

/// Receives a file's matching lines, in order. Return false to stop searching this file.
class SearchSink {
public:
  virtual ~SearchSink() = default;
  /// `line` is the line's text without its "\n" and a "\r" before it, never longer than
  /// `FileSearcher::kMaxLineBytes` (longer lines are cut at a UTF-8 boundary; the match may lie
  /// beyond the cut).
  virtual bool matched(std::uint64_t lineNumber, std::string_view line) = 0;
  /// Asked before each matching line is cut out: false means the sink needs no more lines from
  /// this file, and the searcher only counts the rest (skipping the line numbering it would need).
  virtual bool wantsLines() { return true; }
};

struct FileSearchResult {
  enum class Status { Searched, Binary, Unreadable, Cancelled, TimeLimit } status = Status::Searched;
  /// Reported to the sink (or counted, see below); when Binary, Cancelled or TimeLimit, those
  /// found before it stopped. A sink that said to stop leaves the status Searched.
  std::uint64_t matchedLines = 0;
  std::string error;              ///< Unreadable: the system's reason
};

/// Searches files one after another, reusing its buffer; one per thread.
class FileSearcher {
public:
  static constexpr std::size_t kMaxLineBytes = 8192;

  explicit FileSearcher(const SearchPattern& pattern);
  ~FileSearcher();
  FileSearcher(const FileSearcher&) = delete;
  FileSearcher& operator=(const FileSearcher&) = delete;

  /// Searches the file at `path`. With `sink` null the matching lines are only counted, which
  /// skips numbering and cutting lines out and is the fast way to total a common word. Reads in
  /// large blocks (memory stays bounded whatever the file size: a buffer of at most 16 MiB; a
  /// 10 MB line is searched whole and cut when reported, a longer one in overlapping windows),
  /// checks `cancellation` between blocks and between calls of the engine, so a long line does not
  /// delay it. A file that cannot be opened or read is Unreadable, with strerror's text; so is one
  /// that is not a regular file, or lies on a pseudo file system such as /proc or /sys
  /// (core::openReadableFileAt), since reading those can block or never end.
  FileSearchResult search(const std::filesystem::path& path, SearchSink* sink, const core::CancellationToken& cancellation);

  /// The same for the file `name` in the open folder `directory` (a walk's folderFd, a held
  /// location's folder); a symlink there is Unreadable unless `followLink`. `listedAsRegular`: a
  /// walk's listing has just said it is a regular file (core::openReadableFileAt).
  FileSearchResult search(int directory, const std::string& name, bool followLink, SearchSink* sink,
                          const core::CancellationToken& cancellation, bool listedAsRegular = false);

  /// The same over bytes in memory (for tests, and for files already read), taken in the same
  /// blocks as a file would be, so that both give the same result.
  FileSearchResult searchBytes(std::string_view bytes, SearchSink* sink);

private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace toold::builtins
