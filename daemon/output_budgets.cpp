#include "daemon/output_budgets.h"

namespace toold::daemon {

ExplicitBudget explicitBudget(std::optional<std::size_t> flagLines, std::optional<std::size_t> flagBytes,
                              std::optional<std::size_t> configLines, std::optional<std::size_t> configBytes) {
  return ExplicitBudget{flagLines ? flagLines : configLines, flagBytes ? flagBytes : configBytes};
}

core::BoundingLimits faceBudget(const ExplicitBudget& set, const core::BoundingLimits& faceDefault) {
  return core::BoundingLimits{set.maxLines.value_or(faceDefault.maxLines), set.maxBytes.value_or(faceDefault.maxBytes)};
}

core::RetentionLimits retentionLimits(std::optional<std::uint64_t> flagBudget, std::optional<std::uint64_t> flagFile,
                                      std::optional<std::uint64_t> configBudget, std::optional<std::uint64_t> configFile) {
  const core::RetentionLimits defaults;
  return core::RetentionLimits{flagBudget.value_or(configBudget.value_or(defaults.folderBytes)),
                               flagFile.value_or(configFile.value_or(defaults.fileBytes))};
}

} // namespace toold::daemon
