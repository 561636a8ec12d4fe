// Binds the methods that show and manage the person's permissions: the asks waiting for an
// answer, and the saved approvals ("always" answers), which can be revoked.
#pragma once

namespace toold::core {
class PermissionService;
}

namespace toold::daemon {

class Server;

void bindPermissionMethods(Server& server, core::PermissionService& permissions);

} // namespace toold::daemon
