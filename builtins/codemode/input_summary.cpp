#include "builtins/codemode/input_summary.h"

#include <string>

namespace toold::codemode {

namespace {

using nlohmann::json;

constexpr std::size_t kStringShown = 120;
constexpr std::size_t kArrayShown = 8;
constexpr std::size_t kKeysShown = 16;
constexpr int kDepthShown = 6;
const char* const kElided = "…";

void addSize(const json& value, std::size_t limit, std::size_t& size) {
  if (size > limit) return;
  switch (value.type()) {
  case json::value_t::string: size += value.get_ref<const std::string&>().size() + 2; break;
  case json::value_t::object:
    size += 2;
    for (const auto& [key, member] : value.items()) {
      size += key.size() + 4;
      addSize(member, limit, size);
      if (size > limit) return;
    }
    break;
  case json::value_t::array:
    size += 2;
    for (const auto& member : value) {
      size += 1;
      addSize(member, limit, size);
      if (size > limit) return;
    }
    break;
  default: size += 8; break; // a number, a boolean or null: at most a few bytes more or less
  }
}

std::string cutString(const std::string& text) {
  std::size_t end = kStringShown;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0U) == 0x80U) --end;
  return text.substr(0, end) + "… (" + std::to_string(text.size()) + " bytes)";
}

json summarize(const json& value, int depth, std::size_t& budget) {
  if (budget == 0 || depth > kDepthShown) return kElided;
  switch (value.type()) {
  case json::value_t::string: {
    const auto& text = value.get_ref<const std::string&>();
    json shown = text.size() > kStringShown ? json(cutString(text)) : value;
    budget -= std::min(budget, shown.get_ref<const std::string&>().size() + 2);
    return shown;
  }
  case json::value_t::object: {
    json out = json::object();
    std::size_t keys = 0;
    for (const auto& [key, member] : value.items()) {
      if (++keys > kKeysShown || budget == 0) {
        out[kElided] = std::to_string(value.size() - keys + 1) + " more keys";
        break;
      }
      const std::string shownKey = key.size() > kStringShown ? cutString(key) : key;
      budget -= std::min(budget, shownKey.size() + 4);
      out[shownKey] = summarize(member, depth + 1, budget);
    }
    return out;
  }
  case json::value_t::array: {
    json out = json::array();
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (i >= kArrayShown || budget == 0) {
        out.push_back("… (" + std::to_string(value.size() - i) + " more items)");
        break;
      }
      out.push_back(summarize(value[i], depth + 1, budget));
    }
    return out;
  }
  default: budget -= std::min<std::size_t>(budget, 8); return value;
  }
}

} // namespace

std::size_t jsonSizeUpTo(const json& value, std::size_t limit) {
  std::size_t size = 0;
  addSize(value, limit, size);
  return size;
}

json inputSummary(const json& input) {
  if (jsonSizeUpTo(input, kInputShownBytes) <= kInputShownBytes) return input;
  std::size_t budget = kInputShownBytes;
  return summarize(input, 0, budget);
}

} // namespace toold::codemode
