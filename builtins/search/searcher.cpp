// The searcher: PCRE2 (JIT) over whole blocks of a file, lines cut out only where a match is.
//
// How a pattern is run:
//   - Options: UTF with MATCH_INVALID_UTF (bytes that are not UTF-8 never match, the rest is
//     searched), MULTILINE with newline LF (so ^ and $ hold at every "\n", and "." never matches
//     it), and UCP, so that \w, \d, \s and \b know Unicode as ripgrep's default engine does.
//     CASELESS when asked: Unicode case folding, as ripgrep's -i.
//   - A pattern with no regex syntax (or Options::literal) is compiled as PCRE2_LITERAL. It is
//     still PCRE2's JIT that searches for it: the JIT looks for a literal with SIMD, and measured
//     2.5 times faster than glibc's memmem on a common word and 6 times on a rare one (250 MB of
//     headers in memory: 25 ms against 70 ms, 9 against 60). Without a JIT, memmem searches a
//     case-sensitive literal.
//   - A regex whose matches all contain some plain text (required_literal.h) and that PCRE2
//     cannot start with one known character is searched for that text first; the regex itself
//     then only runs on the lines that have it.
//   - Limits, so that no pattern hangs a search: kMatchLimit steps of the engine, a heap of
//     kHeapLimitKiB for the interpreter, a JIT stack of kJitStackBytes per searcher (past it,
//     the interpreter tries). When a search of a block reaches one, the lines from where it
//     started are searched one by one up to the next match; a line that reaches a limit on its
//     own counts as not matched, and the search goes on with the next line.
//   - Those limits hold per start position at best, so they do not bound a file's search: each
//     call of the engine tries a bounded number of start positions (PCRE2's offset limit, hence
//     PCRE2_USE_OFFSET_LIMIT), and the time it took is charged to the file's SearchBudget; once
//     that is spent, or the call is cancelled, the search of the file stops.
//
// How a file is read: into one buffer of kBlockBytes (grown up to kMaxBufferBytes while a line
// does not fit), a block after another. The complete lines of the buffer are searched in one
// call of the matcher, and the incomplete last line is carried over to the next read. A line
// longer than kMaxBufferBytes is searched in windows of that size overlapping by
// kWindowOverlapBytes; only a match longer than that overlap and across a window edge is missed.
#include "builtins/search/searcher.h"

#include "builtins/search/line_scan.h"
#include "builtins/search/required_literal.h"
#include "builtins/search/rare_byte_literal.h"
#include "builtins/search/search_budget.h"
#include "core/base/newline_count.h"
#include "core/workspace/held_location.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <new>
#include <optional>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace toold::builtins {

namespace {

constexpr std::size_t kBlockBytes = 256 * 1024;
constexpr std::size_t kMaxBufferBytes = 16 * 1024 * 1024;
constexpr std::size_t kWindowOverlapBytes = 64 * 1024;
constexpr std::uint32_t kMatchLimit = 10'000'000;
constexpr std::uint32_t kHeapLimitKiB = 64 * 1024;
constexpr std::size_t kJitStackBytes = 1024 * 1024;

constexpr std::uint32_t kRegexOptions =
    PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_MULTILINE | PCRE2_UCP | PCRE2_USE_OFFSET_LIMIT;
/// PCRE2_LITERAL allows no other options than these (MULTILINE and UCP mean nothing to a literal;
/// caseless matching under UTF folds Unicode case with or without UCP).
constexpr std::uint32_t kLiteralOptions = PCRE2_LITERAL | PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_USE_OFFSET_LIMIT;

constexpr std::string_view kRegexSyntax = "\\^$.|?*+()[]{}";

std::string errorText(int errorCode) {
  std::array<PCRE2_UCHAR, 256> buffer{};
  const int length = pcre2_get_error_message(errorCode, buffer.data(), buffer.size());
  if (length < 0) return "error " + std::to_string(errorCode);
  return std::string(reinterpret_cast<const char*>(buffer.data()), static_cast<std::size_t>(length));
}

/// Whether `pattern` has \A, \z, \Z or \G, which PCRE2 ties to the subject's ends (and ripgrep
/// to the line's). Read roughly: a false alarm only costs speed.
bool anchorsAtSubject(std::string_view pattern) {
  for (std::size_t i = 0; i + 1 < pattern.size(); ++i) {
    if (pattern[i] != '\\') continue;
    const char escaped = pattern[++i];
    if (escaped == 'A' || escaped == 'z' || escaped == 'Z' || escaped == 'G') return true;
  }
  return false;
}

/// Whether Unicode properties change what `pattern` matches: \d \s \w \b (and their negations)
/// or a POSIX class. Read roughly: a false alarm only costs a second compile.
bool usesUnicodeClasses(std::string_view pattern) {
  for (std::size_t i = 0; i + 1 < pattern.size(); ++i) {
    if (pattern[i] == '[' && pattern[i + 1] == ':') return true;
    if (pattern[i] != '\\') continue;
    const char escaped = pattern[++i];
    if (std::string_view("dDsSwWbB").find(escaped) != std::string_view::npos) return true;
  }
  return false;
}

/// Whether bytes[0, size) are all ASCII. Sixteen bytes per step where SSE2 is there.
bool isAscii(const char* bytes, std::size_t size) {
  std::size_t at = 0;
#if defined(__SSE2__)
  __m128i any = _mm_setzero_si128();
  for (; size - at >= 64; at += 64) {
    const auto* block = reinterpret_cast<const __m128i*>(bytes + at);
    any = _mm_or_si128(any, _mm_or_si128(_mm_or_si128(_mm_loadu_si128(block), _mm_loadu_si128(block + 1)),
                                         _mm_or_si128(_mm_loadu_si128(block + 2), _mm_loadu_si128(block + 3))));
    if (_mm_movemask_epi8(any) != 0) return false;
  }
#endif
  for (; at < size; ++at)
    if (static_cast<unsigned char>(bytes[at]) >= 0x80) return false;
  return true;
}

/// A compiled pattern and whether the JIT took it.
struct Code {
  pcre2_code* code = nullptr;
  bool jit = false;

  Code() = default;
  Code(const Code&) = delete;
  Code& operator=(const Code&) = delete;
  ~Code() { pcre2_code_free(code); }

  /// Compiles (newline LF); on failure leaves `code` null and says why in `error`.
  bool compile(std::string_view pattern, std::uint32_t options, std::string& error) {
    pcre2_compile_context* context = pcre2_compile_context_create(nullptr);
    if (context == nullptr) throw std::bad_alloc();
    pcre2_set_newline(context, PCRE2_NEWLINE_LF);
    int errorCode = 0;
    PCRE2_SIZE errorOffset = 0;
    code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data() != nullptr ? pattern.data() : ""), pattern.size(),
                         options, &errorCode, &errorOffset, context);
    pcre2_compile_context_free(context);
    if (code == nullptr) {
      error = errorText(errorCode) + " at offset " + std::to_string(errorOffset);
      return false;
    }
    // Failing (no JIT on this platform, or no executable memory) leaves the interpreter to run it.
    jit = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
    return true;
  }
};

/// Bytes in memory read as a file would be: for searchBytes, which so goes the same way.
struct MemoryReader {
  std::string_view rest;
  long read(char* into, std::size_t size) {
    const std::size_t taken = std::min(size, rest.size());
    if (taken != 0) std::memcpy(into, rest.data(), taken);
    rest.remove_prefix(taken);
    return static_cast<long>(taken);
  }
  bool atEnd() const { return rest.empty(); }
};

// A regular file's size is known, so its last bytes are recognised when they arrive: they are
// searched as the last region at once, without another read to see the end, and without counting
// the lines no later match will need.
struct FileReader {
  int fd;
  std::optional<std::uint64_t> size; ///< for a regular file
  std::uint64_t consumed = 0;
  long read(char* into, std::size_t wanted) {
    for (;;) {
      const ssize_t got = ::read(fd, into, wanted);
      if (got > 0) consumed += static_cast<std::uint64_t>(got);
      if (got >= 0 || errno != EINTR) return got;
    }
  }
  bool atEnd() const { return size && consumed >= *size; }
};

} // namespace

struct SearchPattern::Engine {
  std::string pattern;
  bool literal = false;
  Code regex;        ///< the pattern itself
  /// The pattern without Unicode classes (PCRE2_UCP), for text that is all ASCII, where both
  /// match alike: UCP's \d, \w and \b run up to 6 times slower. Null when the pattern has none.
  Code asciiRegex;
  Code prefilter;    ///< text every match contains, searched for first; null if none is used
  bool linesAlone = false; ///< \A, \z, \Z or \G: the subject must be one line, as ripgrep reads them
  bool useMemmem = false; ///< a case-sensitive literal when there is no JIT
  /// A case-sensitive literal, or an alternation of them, found through rare bytes (see
  /// rare_byte_literal.h).
  using RareByteLiteral = builtins::RareByteLiteral;
  std::vector<RareByteLiteral> literals;
};

namespace {

} // namespace

std::variant<SearchPattern, std::string> SearchPattern::compile(std::string_view pattern, Options options) {
  auto engine = std::make_shared<Engine>();
  engine->pattern = pattern;
  engine->literal = options.literal || pattern.find_first_of(kRegexSyntax) == std::string_view::npos;
  const std::uint32_t caseless = options.caseInsensitive ? PCRE2_CASELESS : 0;
  std::string error;
  if (!engine->regex.compile(pattern, (engine->literal ? kLiteralOptions : kRegexOptions) | caseless, error)) return error;
  if (engine->literal) {
    engine->useMemmem = !options.caseInsensitive && !engine->regex.jit;
    if (!options.caseInsensitive && pattern.size() >= 2) engine->literals.push_back(rareByteLiteral(pattern));
  } else {
    if (!options.caseInsensitive) engine->literals = literalAlternatives(pattern);
    std::uint32_t firstCodeType = 0;
    pcre2_pattern_info(engine->regex.code, PCRE2_INFO_FIRSTCODETYPE, &firstCodeType);
    // With a first code unit known (1), the JIT already skips to it as fast as to a literal.
    // Otherwise even one required character pays: `\w+\s*\(` ran 3 times faster searching "("
    // first, `\s+=` 9 times; the worst case measured (`[0-9]x`, whose start the JIT finds among
    // ten digits) lost a factor of 1.7, still at 4 GB/s.
    engine->linesAlone = anchorsAtSubject(pattern);
    if (usesUnicodeClasses(pattern) && !engine->asciiRegex.compile(pattern, (kRegexOptions & ~PCRE2_UCP) | caseless, error))
      return error; // never: the pattern compiled with UCP

    const std::string required = search::requiredLiteral(pattern);
    if (firstCodeType != 1 && !required.empty() && !engine->prefilter.compile(required, kLiteralOptions | caseless, error))
      return "cannot search for " + required + ": " + error; // never: the text is ASCII
  }
  return SearchPattern(std::move(engine));
}

bool SearchPattern::isLiteral() const { return engine_->literal; }

const std::string& SearchPattern::pattern() const { return engine_->pattern; }

struct FileSearcher::State {
  std::shared_ptr<const SearchPattern::Engine> engine;
  core::FileSystemMemo fileSystems; // one fstatfs per file system a walk crosses, not per file
  // Reused by every search of this searcher (the match data keeps the interpreter's frames).
  std::unique_ptr<pcre2_match_data, decltype(&pcre2_match_data_free)> data{pcre2_match_data_create(1, nullptr),
                                                                           &pcre2_match_data_free};
  std::unique_ptr<pcre2_match_context, decltype(&pcre2_match_context_free)> context{
      pcre2_match_context_create(nullptr), &pcre2_match_context_free};
  /// Null without a JIT; PCRE2 then never needs it.
  std::unique_ptr<pcre2_jit_stack, decltype(&pcre2_jit_stack_free)> jitStack{
      pcre2_jit_stack_create(32 * 1024, kJitStackBytes, nullptr), &pcre2_jit_stack_free};
  std::unique_ptr<char[]> buffer;
  std::size_t capacity = 0;

  // The file being searched.
  SearchSink* sink = nullptr;
  std::uint64_t matchedLines = 0;
  std::uint64_t newlines = 0; ///< before the start of the buffer (counted with a sink only)
  // A line longer than the buffer, searched in windows.
  bool inLongLine = false;
  bool longLineMatched = false;
  std::uint64_t longLineNumber = 0;
  std::string longLinePrefix; ///< what is reported of it

  /// Stopped: the budget is spent or the search cancelled; nothing more is searched in this file.
  enum class Outcome { Match, NoMatch, Failed, Stopped };

  search::SearchBudget budget;
  const core::CancellationToken* cancellation = nullptr;
  std::optional<FileSearchResult::Status> stoppedAs; ///< TimeLimit or Cancelled, once stopped

  explicit State(std::shared_ptr<const SearchPattern::Engine> pattern) : engine(std::move(pattern)) {
    if (!data || !context) throw std::bad_alloc();
    pcre2_set_match_limit(context.get(), kMatchLimit);
    pcre2_set_heap_limit(context.get(), kHeapLimitKiB);
    if (jitStack) pcre2_jit_stack_assign(context.get(), nullptr, jitStack.get());
  }

  std::size_t matchStart() const { return pcre2_get_ovector_pointer(data.get())[0]; }
  std::size_t matchEnd() const { return pcre2_get_ovector_pointer(data.get())[1]; }

  /// Runs `code` over subject[start, size); on Match, matchStart() and matchEnd() say where. Calls
  /// the engine as many times as the budget's share of start positions per call needs, and stops
  /// between calls once the budget is spent or the search is cancelled.
  Outcome run(const Code& code, const char* subject, std::size_t size, std::size_t start, std::uint32_t options) {
    const auto* bytes = reinterpret_cast<PCRE2_SPTR>(subject);
    for (;;) {
      if (stoppedAs) return Outcome::Stopped;
      // Matches may start at offsets up to the limit, and still run on to the subject's end.
      const std::size_t startLimit = size - start > budget.startsPerCall() ? start + budget.startsPerCall() : size;
      pcre2_set_offset_limit(context.get(), startLimit);
      const auto began = search::SearchBudget::Clock::now();
      int rc = code.jit ? pcre2_jit_match(code.code, bytes, size, start, options, data.get(), context.get())
                        : pcre2_match(code.code, bytes, size, start, options, data.get(), context.get());
      // The JIT stack is bounded; the interpreter keeps its backtracking on the (bounded) heap.
      if (rc == PCRE2_ERROR_JIT_STACKLIMIT)
        rc = pcre2_match(code.code, bytes, size, start, options | PCRE2_NO_JIT, data.get(), context.get());
      if (!budget.spend(search::SearchBudget::Clock::now() - began)) stoppedAs = FileSearchResult::Status::TimeLimit;
      else if (cancellation != nullptr && cancellation->isCancelled()) stoppedAs = FileSearchResult::Status::Cancelled;
      if (rc >= 0) return Outcome::Match; // 0: matched, with more groups than there is room for
      if (rc != PCRE2_ERROR_NOMATCH) return stoppedAs ? Outcome::Stopped : Outcome::Failed;
      if (stoppedAs) return Outcome::Stopped;
      if (startLimit == size) return Outcome::NoMatch;
      start = startLimit; // tried once more: harmless, and a start offset is never skipped
    }
  }

  /// The pattern over subject[start, size), through memmem where that is faster.
  Outcome find(const char* subject, std::size_t size, std::size_t start, std::uint32_t options) {
    if (!engine->literals.empty()) return findLiterals(subject, size, start);
    if (!engine->useMemmem) return run(regex(), subject, size, start, options);
    const std::string& needle = engine->pattern;
    const void* hit = ::memmem(subject + start, size - start, needle.data(), needle.size());
    if (hit == nullptr) return Outcome::NoMatch;
    const std::size_t at = static_cast<std::size_t>(static_cast<const char*>(hit) - subject);
    pcre2_get_ovector_pointer(data.get())[0] = at;
    pcre2_get_ovector_pointer(data.get())[1] = at + needle.size();
    return Outcome::Match;
  }

  // Where each literal next occurs in the subject searched last, so that an alternation does not
  // search every part again after each match; npos: not there at all.
  const char* cachedSubject = nullptr;
  std::size_t cachedSize = 0;
  std::vector<std::size_t> nextHit;
  std::vector<std::size_t> searchedFrom;

  Outcome findLiterals(const char* subject, std::size_t size, std::size_t start) {
    const auto& literals = engine->literals;
    if (subject != cachedSubject || size != cachedSize) {
      cachedSubject = subject;
      cachedSize = size;
      nextHit.assign(literals.size(), 0);
      searchedFrom.assign(literals.size(), std::string_view::npos); // nothing searched yet
    }
    std::size_t best = std::string_view::npos;
    std::size_t bestLength = 0;
    for (std::size_t i = 0; i < literals.size(); ++i) {
      // A cached hit is still the next one if it lies at or after `start` and was searched for from
      // no later than `start`; a cached miss holds if searched from no later than `start`.
      const bool valid = searchedFrom[i] != std::string_view::npos && searchedFrom[i] <= start &&
                         (nextHit[i] == std::string_view::npos || nextHit[i] >= start);
      if (!valid) {
        nextHit[i] = findLiteral(literals[i], subject, size, start);
        searchedFrom[i] = start;
      }
      if (nextHit[i] < best) {
        best = nextHit[i];
        bestLength = literals[i].text.size();
      }
    }
    if (best == std::string_view::npos) return Outcome::NoMatch;
    pcre2_get_ovector_pointer(data.get())[0] = best;
    pcre2_get_ovector_pointer(data.get())[1] = best + bestLength;
    return Outcome::Match;
  }

  // The region being searched, and whether it is all ASCII (found out when the regex first runs).
  std::string_view currentRegion;
  std::optional<bool> regionAscii;

  /// Every search of new text (a region, a window of a long line) starts here.
  void enterRegion(const char* region, std::size_t size) {
    currentRegion = std::string_view(region, size);
    regionAscii.reset();
  }

  /// The compiled pattern for the current region: the one without Unicode classes when the
  /// region is all ASCII.
  const Code& regex() {
    if (engine->asciiRegex.code == nullptr) return engine->regex;
    if (!regionAscii) regionAscii = isAscii(currentRegion.data(), currentRegion.size());
    return *regionAscii ? engine->asciiRegex : engine->regex;
  }

  /// Whether the line [begin, end) (no "\n") matches, searched on its own.
  Outcome matchLine(const char* begin, const char* end) {
    return find(begin, static_cast<std::size_t>(end - begin), 0, 0);
  }

  /// The first line at or after `pos` (a line start) in region[0, size) that matches: its
  /// bounds, the end at its "\n" (or at `size` for a last line without one).
  bool nextMatchingLine(const char* region, std::size_t size, std::size_t pos, std::size_t& lineStart, std::size_t& lineEnd) {
    const auto endOfLine = [&](std::size_t at) {
      const void* newline = std::memchr(region + at, '\n', size - at);
      return newline == nullptr ? size : static_cast<std::size_t>(static_cast<const char*>(newline) - region);
    };
    const auto startOfLine = [&](std::size_t from, std::size_t at) {
      const void* newline = ::memrchr(region + from, '\n', at - from);
      return newline == nullptr ? from : static_cast<std::size_t>(static_cast<const char*>(newline) - region) + 1;
    };
    while (pos < size) {
      const Code& first = engine->prefilter.code != nullptr ? engine->prefilter : regex();
      Outcome outcome = Outcome::Failed; // a pattern that needs each line alone tries them all, below
      if (&first != &regex()) outcome = run(first, region, size, pos, 0);
      else if (!engine->linesAlone) outcome = find(region, size, pos, 0);
      if (outcome == Outcome::NoMatch || outcome == Outcome::Stopped) return false;
      if (outcome == Outcome::Failed) {
        // A limit, somewhere from `pos` on: line by line from there to the line that reached it,
        // which is skipped; then on in whole blocks. (Also the way of a pattern `linesAlone`.)
        for (;;) {
          lineStart = pos;
          lineEnd = endOfLine(pos);
          const Outcome lineOutcome = matchLine(region + lineStart, region + lineEnd);
          pos = lineEnd + 1;
          if (lineOutcome == Outcome::Match) return true;
          if (lineOutcome == Outcome::Stopped) return false;
          if (lineOutcome == Outcome::Failed || pos >= size) break;
        }
        continue;
      }
      const std::size_t start = matchStart();
      // An empty match after the last "\n" is not on a line.
      if (start == size && (size == 0 || region[size - 1] == '\n')) return false;
      lineEnd = endOfLine(start);
      lineStart = startOfLine(pos, start);
      // Found by the prefilter, or across the end of its line ("a\sb" in "a\nb"): the line alone
      // decides.
      if (&first == &regex() && matchEnd() <= lineEnd) return true;
      const Outcome lineOutcome = matchLine(region + lineStart, region + lineEnd);
      if (lineOutcome == Outcome::Match) return true;
      if (lineOutcome == Outcome::Stopped) return false;
      pos = lineEnd + 1;
    }
    return false;
  }

  /// Searches region[0, size): whole lines, each ending with "\n" but for a file's last one.
  /// False once the sink says to stop.
  bool searchRegion(const char* region, std::size_t size, bool last = false) {
    cachedSubject = nullptr; // the buffer is reused: a new region at the same address is new text
    enterRegion(region, size);
    std::size_t pos = 0;
    std::size_t counted = 0; // newlines before it are in `newlines`
    std::size_t lineStart = 0;
    std::size_t lineEnd = 0;
    while (pos < size && nextMatchingLine(region, size, pos, lineStart, lineEnd)) {
      ++matchedLines;
      // A sink that needs no more lines saves the line counting for the rest of the file.
      if (sink != nullptr && !sink->wantsLines()) sink = nullptr;
      if (sink != nullptr) {
        newlines += core::countNewlines(region + counted, lineStart - counted);
        const std::string_view line(region + lineStart, lineEnd - lineStart);
        if (!sink->matched(newlines + 1, search::reportedLine(line, FileSearcher::kMaxLineBytes))) return false;
        if (lineEnd < size) ++newlines; // its own "\n"
        counted = std::min(lineEnd + 1, size);
      }
      pos = lineEnd + 1;
    }
    if (sink != nullptr && !last) newlines += core::countNewlines(region + counted, size - counted);
    return true;
  }

  /// Searches one window of a line too long for the buffer (no "\n" in it): `first` if the line
  /// starts in it, `last` if it ends there.
  void searchWindow(const char* window, std::size_t size, bool first, bool last) {
    if (first) {
      inLongLine = true;
      longLineMatched = false;
      longLineNumber = newlines + 1;
      if (sink != nullptr) longLinePrefix.assign(window, std::min(size, FileSearcher::kMaxLineBytes + 1));
    }
    if (longLineMatched) return;
    enterRegion(window, size);
    const std::uint32_t options = (first ? 0 : PCRE2_NOTBOL) | (last ? 0 : PCRE2_NOTEOL);
    // A limit reached counts as no match in this window.
    longLineMatched = find(window, size, 0, options) == Outcome::Match;
  }

  /// Reports the long line if it matched; false once the sink says to stop.
  bool endLongLine() {
    inLongLine = false;
    ++newlines;
    if (!longLineMatched) return true;
    ++matchedLines;
    return sink == nullptr || sink->matched(longLineNumber, search::reportedLine(longLinePrefix, FileSearcher::kMaxLineBytes));
  }

  template <typename Reader>
  FileSearchResult searchAll(Reader& reader, SearchSink* lineSink, const core::CancellationToken* cancelledBy) {
    sink = lineSink;
    matchedLines = 0;
    newlines = 0;
    inLongLine = false;
    budget.restart();
    cancellation = cancelledBy;
    stoppedAs.reset();
    if (capacity != kBlockBytes) { // back to the usual size after a file of long lines
      buffer.reset(new char[kBlockBytes]);
      capacity = kBlockBytes;
    }
    FileSearchResult result;
    const auto finish = [&](FileSearchResult::Status status) {
      result.status = stoppedAs.value_or(status); // a search that stopped did not finish
      result.matchedLines = matchedLines;
      return result;
    };
    std::size_t filled = 0; // bytes in the buffer: none of them a "\n" when the loop starts again
    for (;;) {
      if (cancellation != nullptr && cancellation->isCancelled()) return finish(FileSearchResult::Status::Cancelled);
      if (stoppedAs) return finish(*stoppedAs);
      if (filled == capacity) { // one line fills the buffer
        if (capacity < kMaxBufferBytes) {
          const std::size_t grown = std::min(capacity * 2, kMaxBufferBytes);
          std::unique_ptr<char[]> larger(new char[grown]);
          std::memcpy(larger.get(), buffer.get(), filled);
          buffer = std::move(larger);
          capacity = grown;
        } else {
          searchWindow(buffer.get(), filled, !inLongLine, false);
          const std::size_t kept = longLineMatched ? 0 : kWindowOverlapBytes;
          std::memmove(buffer.get(), buffer.get() + filled - kept, kept);
          filled = kept;
        }
      }
      char* fresh = buffer.get() + filled;
      const long got = reader.read(fresh, capacity - filled);
      if (got < 0) {
        result.error = std::strerror(errno);
        return finish(FileSearchResult::Status::Unreadable);
      }
      std::size_t freshSize = static_cast<std::size_t>(got);
      budget.read(freshSize);
      if (freshSize == 0) { // the end: the rest is the last line
        if (inLongLine) {
          searchWindow(buffer.get(), filled, false, true);
          endLongLine();
        } else {
          searchRegion(buffer.get(), filled);
        }
        return finish(FileSearchResult::Status::Searched);
      }
      if (std::memchr(fresh, '\0', freshSize) != nullptr) return finish(FileSearchResult::Status::Binary);
      filled += freshSize;
      if (inLongLine) {
        const void* newline = std::memchr(fresh, '\n', freshSize);
        if (newline == nullptr) continue;
        const std::size_t lineSize = static_cast<std::size_t>(static_cast<const char*>(newline) - buffer.get());
        searchWindow(buffer.get(), lineSize, false, true);
        if (stoppedAs) return finish(*stoppedAs);
        if (!endLongLine()) return finish(FileSearchResult::Status::Searched);
        filled -= lineSize + 1;
        std::memmove(buffer.get(), buffer.get() + lineSize + 1, filled);
        fresh = buffer.get();
        freshSize = filled;
      }
      if (reader.atEnd()) { // all of the file is here: the rest is the last region
        searchRegion(buffer.get(), filled, true);
        return finish(FileSearchResult::Status::Searched);
      }
      // The complete lines; the buffer before the fresh bytes holds no "\n".
      const void* lastNewline = ::memrchr(fresh, '\n', freshSize);
      if (lastNewline == nullptr) continue;
      const std::size_t regionSize = static_cast<std::size_t>(static_cast<const char*>(lastNewline) - buffer.get()) + 1;
      if (!searchRegion(buffer.get(), regionSize)) return finish(FileSearchResult::Status::Searched);
      filled -= regionSize;
      std::memmove(buffer.get(), buffer.get() + regionSize, filled);
    }
  }
};

FileSearcher::FileSearcher(const SearchPattern& pattern) : state_(std::make_unique<State>(pattern.engine_)) {}

FileSearcher::~FileSearcher() = default;

FileSearchResult FileSearcher::search(const std::filesystem::path& path, SearchSink* sink,
                                      const core::CancellationToken& cancellation) {
  return search(AT_FDCWD, path.string(), true, sink, cancellation);
}

FileSearchResult FileSearcher::search(int directory, const std::string& name, bool followLink, SearchSink* sink,
                                      const core::CancellationToken& cancellation, bool listedAsRegular) {
  // Through the one opener of readable files: a FIFO, a device or a file of /proc or /sys is
  // refused before it is opened, since reading it can block or never end.
  struct stat status {};
  auto opened = core::openReadableFileAt(directory, name, followLink, &status, &state_->fileSystems, listedAsRegular);
  if (auto* refusal = std::get_if<core::ReadableFileRefusal>(&opened)) {
    FileSearchResult result;
    result.status = FileSearchResult::Status::Unreadable;
    result.error = refusal->reason;
    return result;
  }
  const core::UniqueFd file = std::move(std::get<core::UniqueFd>(opened));
  FileReader reader{file.get(), static_cast<std::uint64_t>(status.st_size)}; // a regular file: it was opened
  return state_->searchAll(reader, sink, &cancellation);
}

FileSearchResult FileSearcher::searchBytes(std::string_view bytes, SearchSink* sink) {
  MemoryReader reader{bytes};
  return state_->searchAll(reader, sink, nullptr);
}

} // namespace toold::builtins
