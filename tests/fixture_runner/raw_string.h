// The argument of `>raw`: a double-quoted string whose escapes can spell any byte, so a fixture
// can send CRLF framing, a frame split in pieces, or invalid UTF-8 exactly.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace toold::fixture {

struct RawStringError : std::runtime_error {
  RawStringError(std::size_t at, const std::string& what) : std::runtime_error(what), offset(at) {}
  std::size_t offset; ///< where in the decoded text the problem starts (0-based)
};

/// Decodes `"..."` with the escapes \r \n \t \\ \" and \xHH (two hex digits). Whitespace may
/// surround the quotes; anything else outside them, a missing closing quote or an unknown escape
/// throws RawStringError.
std::string decodeRawString(std::string_view text);

/// The inverse, for showing bytes in traces: printable ASCII as is, the rest escaped.
std::string encodeRawString(std::string_view bytes);

} // namespace toold::fixture
