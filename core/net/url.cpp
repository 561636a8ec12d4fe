#include "core/net/url.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <vector>

namespace toold::core {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::ranges::transform(out, out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool fail(std::string* error, std::string message) {
  if (error) *error = std::move(message);
  return false;
}

// Characters a request target may not carry raw; spaces are common in what models write, so they
// are percent-encoded rather than refused.
std::string encodeTarget(std::string_view target) {
  std::string out;
  out.reserve(target.size());
  static constexpr char hex[] = "0123456789ABCDEF";
  for (unsigned char c : target) {
    if (c <= 0x20 || c >= 0x7f || c == '"' || c == '<' || c == '>' || c == '\\' || c == '^' || c == '`' ||
        c == '{' || c == '|' || c == '}') {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

bool parseAuthority(std::string_view authority, Url& url, std::string* error) {
  if (const auto at = authority.rfind('@'); at != std::string_view::npos) {
    return fail(error, "URLs with a user name or password are not supported; send credentials in a header");
  }
  std::string_view host = authority;
  std::string_view port;
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) return fail(error, "the URL's IPv6 address has no closing ']'");
    host = authority.substr(1, close - 1);
    const std::string_view rest = authority.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return fail(error, "unexpected text after the URL's IPv6 address");
      port = rest.substr(1);
    }
  } else if (const auto colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.empty()) return fail(error, "the URL has no host");
  url.host = lower(host);
  url.port = url.scheme == "https" ? 443 : 80;
  if (!port.empty()) {
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc() || end != port.data() + port.size() || value == 0 || value > 65535) {
      return fail(error, "the URL's port '" + std::string(port) + "' is not a number from 1 to 65535");
    }
    url.port = static_cast<std::uint16_t>(value);
  }
  return true;
}

// Removes "." and ".." segments (RFC 3986 §5.2.4) from a path that starts with '/'.
std::string removeDotSegments(std::string_view path) {
  std::vector<std::string_view> segments;
  std::size_t start = 1;
  bool trailingSlash = false;
  while (start <= path.size()) {
    const auto slash = path.find('/', start);
    const std::string_view segment = path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    trailingSlash = false;
    if (segment == "..") {
      if (!segments.empty()) segments.pop_back();
      trailingSlash = true;
    } else if (segment == ".") {
      trailingSlash = true;
    } else {
      segments.push_back(segment);
    }
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  std::string out;
  for (const auto& segment : segments) {
    out += '/';
    out += segment;
  }
  if (trailingSlash || out.empty()) out += '/';
  return out;
}

} // namespace

std::string Url::authority() const {
  std::string out = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  if (!isDefaultPort()) out += ":" + std::to_string(port);
  return out;
}

std::string Url::text() const { return scheme + "://" + authority() + target; }

std::optional<Url> parseUrl(std::string_view text, std::string* error) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  const auto schemeEnd = text.find("://");
  if (schemeEnd == std::string_view::npos) {
    fail(error, "'" + std::string(text) + "' is not an absolute URL (it must start with http:// or https://)");
    return std::nullopt;
  }
  Url url;
  url.scheme = lower(text.substr(0, schemeEnd));
  if (url.scheme != "http" && url.scheme != "https") {
    fail(error, "only http and https URLs can be fetched, not " + url.scheme + "://");
    return std::nullopt;
  }
  std::string_view rest = text.substr(schemeEnd + 3);
  if (const auto hash = rest.find('#'); hash != std::string_view::npos) rest = rest.substr(0, hash);
  const auto targetStart = rest.find_first_of("/?");
  if (!parseAuthority(rest.substr(0, targetStart), url, error)) return std::nullopt;
  std::string_view target = targetStart == std::string_view::npos ? std::string_view() : rest.substr(targetStart);
  if (target.empty() || target.front() == '?') {
    url.target = "/" + encodeTarget(target);
  } else {
    url.target = encodeTarget(target);
  }
  return url;
}

std::optional<Url> resolveReference(const Url& base, std::string_view reference, std::string* error) {
  if (reference.find("://") != std::string_view::npos) return parseUrl(reference, error);
  if (reference.starts_with("//")) return parseUrl(base.scheme + ":" + std::string(reference), error);
  Url url = base;
  if (const auto hash = reference.find('#'); hash != std::string_view::npos) reference = reference.substr(0, hash);
  if (reference.empty()) return url;
  const std::string encoded = encodeTarget(reference);
  const auto query = encoded.find('?');
  const std::string path = encoded.substr(0, query);
  const std::string suffix = query == std::string::npos ? "" : encoded.substr(query);
  if (path.empty()) { // "?q" keeps the base path
    url.target = base.target.substr(0, base.target.find('?')) + suffix;
  } else if (path.front() == '/') {
    url.target = removeDotSegments(path) + suffix;
  } else {
    const std::string basePath = base.target.substr(0, base.target.find('?'));
    url.target = removeDotSegments(basePath.substr(0, basePath.rfind('/') + 1) + path) + suffix;
  }
  return url;
}

} // namespace toold::core
