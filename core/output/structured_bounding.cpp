// Cutting a structured value's long strings, all to one width, until its JSON text fits the budget.
#include "core/output/structured_bounding.h"

#include <algorithm>
#include <vector>

namespace toold::core {

using nlohmann::json;

namespace {

/// How many times a width is tried: the first is estimated from the strings' escaped sizes and
/// fits unless cutting changed how much escaping the strings need (a preview's "\n\n" takes four
/// bytes in JSON); each further one is narrowed by what the last one missed by.
constexpr int kWidthTries = 4;

void collectStrings(json& value, std::vector<json*>& strings) {
  if (value.is_string()) {
    strings.push_back(&value);
  } else if (value.is_structured()) {
    for (auto& item : value) collectStrings(item, strings);
  }
}

std::size_t escapedSize(const json& string) {
  return string.dump(-1, ' ', false, json::error_handler_t::replace).size();
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
  const auto dumped = [](const json& v) { return v.dump(-1, ' ', false, json::error_handler_t::replace).size(); };
  const std::size_t total = dumped(value);
  if (total <= limits.maxBytes) return BoundedStructure{value, false, true};

  std::vector<json*> strings;
  json original = value;
  collectStrings(original, strings);
  std::vector<std::size_t> escaped;
  escaped.reserve(strings.size());
  std::size_t stringBytes = 0;
  for (const json* string : strings) {
    escaped.push_back(escapedSize(*string));
    stringBytes += escaped.back();
  }
  const std::size_t frame = total - stringBytes; // keys, punctuation, numbers: never cut
  if (frame >= limits.maxBytes) return BoundedStructure{value, false, false};

  std::size_t width = commonWidth(escaped, limits.maxBytes - frame);
  BoundedStructure best{value, false, false};
  for (int attempt = 0; attempt < kWidthTries && width > 2; ++attempt) {
    json bounded = original;
    std::vector<json*> targets;
    collectStrings(bounded, targets);
    std::size_t cutCount = 0;
    for (std::size_t i = 0; i < targets.size(); ++i) {
      if (escaped[i] <= width) continue;
      const std::string& text = strings[i]->get_ref<const std::string&>();
      // The width is in escaped bytes; the preview is measured raw: scaled by this string's own
      // ratio, a string dense in escapes gets fewer raw bytes.
      const std::size_t raw = (width - 2) * text.size() / std::max<std::size_t>(1, escaped[i] - 2);
      *targets[i] = boundedPreview(text, marker, BoundingLimits{limits.maxLines, raw});
      ++cutCount;
    }
    const std::size_t size = dumped(bounded);
    best = BoundedStructure{std::move(bounded), cutCount > 0, size <= limits.maxBytes};
    if (best.fits) return best;
    if (cutCount == 0) break;
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
