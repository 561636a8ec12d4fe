#include "daemon/permission_methods.h"

#include "core/permission/permission_service.h"
#include "daemon/server.h"
#include "protocol/params_error.h"

namespace toold::daemon {

void bindPermissionMethods(Server& server, core::PermissionService& permissions) {
  MethodTable& methods = server.methods();

  methods.request("permission/list", [&permissions](json&& params, const RequestContext&, Reply reply) {
    protocol::ParamsReader reader(params, "", /*nullIsEmpty=*/true);
    json asks = json::array();
    for (auto& ask : permissions.pendingAsks(reader.optionalString("sessionID"))) asks.push_back(std::move(ask));
    reply(json{{"asks", std::move(asks)}});
  });

  methods.request("permission/approvals", [&permissions](json&& params, const RequestContext&, Reply reply) {
    protocol::ParamsReader reader(params, "", /*nullIsEmpty=*/true);
    json rules = json::array();
    for (const auto& rule : permissions.savedApprovals()) {
      json entry{{"action", rule.action}, {"resource", rule.resource}};
      if (rule.literal) entry["literal"] = true;
      rules.push_back(std::move(entry));
    }
    reply(json{{"rules", std::move(rules)}});
  });

  methods.request("permission/revoke", [&permissions](json&& params, const RequestContext&, Reply reply) {
    protocol::ParamsReader reader(params, "");
    const std::string action = reader.requireString("action");
    const std::string resource = reader.requireString("resource");
    try {
      reply(json{{"revoked", permissions.revokeApproval(action, resource)}});
    } catch (const std::runtime_error& e) {
      reply.error(protocol::ErrorCode::InternalError, std::string("Internal error: ") + e.what());
    }
  });
}

} // namespace toold::daemon
