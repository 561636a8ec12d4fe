#include "core/tools/catalog_view.h"

#include "core/permission/permission_evaluation.h"

namespace toold::core {

bool CatalogView::denies(std::string_view action, std::string_view resource) const {
  std::vector<const Ruleset*> layers = configured;
  if (snapshotRules) layers.push_back(snapshotRules.get());
  return lastMatchingRule(action, resource, layers).effect == PermissionEffect::Deny;
}

bool CatalogView::declared(std::string_view name) const {
  if (!capabilities.is_object()) return false;
  auto it = capabilities.find(std::string(name));
  return it != capabilities.end() && it->is_object();
}

} // namespace toold::core
