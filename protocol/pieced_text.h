// A message written as pieces: a head of its own, then texts held elsewhere, then a tail of its
// own. A snapshot's answer is megabytes of definitions the registry holds as text already:
// copying them into one buffer only to write that buffer cost more than the write itself (the
// copy, and the fresh pages of a buffer that size); written as pieces (writev), they are copied
// once, into the pipe.
#pragma once

#include "protocol/framing.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace toold::protocol {

struct PiecedText {
  std::string head;
  /// Views of texts that `keep` keeps alive (and unchanged) for as long as this lives.
  std::vector<std::string_view> pieces;
  std::string tail;
  std::shared_ptr<const void> keep;

  std::size_t size() const;
  /// The whole text in one string (for a batch's array, which gathers its answers).
  std::string joined() const;
};

/// `text` framed as frameBody frames a body: a newline after it, or a Content-Length header before.
PiecedText framePieces(PiecedText text, Framing framing);

} // namespace toold::protocol
