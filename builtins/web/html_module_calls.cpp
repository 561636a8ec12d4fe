// html_conversion.h in toold: each call forwarded to toold-web.so, which holds gumbo and the
// conversion itself (html_conversion.cpp) and is loaded on first use (core/net/web_module.h).
// Throws core::WebModuleError when the module cannot be loaded.
#include "builtins/web/html_conversion.h"

#include "core/net/web_module.h"

namespace toold::builtins {

namespace {

using Conversion = void (*)(std::string_view, std::optional<std::string>&);

std::optional<std::string> convert(const char* entry, std::string_view html) {
  std::optional<std::string> out;
  core::webModuleFunction<Conversion>(entry)(html, out);
  return out;
}

} // namespace

std::optional<std::string> htmlToMarkdown(std::string_view html) { return convert("toold_html_to_markdown", html); }

std::optional<std::string> htmlToText(std::string_view html) { return convert("toold_html_to_text", html); }

bool htmlTooDeep(std::string_view html) {
  return core::webModuleFunction<bool (*)(std::string_view)>("toold_html_too_deep")(html);
}

} // namespace toold::builtins
