// toold-web.so: the parts of toold that need OpenSSL (https, for webfetch and MCP servers over
// Streamable HTTP) and gumbo (webfetch's HTML), in a module loaded the first time one of them is
// used. Most sessions never fetch a page; mapping and relocating those libraries on every start
// cost more than the rest of toold's start-up (3–9 ms of OpenSSL alone, measured).
//
// The module is looked for in the folder of toold's executable, then in ../lib/toold beside it;
// TOOLD_WEB_MODULE (a file's path) overrides both, for test programs that live elsewhere. Its
// entry points are C symbols (`toold_…`), each used by the one file that forwards to it.
#pragma once

#include <stdexcept>
#include <string>

namespace toold::core {

inline constexpr const char* kWebModuleName = "toold-web.so";

/// Why the module could not be used, as a sentence for the person (which file, what dlopen said).
class WebModuleError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The address of the module's `symbol`, loading the module on the first call (once per process;
/// a failure is remembered too). Throws WebModuleError when the module or the symbol is missing.
void* webModuleSymbol(const char* symbol);

/// The entry point `symbol` as a function of type `Function`.
template <typename Function> Function webModuleFunction(const char* symbol) {
  return reinterpret_cast<Function>(webModuleSymbol(symbol));
}

} // namespace toold::core
