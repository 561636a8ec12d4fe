#include "daemon/lsp_methods.h"

#include "core/lsp/lsp_service.h"
#include "core/tool_service.h"
#include "core/workspace/workspace_paths.h"
#include "daemon/server.h"
#include "protocol/params_error.h"

namespace toold::daemon {

namespace {

json diagnosticsJson(const std::vector<core::LspDiagnostic>& list) {
  json out = json::array();
  for (const auto& diagnostic : list) out.push_back(core::diagnosticToJson(diagnostic));
  return out;
}

std::string relativeTo(const std::filesystem::path& path, const std::filesystem::path& workspace) {
  const auto relative = path.lexically_relative(workspace);
  if (relative.empty() || *relative.begin() == "..") return path.string();
  return relative.string();
}

} // namespace

void bindLspMethods(Server& server, core::ToolService& tools) {
  MethodTable& methods = server.methods();
  auto lsp = tools.lsp();
  const core::Location location = tools.options().location;

  methods.request("lsp/status", [lsp](json&&, const RequestContext&, Reply reply) {
    lsp->status([reply](json status) mutable { reply(std::move(status)); });
  });

  methods.request("lsp/diagnostics", [lsp, location](json&& params, const RequestContext&, Reply reply) {
    protocol::ParamsReader reader(params, "", /*nullIsEmpty=*/true);
    const auto path = reader.optionalString("path");
    if (!path) {
      json files = json::array();
      for (const auto& [file, errors] : lsp->filesWithErrors())
        files.push_back(json{{"path", relativeTo(file, location.directory)}, {"diagnostics", diagnosticsJson(errors)}});
      return reply(json{{"files", std::move(files)}});
    }
    core::ResolvedPath resolved;
    try {
      resolved = core::resolveToolPath(*path, location);
    } catch (const core::PathError& e) {
      return reply.error(protocol::ErrorCode::InvalidParams, std::string("Invalid params: path: ") + e.what());
    }
    if (!resolved.inside)
      return reply.error(protocol::ErrorCode::InvalidParams, "Invalid params: path: " + *path + " is outside the workspace");
    reply(json{{"path", relativeTo(resolved.canonical, location.directory)},
               {"served", lsp->serves(resolved.canonical)},
               {"diagnostics", diagnosticsJson(lsp->diagnosticsOf(resolved.canonical))}});
  });

  lsp->setDiagnosticsListener([&server, workspace = location.directory](const std::filesystem::path& file,
                                                                       std::vector<core::LspDiagnostic> list) {
    server.notify("lsp/diagnostics", json{{"path", relativeTo(file, workspace)}, {"diagnostics", diagnosticsJson(list)}});
  });
}

} // namespace toold::daemon
