// Cutting a structured value's long strings, all to one width, until its JSON text fits the budget.
#include "core/output/structured_bounding.h"

#include "protocol/json_writer.h"

#include <algorithm>
#include <vector>

namespace toold::core {

using nlohmann::json;

namespace {

/// How many times a width is tried: the first is estimated from the strings' escaped sizes and
/// fits unless cutting changed how much escaping the strings need (a preview's "\n\n" takes four
/// bytes in JSON); each further one is narrowed by what the last one missed by.
constexpr int kWidthTries = 4;

/// Collects the escaped size, quotes included, of each string value of `value` in order (keys are
/// not values: never cut); returns the bytes of the rest of its JSON text (keys,
/// punctuation, numbers), which no cut changes. Measured, not written.
std::size_t measureStrings(const json& value, std::vector<std::size_t>& escaped) {
  switch (value.type()) {
  case json::value_t::string:
    escaped.push_back(protocol::jsonStringSize(value.get_ref<const std::string&>()));
    return 0;
  case json::value_t::object: {
    const auto& members = value.get_ref<const json::object_t&>();
    std::size_t frame = 2 + (members.empty() ? 0 : members.size() - 1);
    for (const auto& [key, member] : members)
      frame += protocol::jsonStringSize(key) + 1 + measureStrings(member, escaped);
    return frame;
  }
  case json::value_t::array: {
    const auto& elements = value.get_ref<const json::array_t&>();
    std::size_t frame = 2 + (elements.empty() ? 0 : elements.size() - 1);
    for (const auto& element : elements) frame += measureStrings(element, escaped);
    return frame;
  }
  default: return protocol::jsonSize(value);
  }
}

/// A copy of `value` whose strings wider than `width` (escaped) are cut: the long strings are
/// written once, as their previews, never copied whole first. `next` counts the strings in the
/// order measureStrings found them, `cutCount` those cut.
json cutCopy(const json& value, const std::vector<std::size_t>& escaped, std::size_t width, std::string_view marker,
             std::size_t maxLines, std::size_t& next, std::size_t& cutCount) {
  switch (value.type()) {
  case json::value_t::string: {
    const std::size_t i = next++;
    if (escaped[i] <= width) return value;
    const std::string& text = value.get_ref<const std::string&>();
    // The width is in escaped bytes; the preview is measured raw: scaled by this string's own
    // ratio, a string dense in escapes gets fewer raw bytes.
    const std::size_t raw = (width - 2) * text.size() / std::max<std::size_t>(1, escaped[i] - 2);
    ++cutCount;
    return json(boundedPreview(text, marker, BoundingLimits{maxLines, raw}));
  }
  case json::value_t::object: {
    json copy(json::value_t::object);
    auto& members = copy.get_ref<json::object_t&>();
    for (const auto& [key, member] : value.get_ref<const json::object_t&>())
      members.emplace_hint(members.end(), key, cutCopy(member, escaped, width, marker, maxLines, next, cutCount));
    return copy;
  }
  case json::value_t::array: {
    json copy(json::value_t::array);
    auto& elements = copy.get_ref<json::array_t&>();
    elements.reserve(value.size());
    for (const auto& element : value.get_ref<const json::array_t&>())
      elements.push_back(cutCopy(element, escaped, width, marker, maxLines, next, cutCount));
    return copy;
  }
  default: return value;
  }
}

/// The widest escaped size W, quotes included, such that the strings, each at most W, fit in
/// `room`; 0 when not even empty strings do.
std::size_t commonWidth(std::vector<std::size_t> sizes, std::size_t room) {
  std::sort(sizes.begin(), sizes.end());
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const std::size_t left = sizes.size() - i;
    if (sizes[i] * left > room) return room / left;
    room -= sizes[i];
  }
  return sizes.empty() ? 0 : sizes.back();
}

} // namespace

BoundedStructure boundStructure(const json& value, const BoundingLimits& limits, std::string_view marker) {
  // Nearly every value is within the budget: measured up to the budget and no further.
  if (protocol::jsonSize(value, limits.maxBytes) <= limits.maxBytes) return BoundedStructure{json(), false, true};

  std::vector<std::size_t> escaped;
  const std::size_t frame = measureStrings(value, escaped); // keys, punctuation, numbers: never cut
  if (frame >= limits.maxBytes) return BoundedStructure{json(), false, false};

  std::size_t width = commonWidth(escaped, limits.maxBytes - frame);
  BoundedStructure best{json(), false, false};
  for (int attempt = 0; attempt < kWidthTries && width > 2; ++attempt) {
    std::size_t next = 0, cutCount = 0;
    json bounded = cutCopy(value, escaped, width, marker, limits.maxLines, next, cutCount);
    if (cutCount == 0) break;
    const std::size_t size = protocol::jsonSize(bounded);
    best = BoundedStructure{std::move(bounded), true, size <= limits.maxBytes};
    if (best.fits) return best;
    // What the cut strings missed by, shared among them, and a little more.
    const std::size_t narrower = (size - limits.maxBytes) / cutCount + 1 + width / 32;
    width = width > narrower + 2 ? width - narrower : 0;
  }
  return best;
}

std::string structureCutMarker(const std::string& savedPath) {
  if (savedPath.empty()) return "... cut to fit the output budget ...";
  return "... cut to fit the output budget; the call's full text is saved to " + savedPath + " ...";
}

} // namespace toold::core
