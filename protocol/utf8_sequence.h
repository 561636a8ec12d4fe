// The one check of a UTF-8 sequence the JSON reader and writer share (Unicode Table 3-7: no
// overlong forms, no surrogates, nothing past U+10FFFF).
#pragma once

namespace toold::protocol {

/// The length of the well-formed UTF-8 sequence starting at `at` (before `end`), or, when it is
/// ill-formed, minus the length of its maximal subpart (at least 1): the bytes one U+FFFD stands
/// for when it is replaced.
int utf8SequenceAt(const unsigned char* at, const unsigned char* end);

} // namespace toold::protocol
