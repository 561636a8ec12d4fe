// Which changes of toold.json config/reload cannot apply while toold runs. Most sections are read
// again and put in effect at once; a few are built into what started with toold (the ask route
// and unattended policy of the permission service, the answer budgets of every face, the MCP
// face's foreground limit, the limits Code Mode's workers were started with). A reload that changes
// one of those is refused whole, naming it, rather than answering success and keeping the old value.
#pragma once

#include "core/permission/permission_config.h"

#include <string>
#include <vector>

namespace toold::core {

/// The keys, as written in toold.json ("output.maxBytes", "asks.route"), whose value differs
/// between the config in effect and `next` and that take effect only at toold's next start.
/// Empty: `next` can be applied whole.
std::vector<std::string> keysNeedingRestart(const PermissionConfig& running, const PermissionConfig& next);

/// config/reload's refusal for `keys` (not empty): what changed, and that nothing was applied.
std::string restartRefusal(const std::vector<std::string>& keys);

} // namespace toold::core
