// What a terminal would show of a program's output, as plain text for the model: ANSI escape
// sequences removed and carriage-return redraws (progress bars, spinners, `\r`-updated counters)
// collapsed to the line's last state. Escape codes and redraws cost tokens and carry nothing a
// model can use (they can be most of a progress-heavy command's output); the raw bytes stay in
// the log file. Streaming: bytes may arrive split anywhere, even inside an escape sequence or a
// UTF-8 character, and the result is the same as for the whole input at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace toold::builtins {

class TerminalCleaner {
public:
  /// A line longer than `maxLineBytes` (after cleaning) keeps its first `maxLineBytes` bytes (cut
  /// at a UTF-8 character boundary) and ends with " [… N bytes cut]" before its '\n', so one
  /// endless line cannot grow the cleaner without bound.
  explicit TerminalCleaner(std::size_t maxLineBytes = 16 * 1024);

  /// Feeds raw bytes. Each line that ends within them is appended to `out`, cleaned, with its
  /// '\n'; the unfinished last line is kept for the next call. Returns how many lines it ended.
  ///
  /// Cleaning:
  ///  - CSI (`ESC [` … final byte 0x40–0x7E), OSC (`ESC ]` … BEL or `ESC \`), DCS/SOS/PM/APC
  ///    (`ESC P`, `ESC X`, `ESC ^`, `ESC _` … `ESC \`), charset designations (`ESC (` + one byte,
  ///    likewise `)`, `*`, `+`) and every other two-byte `ESC x` sequence are removed whole;
  ///  - "\r\n" ends the line like "\n" (the '\r' is dropped);
  ///  - a '\r' followed by anything else returns to the start of the line: what the line held is
  ///    discarded and the following bytes start it again (a redraw); a '\r' at the very end of
  ///    the output (see finish) keeps the line as it was;
  ///  - a backspace (0x08) removes the line's last character (a whole UTF-8 sequence), if any;
  ///  - other C0 controls (0x00–0x1F except '\t' and '\n') and DEL (0x7F) are removed; '\t' stays;
  ///  - every other byte, including invalid UTF-8, is kept as it is.
  ///
  /// Malformed sequences: an escape sequence other than a string (OSC, DCS…) is cut short by a C0
  /// control or a non-ASCII byte, and a string by '\n' (or CAN/SUB); that byte is then handled as
  /// text. So a stray ESC never swallows a line end, and every raw '\n' ends exactly one cleaned
  /// line (OutputDigest relies on it). "\r\r\n" ends the line like "\r\n" (text-mode CRLF on
  /// Windows doubles the '\r'). A backspace on a line already cut at maxLineBytes is ignored.
  std::size_t feed(std::string_view raw, std::string& out);

  /// The end of the output: appends the unfinished line, cleaned, without a '\n' (nothing when
  /// there is none). The cleaner is then empty, as if new.
  void finish(std::string& out);

private:
  enum class State : std::uint8_t { Text, Escape, Csi, String, StringEscape, Charset, CarriageReturn };
  bool step(unsigned char byte, std::string& out);
  bool text(unsigned char byte, std::string& out);
  bool escape(unsigned char byte, std::string& out);
  void commitLine(std::string& out);
  void appendBytes(const char* bytes, std::size_t count);
  void eraseLastCharacter();

  std::size_t maxLineBytes_;
  State state_ = State::Text;
  bool oscMayEndWithBel_ = false;
  std::string line_;           ///< the unfinished line, cleaned, at most maxLineBytes_
  std::uint64_t lineCutBytes_ = 0; ///< bytes of the unfinished line dropped past maxLineBytes_
};

/// The whole of `raw`, cleaned (feed, then finish).
std::string cleanTerminalText(std::string_view raw, std::size_t maxLineBytes = 16 * 1024);

} // namespace toold::builtins
