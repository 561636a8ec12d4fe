#include "core/tools/catalog_filter.h"

#include <algorithm>
#include <array>

namespace toold::core {

namespace {

/// One row of the model variant table: a model matches when its id contains every `contains`
/// string and none of the `excludes`; a matching model does not see `hiddenWhenMatched`, any
/// other model does not see `hiddenOtherwise`.
struct ModelToolVariant {
  std::array<std::string_view, 1> contains;
  std::array<std::string_view, 2> excludes;
  std::array<std::string_view, 3> hiddenWhenMatched;
  std::array<std::string_view, 1> hiddenOtherwise;
};

// GPT models other than gpt-4 and the open-weight `oss` ones were trained on apply_patch. The two
// editing sets exclude each other (seed 004): `multiedit` is several `edit`s, so it goes with them.
constexpr std::array<ModelToolVariant, 1> kModelToolVariants{{
    {{"gpt-"}, {"oss", "gpt-4"}, {"edit", "write", "multiedit"}, {"apply_patch"}},
}};

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& list, std::string_view value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

bool modelMatches(const ModelToolVariant& variant, std::string_view model) {
  for (auto part : variant.contains)
    if (!part.empty() && model.find(part) == std::string_view::npos) return false;
  for (auto part : variant.excludes)
    if (!part.empty() && model.find(part) != std::string_view::npos) return false;
  return true;
}

} // namespace

bool hiddenForModel(std::string_view name, const std::optional<std::string>& model) {
  for (const auto& variant : kModelToolVariants) {
    const bool matched = model && modelMatches(variant, *model);
    if (matched ? contains(variant.hiddenWhenMatched, name) : contains(variant.hiddenOtherwise, name)) return true;
  }
  return false;
}

} // namespace toold::core
