// Finding the end of a run of plain ASCII text, or of silent controls, sixteen bytes at a time.
// A read's lines are decoded as UTF-8 byte by byte only where they are not plain ASCII; most
// source text is, and a loop of two compares per byte was the larger part of a 100-line read's
// own work. A binary command's output is mostly controls that show nothing, dropped a run at once.
#pragma once
#include <cstddef>

namespace toold::builtins {

/// The first position in [from, limit) whose byte is not ASCII (0x80 and up) or is '\r'; `limit`
/// when there is none.
std::size_t plainAsciiRunEnd(const char* data, std::size_t from, std::size_t limit);

/// The first position in [from, limit) whose byte is not a control a terminal shows nothing for
/// (NUL and the like: every byte below 0x20 but tab, newline, carriage return, backspace and
/// escape, and DEL); `limit` when there is none. A binary stream is mostly such bytes.
std::size_t silentControlRunEnd(const char* data, std::size_t from, std::size_t limit);

/// Whether `byte` is one of those controls.
constexpr bool isSilentControl(unsigned char byte) {
  return (byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r' && byte != '\b' && byte != 0x1B) || byte == 0x7F;
}

} // namespace toold::builtins
