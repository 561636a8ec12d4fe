#include "protocol/pieced_text.h"

namespace toold::protocol {

std::size_t PiecedText::size() const {
  std::size_t total = head.size() + tail.size();
  for (const auto piece : pieces) total += piece.size();
  return total;
}

std::string PiecedText::joined() const {
  std::string out;
  out.reserve(size());
  out += head;
  for (const auto piece : pieces) out += piece;
  out += tail;
  return out;
}

PiecedText framePieces(PiecedText text, Framing framing) {
  if (framing == Framing::ContentLength) text.head.insert(0, "Content-Length: " + std::to_string(text.size()) + "\r\n\r\n");
  else text.tail.push_back('\n');
  return text;
}

} // namespace toold::protocol
