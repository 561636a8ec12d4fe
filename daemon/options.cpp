// Command-line parsing and the help text. Hand-written: a dozen options do not need a library.
#include "daemon/options.h"

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <vector>

namespace toold::daemon {
namespace {

constexpr std::string_view kHelp = R"(toold - a tool-execution daemon for AI coding agents.
Speaks JSON-RPC 2.0 on stdin/stdout (newline-delimited JSON or Content-Length framing);
logs go to stderr.

Usage: toold [options]

Options:
  --directory DIR        the Location (workspace) the tools work in (default: the current directory)
  --data-dir DIR         where toold keeps saved approvals and full tool output
                         (default: $XDG_DATA_HOME/toold, else ~/.local/share/toold)
  --framing MODE         auto (default: decided by the first byte), ndjson, or lsp
  --max-frame-bytes N    frames larger than N bytes are refused and skipped (default: 67108864)
  --busy-poll-us N       after a frame, watch stdin this many microseconds before sleeping,
                         for lower latency to a client in a request/response loop (default: 50;
                         0 never spins; no spin while the client's frames come further apart)
  --max-output-lines N   the lines of a tool's answer, everything included: read, grep and bash
                         fit their pages into it, other text is cut to a head and a tail with
                         the full text saved under the data dir (default: toold.json's
                         output.maxLines, else 2000 for call, 250 over MCP)
  --max-output-bytes N   the same for bytes of text (default: output.maxBytes, else 51200 for
                         call, 10000 over MCP, which every measured MCP host keeps whole)
  --output-budget N      the bytes all kept full outputs under <data-dir>/tool-output may take
                         together: past it the oldest go first (default: toold.json's
                         output.budgetBytes, else 4294967296, 4 GiB)
  --output-file-bytes N  the bytes one kept output may take: a larger one keeps its first and
                         last N/2 bytes, with a line saying how many were left out between
                         (default: output.fileBytes, else 268435456, 256 MiB)
  --config FILE          the permission config (default: toold.json in the directory, if any)
  --asks ROUTE           how permission asks are answered: auto (default: through the client
                         when it declared permission or form elicitation, until it answers a
                         form faster than a person can, 300 ms, with cancel or decline: then by
                         the unattended policy), client (always through the client), or
                         unattended (never the client). Also toold.json's "asks"
  --unattended POLICY    deny (default) or allow: what happens to a permission ask no one can
                         answer (the client cannot, or answers without a person, or --asks
                         unattended). Also toold.json's "asks": {"unattended": ...}
  --permission-timeout S refuse a permission ask left unanswered for S seconds (fractions
                         allowed; default: wait as long as the call lives)
  --drain-timeout S      at the end of input, requests in flight may finish for S seconds before
                         what is left is cancelled and toold exits (fractions allowed; 0 cancels
                         at once; default: 30). A closed stdout still exits at once.
  --mcp-model MODEL      the model the MCP face (tools/list, tools/call) chooses its tools for, as
                         a snapshot's model does: a GPT model sees apply_patch instead of edit and
                         write (default: toold.json's mcp.model, else none: edit and write)
  --foreground-limit S   an MCP tools/call of bash whose command still runs after S seconds
                         answers then: the command goes on as a background job (not stopped), and
                         the answer gives its shell ID, its output so far and how to follow it
                         with bash_output; bash_output's waits are bounded by it too (fractions
                         allowed; 0 never moves a command; default: toold.json's
                         mcp.foregroundLimit, else 45, below the 60 s hosts wait for a call)
  --native-foreground-limit S
                         the same for the native call method (default: 0, never: a native runner
                         waits for its calls as long as they take)
  --mcp-restart-delay S  the delay before an MCP server that failed is started again; it doubles
                         with each failure in a row, up to 60 s (fractions allowed; default: 1)
  --mcp-healthy-reset S  how long an MCP server must stay connected for its failures in a row to
                         be forgotten (its next restart waits the first delay again, and five
                         more failures are needed to give up; fractions allowed; default: 300)
  --mcp-keep-alive S     an MCP tools/call with a progress token that sent no progress for S
                         seconds repeats its newest progress message, so that a host that times
                         a silent call out (opencode: 60 s) keeps it (fractions allowed; default: 20)
  --sandbox MODE         the OS sandbox of the commands toold starts (bash, command tools):
                         workspace-write (default: writes only in the workspace and temp, reads
                         of the workspace and the system's folders, no network), read-only, or
                         off. Also toold.json's "sandbox", which says more (docs/security.md)
  --lsp on|off           language servers: diagnostics after edits and the lsp tool (default: on,
                         as toold.json's "lsp" says; docs/lsp.md)
  --checkpoints on|off   record what each call changes in the workspace, to be listed, diffed
                         and undone with the checkpoint/ methods (default: on, as toold.json's
                         checkpoints.enabled says; docs/checkpoints.md)
  --checkpoint-budget N  the bytes a workspace's checkpoints may take: past it the oldest
                         sessions' go first (default: checkpoints.budgetBytes, else 1 GiB)
  --log-level LEVEL      trace, debug, info (default), warn, error or off
  --log-file FILE        write the log to FILE instead of stderr
  --no-builtins          serve no built-in tools (read, list, write, edit, multiedit,
                         apply_patch, glob, grep): only the tools clients register
  --test-methods         bind the $/test/ methods and test tools used by fixtures and benchmarks
  --conformance-tools    serve the fixture tools MCP's conformance suite calls (scripts/conformance)
  --help                 print this help and exit
  --version              print the version and exit
)";

std::string defaultDataDir() {
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) return std::string(xdg) + "/toold";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.local/share/toold";
  return (std::filesystem::temp_directory_path() / "toold").string();
}

// "30", "0.25": seconds, to the millisecond; at least one millisecond.
std::optional<std::chrono::milliseconds> parseSeconds(std::string_view text) {
  double seconds = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
  if (ec != std::errc{} || end != text.data() + text.size() || !(seconds >= 0.001) || seconds > 86400.0 * 365)
    return std::nullopt;
  return std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000.0 + 0.5));
}

ParsedCommandLine fail(std::string message) {
  return ParsedCommandLine{std::nullopt, "toold: " + std::move(message) + "\nTry 'toold --help'.", 2};
}

} // namespace

ParsedCommandLine parseCommandLine(int argc, char** argv) {
  Options options;
  std::vector<std::string_view> args(argv + 1, argv + argc);
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    std::string_view value;
    bool hasValue = false;
    // Accept both `--opt value` and `--opt=value`.
    if (auto eq = arg.find('='); arg.starts_with("--") && eq != std::string_view::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      hasValue = true;
    }
    auto next = [&]() -> std::optional<std::string_view> {
      if (hasValue) return value;
      if (i + 1 >= args.size()) return std::nullopt;
      return args[++i];
    };
    auto needsValue = [&](std::string_view name) { return fail(std::string(name) + " needs a value"); };

    if (arg == "--help" || arg == "-h") return {std::nullopt, std::string(kHelp), 0};
    if (arg == "--version") return {std::nullopt, "toold " TOOLD_VERSION, 0};
    if (arg == "--test-methods") {
      options.testMethods = true;
    } else if (arg == "--conformance-tools") {
      options.conformanceTools = true;
    } else if (arg == "--no-builtins") {
      options.builtins = false;
    } else if (arg == "--directory" || arg == "--data-dir" || arg == "--log-level" || arg == "--log-file" ||
               arg == "--framing" || arg == "--max-frame-bytes" || arg == "--busy-poll-us" ||
               arg == "--max-output-lines" || arg == "--max-output-bytes" || arg == "--config" ||
               arg == "--output-budget" || arg == "--output-file-bytes" ||
               arg == "--unattended" || arg == "--asks" || arg == "--permission-timeout" || arg == "--mcp-model" ||
               arg == "--drain-timeout" || arg == "--mcp-restart-delay" || arg == "--mcp-healthy-reset" ||
               arg == "--mcp-keep-alive" || arg == "--foreground-limit" || arg == "--native-foreground-limit" ||
               arg == "--sandbox" || arg == "--lsp" || arg == "--checkpoints" || arg == "--checkpoint-budget") {
      auto v = next();
      if (!v) return needsValue(arg);
      if (arg == "--directory") {
        options.directory = std::string(*v);
      } else if (arg == "--data-dir") {
        options.dataDir = std::string(*v);
      } else if (arg == "--log-file") {
        options.logFile = std::string(*v);
      } else if (arg == "--config") {
        options.configFile = std::string(*v);
      } else if (arg == "--lsp") {
        if (*v != "on" && *v != "off") return fail("--lsp must be on or off (got '" + std::string(*v) + "')");
        options.lsp = *v == "on";
      } else if (arg == "--checkpoints") {
        if (*v != "on" && *v != "off") return fail("--checkpoints must be on or off (got '" + std::string(*v) + "')");
        options.checkpoints = *v == "on";
      } else if (arg == "--sandbox") {
        options.sandboxMode = core::parseSandboxMode(*v);
        if (!options.sandboxMode)
          return fail("--sandbox must be workspace-write, read-only or off (got '" + std::string(*v) + "')");
      } else if (arg == "--drain-timeout") {
        auto timeout = *v == "0" ? std::optional<std::chrono::milliseconds>(0) : parseSeconds(*v);
        if (!timeout) return fail("--drain-timeout must be 0 or a positive number of seconds (got '" + std::string(*v) + "')");
        options.drainTimeout = *timeout;
      } else if (arg == "--foreground-limit" || arg == "--native-foreground-limit") {
        auto limit = *v == "0" ? std::optional<std::chrono::milliseconds>(0) : parseSeconds(*v);
        if (!limit)
          return fail(std::string(arg) + " must be 0 or a positive number of seconds (got '" + std::string(*v) + "')");
        if (arg == "--foreground-limit")
          options.foregroundLimit = *limit;
        else
          options.nativeForegroundLimit = *limit;
      } else if (arg == "--mcp-restart-delay") {
        auto delay = parseSeconds(*v);
        if (!delay) return fail("--mcp-restart-delay must be a positive number of seconds (got '" + std::string(*v) + "')");
        options.mcpRestartDelay = *delay;
      } else if (arg == "--mcp-healthy-reset") {
        auto reset = parseSeconds(*v);
        if (!reset) return fail("--mcp-healthy-reset must be a positive number of seconds (got '" + std::string(*v) + "')");
        options.mcpHealthyReset = *reset;
      } else if (arg == "--mcp-keep-alive") {
        auto quiet = parseSeconds(*v);
        if (!quiet) return fail("--mcp-keep-alive must be a positive number of seconds (got '" + std::string(*v) + "')");
        options.mcpKeepAlive = *quiet;
      } else if (arg == "--mcp-model") {
        if (v->empty()) return fail("--mcp-model needs a model name");
        options.mcpModel = std::string(*v);
      } else if (arg == "--unattended") {
        if (*v != "deny" && *v != "allow")
          return fail("--unattended must be deny or allow (got '" + std::string(*v) + "')");
        options.unattendedAllow = *v == "allow";
      } else if (arg == "--asks") {
        if (*v != "auto" && *v != "client" && *v != "unattended")
          return fail("--asks must be auto, client or unattended (got '" + std::string(*v) + "')");
        options.asks = std::string(*v);
      } else if (arg == "--permission-timeout") {
        auto timeout = parseSeconds(*v);
        if (!timeout) return fail("--permission-timeout must be a positive number of seconds (got '" + std::string(*v) + "')");
        options.permissionTimeout = *timeout;
      } else if (arg == "--log-level") {
        static constexpr std::string_view kLevels[] = {"trace", "debug", "info", "warn", "error", "off"};
        if (std::find(std::begin(kLevels), std::end(kLevels), *v) == std::end(kLevels))
          return fail("--log-level must be one of trace, debug, info, warn, error, off (got '" + std::string(*v) + "')");
        options.logLevel = std::string(*v);
      } else if (arg == "--framing") {
        auto framing = protocol::parseFraming(*v);
        if (!framing) return fail("--framing must be auto, ndjson or lsp (got '" + std::string(*v) + "')");
        options.framing = *framing;
      } else if (arg == "--busy-poll-us") {
        unsigned n = 0;
        auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), n);
        if (ec != std::errc{} || end != v->data() + v->size() || n > 1'000'000)
          return fail("--busy-poll-us must be a whole number from 0 to 1000000 (got '" + std::string(*v) + "')");
        options.busyPollMicros = n;
      } else {
        std::size_t n = 0;
        auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), n);
        if (ec != std::errc{} || end != v->data() + v->size() || n == 0)
          return fail(std::string(arg) + " must be a positive whole number (got '" + std::string(*v) + "')");
        if (arg == "--max-frame-bytes") options.maxFrameBytes = n;
        if (arg == "--max-output-lines") options.maxOutputLines = n;
        if (arg == "--max-output-bytes") options.maxOutputBytes = n;
        if (arg == "--output-budget") options.outputBudgetBytes = n;
        if (arg == "--output-file-bytes") options.outputFileBytes = n;
        if (arg == "--checkpoint-budget") options.checkpointBudgetBytes = n;
      }
    } else {
      return fail("unknown option '" + std::string(arg) + "'");
    }
  }

  std::error_code ec;
  if (options.directory.empty()) options.directory = std::filesystem::current_path(ec).string();
  auto canonical = std::filesystem::canonical(options.directory, ec);
  if (ec || !std::filesystem::is_directory(canonical))
    return fail("--directory '" + options.directory + "' is not an existing directory");
  options.directory = canonical.string();
  if (options.dataDir.empty()) options.dataDir = defaultDataDir();
  return {std::move(options), {}, 0};
}

} // namespace toold::daemon
