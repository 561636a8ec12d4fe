// toold's entry point: options, logging, the loop threads, stdio, signals, and the exit status.
#include "builtins/builtin_tools.h"
#include "builtins/execute.h"
#include "core/files/change_journal.h"
#include "core/files/journal_replay.h"
#include "core/lsp/formatter_config.h"
#include "core/lsp/lsp_config.h"
#include "core/process/orphan_reaper.h"
#include "core/process/process_runner.h"
#include "core/sandbox/command_sandbox.h"
#include "core/sandbox/sandbox_probe_cache.h"
#include "core/permission/permission_config.h"
#include "core/sources/mcp/mcp_client.h"
#include "core/lsp/lsp_service.h"
#include "core/tool_service.h"
#include "core/workspace/workspace_paths.h"
#include "core/workspace/workspace_root.h"
#include "core/workspace/workspace_root_watch.h"
#include "core/sources/config_tools.h"
#include "core/tools/tool_name.h"
#include "daemon/client_log_sink.h"
#include "daemon/config_methods.h"
#include "daemon/lazy_loop_thread.h"
#include "daemon/logging.h"
#include "daemon/checkpoint_methods.h"
#include "daemon/lsp_methods.h"
#include "daemon/mcp_client_methods.h"
#include "daemon/mcp_instructions.h"
#include "daemon/mcp_methods.h"
#include "daemon/mcp_resources.h"
#include "daemon/options.h"
#include "daemon/output_budgets.h"
#include "daemon/permission_methods.h"
#include "daemon/server.h"
#include "daemon/server_client_channel.h"
#include "daemon/stdin_reader.h"
#include "daemon/stdout_writer.h"
#include "daemon/testing/test_methods.h"
#include "daemon/testing/conformance_tools.h"
#include "daemon/testing/test_tools.h"
#include "daemon/tool_methods.h"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <spdlog/spdlog.h>

#include <sys/stat.h>

#include <array>
#include <csignal>
#include <fcntl.h>
#include <malloc.h>
#include <cstdio>
#include <future>
#include <string>
#include <string_view>
#include <thread>
#include <vector>
#include <unistd.h>

namespace {

// Loop threads: two, enough to keep one free while another runs a handler; tools' blocking work
// goes to a separate worker pool. The second starts with the first request that may put work on
// the loop: a start (initialize, then exit) runs on one, and the thread it spares is about 1 ms of
// a start's CPU.
constexpr std::array<std::string_view, 5> kLoopFreeMethods{"initialize", "ping", "shutdown", "logging/setLevel",
                                                            "$/test/threads"};
// MCP servers' pipes and sockets have a loop of their own, run by one thread: an answer is read,
// mapped and written by the thread that woke for it. On a loop of two threads, Asio wakes the
// other one to take over the reactor for every answer, a wake-up that costs this kind of VM as
// much as the rest of the answer's path.
constexpr int kMcpLoopConcurrency = 1;
// If tearing down takes longer than this, something is wedged: leave anyway.
constexpr unsigned kExitWatchdogSeconds = 3;
// Answers waiting for a client that does not read them: past the high mark toold reads no more
// requests, until the backlog is below the low mark. The gap keeps the reader from waking for
// every frame written; the high mark leaves room for a few maximal tool outputs.
constexpr std::size_t kOutputBacklogHigh = 16u << 20;
constexpr std::size_t kOutputBacklogLow = 4u << 20;

// The exit watchdog's alarm: a signal rather than a thread that sleeps, which would cost every
// exit a thread's start. Only async-signal-safe calls, so the line goes to stderr, not the log.
void leaveWedgedExit(int) {
  static constexpr char kMessage[] = "toold: exit took longer than 3s; leaving anyway\n";
  static_assert(kExitWatchdogSeconds == 3, "the message names the watchdog's time");
  [[maybe_unused]] const auto written = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  ::_exit(70);
}

} // namespace

int main(int argc, char** argv) {
  using namespace toold;
  namespace asio = boost::asio;

  auto parsed = daemon::parseCommandLine(argc, argv);
  if (!parsed.options) {
    // --help and --version answer on stdout like any command-line tool; no protocol has started,
    // and toold exits right after. Errors go to stderr.
    std::fprintf(parsed.exitStatus == 0 ? stdout : stderr, "%s\n", parsed.message.c_str());
    return parsed.exitStatus;
  }
  const daemon::Options& options = *parsed.options;
  if (auto error = daemon::initLogging(options.logLevel, options.logFile); !error.empty()) {
    std::fprintf(stderr, "toold: %s\n", error.c_str());
    return 2;
  }
  // The sandbox's probe answer is remembered in the data folder for the next start on the same
  // kernel, launcher and confinement (sandbox_probe_cache.h), and read here: a file and a few
  // /proc entries. Only when nothing is remembered does the probe (the launcher trying each
  // mechanism: milliseconds) run, on a thread of its own while the rest starts; its answer is
  // awaited only when the sandbox is made. A thread for the remembered answer would cost a start
  // more than reading it (a thread's stack and its own malloc arena).
  core::SandboxSettings sandboxSettings;
  std::optional<core::SandboxKernel> rememberedKernel;
  std::future<core::SandboxKernel> sandboxProbe;
  if (options.sandboxMode != core::SandboxMode::Off) {
    const auto probeFile = std::filesystem::absolute(options.dataDir) / "sandbox-probe.json";
    rememberedKernel = core::rememberedSandboxKernelNow(core::defaultSandboxLauncher(), probeFile);
    if (rememberedKernel)
      spdlog::debug("sandbox: the probe's answer remembered from an earlier start");
    else
      sandboxProbe = std::async(std::launch::async, [probeFile] {
        auto kernel = core::probeSandboxKernelRemembered(core::defaultSandboxLauncher(), probeFile);
        spdlog::debug("sandbox: the launcher probed");
        return kernel;
      });
  }
  // A config with an error is refused whole, before anything starts: never half-applied.
  core::PermissionConfig permissionConfig;
  core::McpConfig mcpConfig;
  core::LspSettings lspSettings;
  core::FormatterSettings formatterSettings;
  protocol::RegisterParams configTools;
  std::optional<std::filesystem::path> explicitConfig;
  if (!options.configFile.empty()) explicitConfig = options.configFile;
  try {
    permissionConfig = core::loadPermissionConfig(options.directory, explicitConfig);
    mcpConfig = core::loadMcpConfig(options.directory, explicitConfig);
    configTools = core::loadConfigTools(options.directory, explicitConfig);
    lspSettings = core::loadLspConfig(options.directory, explicitConfig);
    formatterSettings = core::loadFormatterConfig(options.directory, explicitConfig);
    sandboxSettings = permissionConfig.sandbox;
    if (options.sandboxMode) sandboxSettings.mode = options.sandboxMode;
  } catch (const core::ConfigError& e) {
    if (!options.logFile.empty()) spdlog::critical("{}", e.what());
    std::fprintf(stderr, "toold: %s\n", e.what());
    return 2;
  }
  // A client that closes stdout must not kill toold with SIGPIPE; the writer sees EPIPE instead.
  std::signal(SIGPIPE, SIG_IGN);
  // Room in stdout's pipe (when it is one) for a pipelining client's answers, a hundred 10 KB
  // reads, while it reads the earlier ones: toold's own thread goes on writing them instead of
  // handing them to the writer thread. Pages are taken only as they fill; 1 MiB is the most an
  // unprivileged process may ask (pipe-max-size), and where the system refuses, the pipe stays.
  ::fcntl(STDOUT_FILENO, F_SETPIPE_SZ, 1 << 20);
  // Blocks the size of a large file (an edit holds two or three at its peak) are mapped and
  // unmapped on their own, so a call's memory is returned when it ends. Left alone, glibc raises
  // this threshold each time such a block is freed, up to 32 MiB, and later ones stay in the heap,
  // kept by the allocator. 4 MiB keeps the read window's buffer (up to 1 MiB) in the heap, reused rather
  // than mapped and faulted in on every read; smaller files' blocks are handed back by the trim
  // after a large change (builtins/files/single_file_change).
  ::mallopt(M_MMAP_THRESHOLD, 4 * 1024 * 1024);
  // Fixing that threshold leaves the trim threshold at 128 KiB, and then the tens of KiB a call
  // frees are handed back to the kernel and faulted in again call after call (an madvise, and a
  // TLB flush on every CPU, each time). Up to 8 MiB free stays for the next call; a large change
  // still trims explicitly when it ends.
  ::mallopt(M_TRIM_THRESHOLD, 8 * 1024 * 1024);
  // An inherited SIGCHLD disposition of SIG_IGN would make the kernel reap children before toold
  // can read how they ended.
  core::resetChildSignalDisposition();

  std::unique_ptr<daemon::Server> server;
  std::unique_ptr<daemon::StdinReader> reader;
  std::promise<int> exitStatus;
  auto exitFuture = exitStatus.get_future();
  std::once_flag exitOnce;
  // The reader runs on this thread: once the status is known it stops reading, and the thread
  // goes on to the teardown below.
  auto exitWith = [&](int status) {
    std::call_once(exitOnce, [&] { exitStatus.set_value(status); });
    if (reader) reader->stop();
  };
  daemon::StdoutWriter writer(STDOUT_FILENO, [&] {
    spdlog::warn("stdout is closed; exiting");
    if (server) server->terminate(1, "stdout closed");
  });

  asio::io_context io;
  auto work = asio::make_work_guard(io);
  asio::io_context mcpIo(kMcpLoopConcurrency);
  auto mcpWork = asio::make_work_guard(mcpIo);
  // Its thread starts with the first MCP server.
  daemon::LazyLoopThread mcpLoop(mcpIo);
  daemon::LazyLoopThread secondLoop(io);
  auto outputFraming = [&] {
    protocol::Framing framing = reader ? reader->framing() : options.framing;
    return framing == protocol::Framing::Auto ? protocol::Framing::Ndjson : framing;
  };
  server = std::make_unique<daemon::Server>(
      io,
      [&](std::string&& message) { writer.send(protocol::frameBody(std::move(message), outputFraming())); },
      [&](int status) { exitWith(status); });
  server->setDrainTimeout(options.drainTimeout);
  server->setLoopWanted([&secondLoop] { secondLoop.want(); },
                        std::vector<std::string>(kLoopFreeMethods.begin(), kLoopFreeMethods.end()));
  server->setOutputHolder([&writer] { return std::make_shared<daemon::StdoutWriter::Cork>(writer); });
  server->setPiecesSend([&](protocol::PiecedText&& message) {
    writer.sendPieces(protocol::framePieces(std::move(message), outputFraming()));
  });
  if (options.testMethods) daemon::bindTestMethods(*server);

  // File changes a killed toold left half done are finished or undone before anything new is
  // written; from here on every staging file toold creates is journalled first.
  const auto journalDir = std::filesystem::absolute(options.dataDir) / "journal";
  const auto replay = core::replayJournals(journalDir);
  for (const auto& note : replay.notes) spdlog::warn("journal: {}", note);
  if (replay.rolledBack + replay.rolledForward + replay.interrupted > 0)
    spdlog::info("journal: {} change(s) rolled back, {} rolled forward, {} interrupted while undoing",
                 replay.rolledBack, replay.rolledForward, replay.interrupted);
  core::installProcessJournal(std::make_shared<core::ChangeJournal>(journalDir));

  core::ToolServiceOptions toolOptions;
  toolOptions.location = core::Location{options.directory, options.dataDir, core::findWorktree(options.directory)};
  toolOptions.location.root = core::openWorkspaceRoot(options.directory);
  // Kept until exit: while it watches, resolving a path need not stat the workspace's name.
  const auto rootWatch = core::watchWorkspaceRoot(io, toolOptions.location.root);
  // The flag's model wins over toold.json's `mcp.model`, which the service reads from the config in effect.
  if (!options.mcpModel.empty()) toolOptions.mcpModel = options.mcpModel;
  const core::CodemodeSettings codemodeSettings = permissionConfig.codemode;
  // The flags win over toold.json's `asks` section.
  const bool unattendedAllow = options.unattendedAllow.value_or(permissionConfig.unattendedAllow.value_or(false));
  toolOptions.permissionOptions.unattended = unattendedAllow ? core::UnattendedPolicy::Allow : core::UnattendedPolicy::Deny;
  toolOptions.permissionOptions.asks = options.asks.empty() ? permissionConfig.asks.value_or(core::AskRoute::Auto)
                                                            : core::parseAskRoute(options.asks).value_or(core::AskRoute::Auto);
  // How long a call may hold a command, per face: an MCP host gives up on a call after a fixed
  // time, a native runner waits as long as it takes. 0 turns it off.
  auto limitOrNone = [](std::chrono::milliseconds limit) {
    return limit.count() > 0 ? std::optional<std::chrono::milliseconds>(limit) : std::nullopt;
  };
  const auto mcpForegroundLimit = limitOrNone(
      options.foregroundLimit.value_or(permissionConfig.mcpForegroundLimit.value_or(daemon::kDefaultMcpForegroundLimit)));
  const auto nativeForegroundLimit = limitOrNone(options.nativeForegroundLimit);
  const daemon::ExplicitBudget userBudget =
      daemon::explicitBudget(options.maxOutputLines, options.maxOutputBytes, permissionConfig.outputMaxLines,
                             permissionConfig.outputMaxBytes);
  toolOptions.limits = daemon::faceBudget(userBudget, daemon::kCallFaceBudget);
  toolOptions.retention = daemon::retentionLimits(options.outputBudgetBytes, options.outputFileBytes,
                                                  permissionConfig.outputBudgetBytes, permissionConfig.outputFileBytes);
  const core::BoundingLimits mcpBudget = daemon::faceBudget(userBudget, daemon::kMcpFaceBudget);
  // The OS sandbox: what the settings want, as far as this kernel enforces it; said at start-up
  // and in initialize, so nobody believes in more than there is.
  auto sandbox = std::make_shared<const core::CommandSandbox>(
      sandboxSettings,
      sandboxSettings.mode == core::SandboxMode::Off ? core::SandboxKernel{}
      : rememberedKernel                             ? *rememberedKernel
      : sandboxProbe.valid()                         ? sandboxProbe.get()
                                                     : core::SandboxKernel{},
      toolOptions.location, explicitConfig.value_or(std::filesystem::path(options.directory) / core::kConfigFileName));
  if (!sandbox->report().contains("unenforced"))
    spdlog::info("{}", sandbox->summary());
  else
    spdlog::warn("{}", sandbox->summary());
  // The lists are turned into text only when they are logged: arguments are built before spdlog
  // looks at the level.
  if (spdlog::should_log(spdlog::level::debug))
    spdlog::debug("sandbox: reads {}; writes {}", nlohmann::json(sandbox->readable()).dump(),
                  nlohmann::json(sandbox->writable()).dump());
  server->declareCapability("experimental", nlohmann::json{{"toold/sandbox", sandbox->report()}});
  toolOptions.sandbox = sandbox;
  toolOptions.lsp = lspSettings;
  // The flag wins over the file; config/reload compares the file with what it said at start-up.
  if (options.lsp) toolOptions.lsp.enabled = *options.lsp;
  toolOptions.formatter = formatterSettings;
  if (!options.checkpoints.value_or(permissionConfig.checkpointsEnabled.value_or(true))) {
    toolOptions.checkpoints.reset();
  } else if (auto budget = options.checkpointBudgetBytes ? options.checkpointBudgetBytes
                                                          : permissionConfig.checkpointBudgetBytes) {
    toolOptions.checkpoints->budgetBytes = *budget;
  }
  toolOptions.permissionConfig = std::move(permissionConfig);
  toolOptions.permissionOptions.timeout = options.permissionTimeout;
  const core::Location location = toolOptions.location;
  auto tools = std::make_unique<core::ToolService>(io, std::move(toolOptions),
                                                   std::make_shared<daemon::ServerClientChannel>(*server));
  if (options.builtins) builtins::registerBuiltinTools(*tools);
  auto warmCodemode = builtins::installExecuteTool(*tools, codemodeSettings);
  if (!configTools.tools.empty()) {
    try {
      tools->registerTools(configTools);
    } catch (const core::RegistrationError& e) {
      std::fprintf(stderr, "toold: tools: %s\n", e.what());
      return 2;
    }
  }
  if (options.testMethods) daemon::registerTestTools(*tools);
  if (options.conformanceTools) daemon::registerConformanceTools(*tools);
  tools->setToolsChangedListener([&] { server->notify("notifications/tools/list_changed", nullptr); });
  // MCP servers start in parallel once the loop runs, and never delay initialize; a snapshot
  // waits for those still starting.
  auto mcp = std::make_unique<core::McpClient>(core::McpHost{
      mcpIo, tools->processes(), location,
      [&tools](const std::string& scope, std::vector<std::pair<std::string, core::Tool>> scopeTools) {
        tools->replaceTools(scope, std::move(scopeTools));
      },
      tools->client(), TOOLD_VERSION, options.mcpRestartDelay, options.mcpHealthyReset, sandbox,
      [&mcpLoop] { mcpLoop.want(); }});
  const daemon::SnapshotGate mcpSettled = [&mcp](std::function<void()> ready) { mcp->whenSettled(std::move(ready)); };
  daemon::bindToolMethods(*server, *tools, mcpSettled, warmCodemode, nativeForegroundLimit);
  daemon::bindMcpClientMethods(*server, *mcp);
  daemon::bindConfigMethods(*server, *tools, *mcp, options.directory, explicitConfig, lspSettings, formatterSettings);
  mcp->configure(mcpConfig);
  daemon::bindMcpMethods(*server, *tools, mcpSettled, daemon::McpCallSettings{options.mcpKeepAlive, mcpForegroundLimit, mcpBudget});
  server->setInstructions([&tools, workspace = options.directory] {
    return daemon::mcpInstructions(*tools->implicitSnapshot(), workspace);
  });
  auto clientLog = std::make_shared<daemon::ClientLogSink>(
      [&server](nlohmann::json params) { server->notify("notifications/message", std::move(params)); });
  daemon::addLogSink(clientLog);
  daemon::bindMcpLogging(*server, clientLog);
  daemon::bindMcpResources(*server, std::filesystem::absolute(options.dataDir) / "tool-output");
  daemon::bindPermissionMethods(*server, tools->permissions());
  daemon::bindLspMethods(*server, *tools);
  daemon::bindCheckpointMethods(*server, *tools);
  tools->startOutputCleanup();
  // As PID 1 (in a container) or a subreaper, toold inherits orphaned grandchildren; reap them,
  // or they stay zombies for as long as toold runs.
  std::unique_ptr<core::OrphanReaper> reaper;
  if (core::OrphanReaper::needed()) reaper = std::make_unique<core::OrphanReaper>(io);

  asio::signal_set signals(io, SIGTERM, SIGINT, SIGHUP);
  signals.async_wait([&](const boost::system::error_code& ec, int signo) {
    if (!ec) server->terminate(128 + signo, std::string("signal ") + strsignal(signo));
  });

  reader = std::make_unique<daemon::StdinReader>(
      STDIN_FILENO, options.framing, options.maxFrameBytes, std::chrono::microseconds(options.busyPollMicros),
      [&](std::vector<protocol::DecodedFrame>&& frames) {
        daemon::StdoutWriter::Cork cork(writer);
        server->post(std::move(frames), [&](std::size_t n) { reader->framesConsumed(n); });
      },
      [&](int error) { server->inputEnded(error); });
  writer.watchBacklog(kOutputBacklogHigh, kOutputBacklogLow,
                      [input = reader.get()](bool pressured) { input->setOutputBlocked(pressured); });
  // The loop starts only once `reader` is set: what runs on it (an MCP server's status
  // notification, say) reads the reader's framing as soon as it sends anything.
  std::thread loopThread([&io] { io.run(); });
  secondLoop.allow();
  mcpLoop.allow();
  // Started by hand: the person probably wants the interactive client, not raw JSON-RPC.
  if (::isatty(STDIN_FILENO) == 1)
    std::fprintf(stderr, "toold: stdin is a terminal; toold speaks JSON-RPC, one message per line. "
                         "For an interactive session run toold-repl.\n");
  spdlog::info("toold {} serving {} (framing {})", TOOLD_VERSION, options.directory,
               protocol::framingName(options.framing));

  // This thread reads stdin until the input ends (the exit status follows once the requests in
  // flight are drained) or toold exits for another reason (a signal, a closed stdout).
  reader->run();
  const int status = exitFuture.get();
  // MCP servers get their gentle end (close stdin, 2 s, SIGTERM, 2 s, SIGKILL) while the loop runs.
  mcp->stopAll(std::chrono::milliseconds(4500));
  // Language servers too: shutdown and exit, then the signals; whatever is left is killed below.
  {
    auto stopped = std::make_shared<std::promise<void>>();
    tools->lsp()->shutdown([stopped] { stopped->set_value(); });
    stopped->get_future().wait_for(std::chrono::milliseconds(2500));
  }
  struct sigaction watchdog {};
  watchdog.sa_handler = leaveWedgedExit;
  ::sigemptyset(&watchdog.sa_mask);
  ::sigaction(SIGALRM, &watchdog, nullptr);
  ::alarm(kExitWatchdogSeconds);

  reader->stop();
  writer.flush(std::chrono::milliseconds(1000));
  work.reset();
  mcpWork.reset();
  signals.cancel();
  io.stop();
  mcpIo.stop();
  loopThread.join();
  secondLoop.join();
  mcpLoop.join();
  // Every call was cancelled by the server; now no child process may outlive toold.
  clientLog->detach();
  tools->shutdown();
  mcp.reset();
  tools.reset();
  reaper.reset();
  writer.stop(std::chrono::milliseconds(500));
  server.reset();
  spdlog::shutdown();
  return status;
}
