// The scan the JSON reader and writer share: how far a string's bytes can be copied as they are.
#pragma once

namespace toold::protocol {

/// The first byte at or after `at` (before `end`) that a JSON string cannot carry as it is: a
/// control byte, '"', '\\', or any byte of a non-ASCII sequence (checked one sequence at a time
/// by the caller). `end` when there is none. Thirty-two bytes per step where the CPU has AVX2,
/// sixteen with SSE2.
const unsigned char* plainStringRunEnd(const unsigned char* at, const unsigned char* end);

} // namespace toold::protocol
