// `webfetch`: fetches a URL and returns it as Markdown, text or HTML (opencode §15.2), over
// core/net's bounded HTTP exchange. Redirects are followed here, at most 10, each target checked
// again (permission, and the private-address guard on the addresses it resolves to).
#pragma once

#include "core/tools/tool.h"

#include <functional>

namespace toold::builtins {

struct WebfetchOptions {
  /// Loopback and private addresses may be fetched (toold.json `webfetch.allowPrivateAddresses`).
  bool allowPrivateAddresses = false;
};

/// `options` is asked on every call: config/reload changes it for the next fetch.
core::Tool makeWebfetchTool(std::function<WebfetchOptions()> options);

/// opencode's Accept header for a format ("markdown", "text", "html").
std::string webfetchAccept(std::string_view format);

} // namespace toold::builtins
