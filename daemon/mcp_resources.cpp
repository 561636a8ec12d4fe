#include "daemon/mcp_resources.h"

#include "daemon/server.h"
#include "protocol/params_error.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iterator>
#include <vector>

namespace toold::daemon {

namespace {

namespace fs = std::filesystem;
constexpr std::size_t kPageSize = 100;
// MCP's "resource not found" (the same number as -32002 before initialize; the method tells them apart).
constexpr int kResourceNotFound = -32002;

// Ids are the file names the output store makes (tool_<time><random>): nothing that could leave
// the folder.
bool validId(std::string_view id) {
  return !id.empty() && id.size() <= 128 && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

struct Entry {
  std::string id;
  std::uintmax_t size;
  fs::file_time_type modified;
};

std::vector<Entry> listOutputs(const fs::path& dir) {
  std::vector<Entry> entries;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string id = it->path().filename().string();
    if (!validId(id) || !it->is_regular_file(ec)) continue;
    entries.push_back(Entry{id, it->file_size(ec), it->last_write_time(ec)});
  }
  // Newest first, as a host wants the output it just saw cut; then by id, for a stable order.
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.modified != b.modified ? a.modified > b.modified : a.id < b.id;
  });
  return entries;
}

json describe(const Entry& entry) {
  return json{{"uri", std::string(kOutputUriPrefix) + entry.id},
              {"name", entry.id},
              {"title", "Full tool output " + entry.id},
              {"mimeType", "text/plain"},
              {"size", entry.size}};
}

} // namespace

void bindMcpResources(Server& server, fs::path outputDir) {
  server.declareCapability("resources", json{{"listChanged", true}});
  MethodTable& methods = server.methods();

  methods.request("resources/list", [outputDir](json&& params, const RequestContext&, Reply reply) {
    protocol::ParamsReader reader(params, "", /*nullIsEmpty=*/true);
    std::size_t offset = 0;
    if (auto cursor = reader.optionalString("cursor")) {
      auto [end, ec] = std::from_chars(cursor->data(), cursor->data() + cursor->size(), offset);
      if (ec != std::errc{} || end != cursor->data() + cursor->size()) reader.fail("cursor", "is not a cursor toold gave");
    }
    const auto entries = listOutputs(outputDir);
    json list = json::array();
    for (std::size_t i = offset; i < entries.size() && list.size() < kPageSize; ++i) list.push_back(describe(entries[i]));
    json result{{"resources", std::move(list)}};
    if (offset + kPageSize < entries.size()) result["nextCursor"] = std::to_string(offset + kPageSize);
    reply(std::move(result));
  });

  methods.request("resources/templates/list", [](json&&, const RequestContext&, Reply reply) {
    reply(json{{"resourceTemplates",
                json::array({json{{"uriTemplate", std::string(kOutputUriPrefix) + "{id}"},
                                  {"name", "tool-output"},
                                  {"title", "Full tool output"},
                                  {"description", "The whole text of a tool result that toold cut to its limits; "
                                                  "the id is the file name the cut text names"},
                                  {"mimeType", "text/plain"}}})}});
  });

  methods.request("resources/read", [outputDir](json&& params, const RequestContext&, Reply reply) {
    protocol::ParamsReader reader(params, "");
    const std::string uri = reader.requireString("uri");
    const std::string_view id = std::string_view(uri).substr(std::min(uri.size(), kOutputUriPrefix.size()));
    const fs::path path = outputDir / std::string(id);
    std::error_code ec;
    if (!uri.starts_with(kOutputUriPrefix) || !validId(id))
      return reply.error(protocol::RpcError{static_cast<protocol::ErrorCode>(kResourceNotFound),
                                            "Resource not found: " + uri, json{{"uri", uri}}});
    // An output toold kept may be gone since: removed for the folder's budget, or for its age.
    const auto gone = [&] {
      reply.error(protocol::RpcError{static_cast<protocol::ErrorCode>(kResourceNotFound),
                                     "Resource not found: " + uri + ": no output by that id is kept (any more: toold " +
                                         "removes the oldest outputs once the tool-output folder passes its size " +
                                         "budget, and any older than 7 days)",
                                     json{{"uri", uri}}});
    };
    if (!fs::is_regular_file(path, ec)) return gone();
    const auto size = fs::file_size(path, ec);
    if (ec || size > kMaxResourceBytes)
      throw InvalidParams("uri: " + uri + " holds " + std::to_string(size) + " bytes, more than a resource may (" +
                          std::to_string(kMaxResourceBytes) + "); read it with the read tool at " + path.string());
    std::ifstream in(path, std::ios::binary);
    if (!in) return gone();
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // Bytes that are not UTF-8 are replaced when the answer is encoded.
    reply(json{{"contents", json::array({json{{"uri", uri}, {"mimeType", "text/plain"}, {"text", std::move(text)}}})}});
  });
}

} // namespace toold::daemon
