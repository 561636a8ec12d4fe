// What a long-lived child (an MCP server, a language server) writes to stderr: handed on line by
// line for the log, and its end kept so that the reason given for its exit can quote it.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace toold::core {

class StderrTail {
public:
  /// Keeps the last `keep` bytes; lines handed on are cut at `lineMax` bytes.
  explicit StderrTail(std::size_t keep = 4096, std::size_t lineMax = 2000) : keep_(keep), lineMax_(lineMax) {}

  /// Takes the next bytes; `line` gets each line they complete, without its newline.
  void feed(std::string_view bytes, const std::function<void(std::string_view)>& line);
  /// Hands on a last line the child did not end (at its exit).
  void flush(const std::function<void(std::string_view)>& line);
  /// The kept end, trailing blanks and newlines removed; with `lines`, only that many last lines.
  std::string tail(std::size_t lines = std::string::npos) const;

private:
  std::size_t keep_;
  std::size_t lineMax_;
  std::string line_;
  std::string kept_;
};

} // namespace toold::core
