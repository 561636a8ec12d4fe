// An http or https URL, split into what a connection needs. Deliberately small: toold fetches
// pages and talks to MCP servers, so userinfo, other schemes and fragments have no use here.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace toold::core {

struct Url {
  std::string scheme;       // "http" or "https", lower-cased
  std::string host;         // a name (lower-cased) or an address, without IPv6 brackets
  std::uint16_t port = 0;   // the scheme's default when the URL names none
  std::string target;       // path and query, at least "/"; never the fragment

  bool isDefaultPort() const { return port == (scheme == "https" ? 443 : 80); }
  /// The Host header's value: the host, bracketed when IPv6, with the port when not the default.
  std::string authority() const;
  /// The URL written back, normalised (no fragment, no default port).
  std::string text() const;
};

/// Parses an absolute http(s) URL. On failure returns nothing and, when `error` is given, says why
/// in a sentence ("the URL has no host", "only http and https URLs can be fetched", ...).
std::optional<Url> parseUrl(std::string_view text, std::string* error = nullptr);

/// Resolves a reference (a redirect's Location: absolute, scheme-relative, absolute path or
/// relative path) against the URL it came from, as RFC 3986 §5 does for these forms.
std::optional<Url> resolveReference(const Url& base, std::string_view reference, std::string* error = nullptr);

} // namespace toold::core
