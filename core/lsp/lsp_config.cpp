#include "core/lsp/lsp_config.h"

#include "core/lsp/config_section_reader.h"
#include "core/lsp/project_folders.h"

#include <algorithm>
#include <system_error>
#include <unordered_map>

namespace toold::core {

namespace fs = std::filesystem;

namespace {

using Json = SectionReader::Json;
using At = SectionReader::At;

constexpr auto kServerKeys = R"("command", "extensions", "env", "initialization", "rootMarkers" or "disabled")";
constexpr auto kSettingKeys = R"("diagnosticsTimeout", "idleTimeout" and "requestTimeout")";

std::string builtInNames() {
  std::string names;
  for (const auto& server : builtInLspServers()) names += (names.empty() ? "" : ", ") + server.name;
  return names;
}

/// Lays the keys of `value` over `server`.
void readServer(const SectionReader& reader, const Json& value, const At& at, LspServerConfig& server) {
  if (!value.is_object())
    reader.fail(at, at.path + ": expected a server object, got " + SectionReader::describe(value) +
                        " (the settings beside the servers are " + kSettingKeys + ")");
  for (const auto& [key, entry] : value.items()) {
    const At member = at.member(key);
    if (key == "command")
      server.command = reader.command(entry, member);
    else if (key == "extensions")
      server.extensions = reader.extensions(entry, member);
    else if (key == "env")
      server.environment = reader.stringMap(entry, member);
    else if (key == "initialization")
      server.initialization = nlohmann::json::parse(entry.dump()); // any JSON, kept as written
    else if (key == "rootMarkers")
      server.rootMarkers = reader.strings(entry, member, false);
    else if (key == "disabled")
      server.disabled = reader.boolean(entry, member);
    else
      reader.fail(member, at.path + ": unknown key " + SectionReader::quoted(key) + " (expected " + kServerKeys + ")" +
                              (key == "environment" ? R"(; a language server's environment is "env", as in opencode)" : ""));
  }
}

LspServerConfig builtIn(std::string name, std::vector<std::string> command, std::vector<std::string> extensions,
                        std::vector<std::string> rootMarkers, std::string replacedBy = {}) {
  LspServerConfig server;
  server.name = std::move(name);
  server.command = std::move(command);
  server.extensions = std::move(extensions);
  server.rootMarkers = std::move(rootMarkers);
  server.builtIn = true;
  server.replacedBy = std::move(replacedBy);
  return server;
}

} // namespace

std::vector<LspServerConfig> builtInLspServers() {
  const std::vector<std::string> python{".py", ".pyi"};
  const std::vector<std::string> pythonMarkers{"pyproject.toml",   "setup.py", "setup.cfg",
                                               "requirements.txt", "Pipfile",  "pyrightconfig.json"};
  return {
      builtIn("clangd", {"clangd"},
              {".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".inl", ".m", ".mm"},
              // Not CMakeLists.txt nor Makefile: every subfolder of a CMake project has one, and a root per
              // subfolder would start a clangd per folder. clangd finds the build's compile_commands.json itself.
              {"compile_commands.json", "compile_flags.txt", ".clangd"}),
      builtIn("pyright", {"pyright-langserver", "--stdio"}, python, pythonMarkers),
      builtIn("pylsp", {"pylsp"}, python, pythonMarkers, "pyright"),
      builtIn("typescript", {"typescript-language-server", "--stdio"},
              {".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"},
              {"package-lock.json", "bun.lockb", "bun.lock", "yarn.lock", "pnpm-lock.yaml", "package.json",
               "tsconfig.json", "jsconfig.json"}),
      builtIn("bash", {"bash-language-server", "start"}, {".sh", ".bash", ".zsh", ".ksh"}, {}),
      builtIn("gopls", {"gopls"}, {".go"}, {"go.work", "go.mod", "go.sum"}),
      builtIn("rust", {"rust-analyzer"}, {".rs"}, {"Cargo.toml", "Cargo.lock"}),
  };
}

LspSettings parseLspConfig(std::string_view text, const std::string& displayName) {
  LspSettings settings;
  const auto section = SectionReader::section(text, "lsp");
  if (!section) return settings;
  const SectionReader reader(text, displayName);
  const At at{SectionReader::Pointer("/lsp"), "lsp"};
  if (section->is_boolean()) { // true: as without the section
    settings.enabled = section->get<bool>();
    return settings;
  }
  if (!section->is_object())
    reader.fail(at, "lsp: expected false or an object of servers, got " + SectionReader::describe(*section));
  std::map<std::string, LspServerConfig> declared;
  for (const auto& [key, value] : section->items()) {
    const At member = at.member(key);
    if (key == "diagnosticsTimeout") {
      settings.diagnosticsTimeout = reader.milliseconds(value, member, false);
    } else if (key == "idleTimeout") {
      settings.idleTimeout = reader.milliseconds(value, member, true);
    } else if (key == "requestTimeout") {
      settings.requestTimeout = reader.milliseconds(value, member, false);
    } else if (key.empty()) {
      reader.fail(member, "lsp: empty server name");
    } else if (auto known = std::find_if(settings.servers.begin(), settings.servers.end(),
                                         [&key](const LspServerConfig& server) { return server.name == key; });
               known != settings.servers.end()) {
      readServer(reader, value, member, *known);
    } else {
      LspServerConfig server;
      server.name = key;
      readServer(reader, value, member, server);
      if (server.command.empty() || server.extensions.empty())
        reader.fail(member, member.path + ": not a built-in server (" + builtInNames() + R"(), so it needs "command" and "extensions")");
      declared[key] = std::move(server);
    }
  }
  for (auto& [name, server] : declared) settings.servers.push_back(std::move(server));
  return settings;
}

LspSettings loadLspConfig(const fs::path& directory, const std::optional<fs::path>& explicitFile) {
  const auto config = readConfigText(directory, explicitFile);
  if (!config) return {};
  return parseLspConfig(config->first, config->second);
}

std::string lspLanguageId(const fs::path& file) {
  static const std::unordered_map<std::string, std::string> kByExtension = {
      {".c", "c"},          {".cc", "cpp"},          {".cpp", "cpp"},         {".cxx", "cpp"},
      {".c++", "cpp"},      {".h", "cpp"},           {".hh", "cpp"},          {".hpp", "cpp"},
      {".hxx", "cpp"},      {".h++", "cpp"},         {".ipp", "cpp"},         {".inl", "cpp"},
      {".tpp", "cpp"},      {".m", "objective-c"},   {".mm", "objective-cpp"}, {".py", "python"},
      {".pyi", "python"},   {".ts", "typescript"},   {".mts", "typescript"},  {".cts", "typescript"},
      {".tsx", "typescriptreact"}, {".js", "javascript"}, {".mjs", "javascript"}, {".cjs", "javascript"},
      {".jsx", "javascriptreact"}, {".sh", "shellscript"}, {".bash", "shellscript"}, {".zsh", "shellscript"},
      {".ksh", "shellscript"}, {".go", "go"},        {".rs", "rust"},         {".json", "json"},
      {".jsonc", "jsonc"},  {".md", "markdown"},     {".html", "html"},       {".htm", "html"},
      {".css", "css"},      {".scss", "scss"},       {".less", "less"},       {".yaml", "yaml"},
      {".yml", "yaml"},     {".toml", "toml"},       {".xml", "xml"},         {".java", "java"},
      {".kt", "kotlin"},    {".kts", "kotlin"},      {".rb", "ruby"},         {".php", "php"},
      {".lua", "lua"},      {".cs", "csharp"},       {".swift", "swift"},     {".zig", "zig"},
      {".dart", "dart"},    {".ex", "elixir"},       {".exs", "elixir"},      {".vue", "vue"},
      {".svelte", "svelte"}, {".sql", "sql"},        {".tf", "terraform"},    {".hs", "haskell"},
      {".ml", "ocaml"},     {".scala", "scala"},     {".clj", "clojure"},     {".nix", "nix"},
  };
  const auto found = kByExtension.find(file.extension().string());
  return found == kByExtension.end() ? "plaintext" : found->second;
}

std::vector<const LspServerConfig*> serversForFile(const LspSettings& settings, const fs::path& file,
                                                   const ProgramFinder& findProgram) {
  std::vector<const LspServerConfig*> serving;
  if (!settings.enabled) return serving;
  const std::string extension = file.extension().string();
  if (extension.empty()) return serving;
  for (const auto& server : settings.servers) {
    if (server.disabled || server.command.empty()) continue;
    if (std::find(server.extensions.begin(), server.extensions.end(), extension) == server.extensions.end()) continue;
    if (!findProgram(server.command.front())) continue;
    serving.push_back(&server);
  }
  std::vector<const LspServerConfig*> kept;
  for (const LspServerConfig* server : serving) {
    const bool replaced = !server->replacedBy.empty() &&
                          std::any_of(serving.begin(), serving.end(), [server](const LspServerConfig* other) {
                            return other->name == server->replacedBy;
                          });
    if (!replaced) kept.push_back(server);
  }
  return kept;
}

fs::path lspProjectRoot(const LspServerConfig& server, const fs::path& file, const fs::path& workspace) {
  const auto folders = foldersUpToWorkspace(file, workspace);
  for (const auto& folder : folders) {
    for (const auto& marker : server.rootMarkers) {
      std::error_code error;
      if (fs::exists(fs::symlink_status(folder / marker, error))) return folder;
    }
  }
  return folders.back();
}

} // namespace toold::core
