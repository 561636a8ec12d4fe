#include "protocol/utf8_sequence.h"

namespace toold::protocol {

int utf8SequenceAt(const unsigned char* at, const unsigned char* end) {
  const unsigned char lead = at[0];
  int length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;       // no overlong forms
    else if (lead == 0xED) high = 0x9F; // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;       // no overlong forms
    else if (lead == 0xF4) high = 0x8F; // nothing past U+10FFFF
  } else {
    return -1; // a continuation byte alone, C0, C1, F5..FF
  }
  for (int i = 1; i < length; ++i) {
    if (at + i >= end) return -i;
    const unsigned char next = at[i];
    if (next < (i == 1 ? low : 0x80) || next > (i == 1 ? high : 0xBF)) return -i;
  }
  return length;
}

} // namespace toold::protocol
