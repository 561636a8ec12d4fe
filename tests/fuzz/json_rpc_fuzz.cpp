// Fuzz target for what the server does with a frame's body: the bounded parse, the classifier,
// batches, and every answer and log rendering of the values a client sent. Besides "never crash"
// (a deep value overflowing a stack, a number out of range thrown), it checks the parse's
// contract: accepted text is within the depth limit, refused text says why, and dumpBounded stays
// within its size limit and renders as dump does when the value fits.
#include "protocol/bounded_json.h"
#include "protocol/framing.h"
#include "protocol/message.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace {

using nlohmann::json;
using namespace toold::protocol;

// The depth of a parsed value, walked with a stack of its own (the property must not recurse).
std::size_t depthOf(const json& value) {
  std::size_t deepest = 0;
  std::vector<std::pair<const json*, std::size_t>> stack{{&value, 0}};
  while (!stack.empty()) {
    auto [node, depth] = stack.back();
    stack.pop_back();
    if (!node->is_structured()) continue;
    deepest = std::max(deepest, depth + 1);
    for (const auto& member : *node) stack.emplace_back(&member, depth + 1);
  }
  return deepest;
}

void answer(Message&& message) {
  std::visit(
      [](auto&& m) {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, Request>) {
          (void)idKey(m.id);
          (void)encodeFrame(makeResult(m.id, std::move(m.params)), Framing::Ndjson);
        } else if constexpr (std::is_same_v<T, Response>) {
          (void)dumpBounded(m.id, kLogRender);
          if (m.result) (void)encodeFrame(makeResult(m.id, std::move(*m.result)), Framing::ContentLength);
          if (m.error) (void)encodeFrame(makeError(m.id, *m.error), Framing::Ndjson);
        } else if constexpr (std::is_same_v<T, Notification>) {
          (void)encodeFrame(makeNotification(m.method, std::move(m.params)), Framing::Ndjson);
        } else {
          (void)encodeFrame(makeError(m.id, m.error), Framing::Ndjson);
        }
      },
      std::move(message));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  // The first byte chooses the depth limit (small ones reach the limit with short inputs), the
  // second the rendering limits.
  const std::size_t maxDepth = data[0] == 0 ? kMaxJsonDepth : data[0] % 64;
  const RenderLimits limits{.maxDepth = data[1] % 16u, .maxBytes = 16u + data[1] * 8u, .indent = data[1] % 3 - 1};
  const std::string_view text(reinterpret_cast<const char*>(data + 2), size - 2);

  auto parsed = parseBounded(text, maxDepth);
  if (!parsed) {
    if (parsed.refusal->message.empty() || parsed.refusal->message.size() > 400) std::abort();
    if (parsed.refusal->kind == JsonRefusal::Kind::TooDeep && jsonNestingDepth(text, maxDepth) <= maxDepth) std::abort();
    return 0;
  }
  const json& value = parsed.value;
  if (depthOf(value) > maxDepth) std::abort();
  if (jsonNestingDepth(text, maxDepth) != depthOf(value)) std::abort();

  const std::string rendered = dumpBounded(value, limits);
  if (rendered.size() > limits.maxBytes + 64) std::abort();
  if (depthOf(value) <= limits.maxDepth && rendered.size() <= limits.maxBytes &&
      rendered != value.dump(limits.indent, ' ', false, json::error_handler_t::replace))
    std::abort();

  json copy = value;
  if (copy.is_array()) {
    for (auto& element : copy) answer(classify(std::move(element)));
  } else {
    answer(classify(std::move(copy)));
  }
  return 0;
}
