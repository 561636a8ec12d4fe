// One run: scratch directory, files and links, toold started, steps played, the end checked.
// Both modes play the same steps and read toold's output as it comes; in file mode the sends are
// already in the stdin file, so the send, wait and close steps do nothing. A `restart` replaces
// toold by a new one on the same directories (pipe mode only).
#include "runner.h"

#include "captures.h"
#include "daemon_output.h"
#include "daemon_process.h"
#include "failure_report.h"
#include "json_pattern.h"
#include "raw_string.h"
#include "regex.h"
#include "scratch_dir.h"
#include "unordered_group.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <string_view>
#include <thread>
#include <utility>

#include <fcntl.h>
#include <unistd.h>

namespace toold::fixture {
namespace {

// Once toold has closed its stdout it is on its way out; this only bounds a wedged shutdown.
constexpr auto kExitGrace = std::chrono::seconds(5);

std::string durationText(std::chrono::milliseconds duration) {
  const auto ms = duration.count();
  if (ms % 1000 == 0) return std::to_string(ms / 1000) + "s";
  return std::to_string(ms) + "ms";
}

/// Thrown inside a run to stop at the first failure.
struct Failed {
  Failure failure;
};

using Environment = std::vector<std::pair<std::string, std::string>>;

/// Sets variables in the runner's own environment for its lifetime, then puts back what was
/// there. ChildProcess hands toold the runner's environment, and the runner is single-threaded:
/// nothing else sees the change.
class EnvironmentOverride {
public:
  explicit EnvironmentOverride(const Environment& variables) {
    for (const auto& [name, value] : variables) {
      const char* old = std::getenv(name.c_str());
      saved_.emplace_back(name, old != nullptr ? std::optional<std::string>(old) : std::nullopt);
      ::setenv(name.c_str(), value.c_str(), 1);
    }
  }
  ~EnvironmentOverride() {
    // Backwards, so that a name set twice gets its original value back.
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
      if (it->second)
        ::setenv(it->first.c_str(), it->second->c_str(), 1);
      else
        ::unsetenv(it->first.c_str());
    }
  }
  EnvironmentOverride(const EnvironmentOverride&) = delete;
  EnvironmentOverride& operator=(const EnvironmentOverride&) = delete;

private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

class Session {
public:
  Session(const Fixture& fixture, Mode mode, const RunOptions& options)
      : fixture_(fixture), mode_(mode), options_(options) {
    captures_["workspace"] = scratch_.workspace().string();
    captures_["data"] = scratch_.data().string();
    captures_["outside"] = scratch_.outside().string();
  }

  RunResult run() {
    try {
      start();
      for (const auto& step : fixture_.steps) play(step);
      finish();
    } catch (const Failed& failed) {
      return fail(failed.failure);
    } catch (const std::exception& e) {
      return fail(Failure{0, e.what(), {}, {}, {}});
    }
    traceStderr();
    return {RunResult::Outcome::Pass, {}};
  }

private:
  [[noreturn]] static void failAt(int line, std::string headline, std::vector<Pattern> expected = {},
                                  std::string actual = {}, std::string why = {}) {
    throw Failed{Failure{line, std::move(headline), std::move(expected), std::move(actual), std::move(why)}};
  }

  void trace(const std::string& text) const {
    if (options_.trace != nullptr) *options_.trace << "    " << text << "\n";
  }

  /// The current toold's stderr (at a restart, the one that just ended).
  void traceStderr() const {
    if (options_.trace == nullptr) return;
    std::size_t total = 0;
    for (const auto& line : lastLines(stderrFile(), SIZE_MAX, total)) *options_.trace << "    | " << line << "\n";
  }

  /// Where the running toold writes its stderr. The failure report shows this one.
  std::filesystem::path stderrFile() const { return scratch_.root() / "stderr.log"; }

  /// Where the stderr of the Nth toold is kept once a restart has replaced it.
  std::filesystem::path restartedStderrFile(int n) const {
    return scratch_.root() / ("stderr." + std::to_string(n) + ".log");
  }

  std::string frame(const Step& step) const {
    if (step.kind == Step::Kind::SendRaw) return step.bytes;
    return protocol::encodeFrame(substituteCaptures(step.message, captures_), fixture_.framing);
  }

  void start() {
    createScratchEntries();
    prepareLaunch();
    launch();
  }

  std::filesystem::path areaDirectory(ScratchArea area) const {
    switch (area) {
    case ScratchArea::Workspace: return scratch_.workspace();
    case ScratchArea::Data: return scratch_.data();
    case ScratchArea::Outside: return scratch_.outside();
    }
    return scratch_.workspace();
  }

  /// The %file and %symlink entries in the order they are written: a later one may go through a
  /// link made by an earlier one.
  void createScratchEntries() {
    const auto& files = fixture_.files;
    const auto& links = fixture_.symlinks;
    std::size_t file = 0;
    std::size_t link = 0;
    while (file < files.size() || link < links.size()) {
      if (link == links.size() || (file < files.size() && files[file].line < links[link].line))
        createFile(files[file++]);
      else
        createSymlink(links[link++]);
    }
  }

  static void createParents(const std::filesystem::path& path, int line) {
    std::error_code error;
    std::filesystem::create_directories(path.parent_path(), error);
    if (error) failAt(line, "cannot create the directory " + path.parent_path().string() + ": " + error.message());
  }

  void createFile(const ScratchFile& file) const {
    const auto path = areaDirectory(file.area) / file.path;
    createParents(path, file.line);
    std::ofstream out(path, std::ios::binary);
    out << file.content;
    if (!out) failAt(file.line, "cannot create " + path.string());
  }

  void createSymlink(const ScratchSymlink& link) const {
    const auto path = areaDirectory(link.area) / link.path;
    createParents(path, link.line);
    // Only the directories are captured yet: any other ${...} stays in the target as written.
    const std::string target = interpolateKnown(link.target, captures_);
    std::error_code error;
    std::filesystem::create_symlink(target, path, error);
    if (error)
      failAt(link.line, "cannot create the symbolic link " + path.string() + " -> " + target + ": " + error.message());
  }

  /// toold's command line, environment and stdin: the same for every toold of the run.
  void prepareLaunch() {
    launch_.argv = {options_.tooldPath, "--directory", scratch_.workspace().string(), "--data-dir",
                    scratch_.data().string(), "--log-level", "debug",
                    // The language servers installed on the machine stay out of fixtures that do not
                    // ask for them (`%args --lsp on`): answers must not depend on what is installed.
                    "--lsp", "off"};
    for (const auto& arg : fixture_.args) launch_.argv.push_back(interpolate(arg, captures_));
    for (const auto& variable : fixture_.environment)
      environment_.emplace_back(variable.name, interpolate(variable.value, captures_));
    launch_.stderrFile = stderrFile().string();
    if (mode_ == Mode::File) {
      // Every send at once: captures other than the directories are excluded by skipReason.
      launch_.stdinFile = (scratch_.root() / "stdin").string();
      std::ofstream in(launch_.stdinFile, std::ios::binary);
      for (const auto& step : fixture_.steps)
        if (step.kind == Step::Kind::Send || step.kind == Step::Kind::SendRaw) in << frame(step);
      if (!in) failAt(0, "cannot write " + launch_.stdinFile);
    }
  }

  void launch() {
    std::string command;
    for (const auto& [name, value] : environment_) command += name + "=" + value + " ";
    for (const auto& arg : launch_.argv) command += arg + " ";
    command.pop_back();
    trace("$ " + command + (mode_ == Mode::File ? " < " + launch_.stdinFile : ""));
    // The output reads from the process: it goes first.
    output_.reset();
    process_.reset();
    const EnvironmentOverride environment(environment_);
    process_ = std::make_unique<DaemonProcess>(launch_);
    output_ = std::make_unique<DaemonOutput>(*process_, fixture_.framing);
  }

  void play(const Step& step) {
    switch (step.kind) {
    case Step::Kind::Send:
    case Step::Kind::SendRaw: {
      if (mode_ == Mode::File) return;
      std::string bytes;
      try {
        bytes = frame(step);
      } catch (const std::runtime_error& e) {
        failAt(step.line, std::string("cannot build the message to send: ") + e.what());
      }
      trace(step.kind == Step::Kind::Send ? "> " + substituteCaptures(step.message, captures_).dump()
                                          : ">raw " + encodeRawString(bytes));
      if (auto error = process_->writeStdin(bytes, Clock::now() + fixture_.timeout); !error.empty()) {
        // Most often toold has died: say how, rather than leave it to the stderr tail.
        const auto exit = process_->waitExit(Clock::now() + std::chrono::milliseconds(500));
        failAt(step.line, "cannot send: " + error + (exit ? " (toold: " + exit->describe() + ")" : ""));
      }
      return;
    }
    case Step::Kind::Wait:
      if (mode_ == Mode::File) return;
      trace("wait " + std::to_string(step.wait.count()) + "ms");
      std::this_thread::sleep_for(step.wait);
      return;
    case Step::Kind::Close:
      if (mode_ == Mode::File) return;
      trace("close");
      process_->closeStdin();
      return;
    case Step::Kind::Signal:
      if (mode_ == Mode::File) return;
      trace("signal " + std::to_string(step.signal));
      ::kill(process_->pid(), step.signal);
      return;
    case Step::Kind::Restart: return restart(step);
    case Step::Kind::Expect: return expect(step);
    case Step::Kind::Put: return putFile(step);
    case Step::Kind::Check: return checkFile(step);
    }
  }

  void putFile(const Step& step) const {
    const auto path = areaDirectory(static_cast<ScratchArea>(step.area)) / step.path;
    trace("put " + path.string() + " " + encodeRawString(step.bytes));
    createParents(path, step.line);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << step.bytes;
    if (!out) failAt(step.line, "cannot write " + path.string());
  }

  void checkFile(const Step& step) const {
    const auto path = areaDirectory(static_cast<ScratchArea>(step.area)) / step.path;
    std::error_code error;
    const auto status = std::filesystem::symlink_status(path, error);
    const bool exists = std::filesystem::exists(status);
    if (step.check == Step::CheckWhat::Absent) {
      if (exists) failAt(step.line, path.string() + " exists, but should not");
      return;
    }
    if (!exists) failAt(step.line, path.string() + " does not exist");
    if (step.check == Step::CheckWhat::ProcessGone || step.check == Step::CheckWhat::ProcessAlive)
      return checkProcess(step, path);
    if (step.check == Step::CheckWhat::Mode) {
      const auto mode = static_cast<unsigned>(std::filesystem::status(path, error).permissions()) & 07777u;
      if (mode != step.mode) {
        char text[64];
        std::snprintf(text, sizeof text, "has mode %04o, expected %04o", mode, step.mode);
        failAt(step.line, path.string() + " " + text);
      }
      return;
    }
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes != step.bytes)
      failAt(step.line, path.string() + " holds\n  " + encodeRawString(bytes) + "\nexpected\n  " + encodeRawString(step.bytes));
  }

  /// `check PATH pid-gone|pid-alive`: the process whose id the file holds. A zombie counts as gone
  /// (whoever inherited it may not reap it at once). Gone may take a moment after a kill, so it is
  /// waited for, up to %timeout; alive is checked once.
  void checkProcess(const Step& step, const std::filesystem::path& path) const {
    std::ifstream in(path);
    long pid = 0;
    if (!(in >> pid) || pid <= 1) failAt(step.line, path.string() + " does not hold a process id");
    const auto running = [pid] {
      if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return false;
      // Read with read(2), not a stream: a process reaped while its stat is read fails the read
      // with ESRCH, which libstdc++'s filebuf throws rather than reports as the end of the file.
      const auto statPath = "/proc/" + std::to_string(pid) + "/stat";
      const int fd = ::open(statPath.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) return false;
      char buffer[512];
      const auto count = ::read(fd, buffer, sizeof buffer);
      ::close(fd);
      if (count <= 0) return false;
      const std::string_view text(buffer, static_cast<size_t>(count));
      const auto close = text.rfind(')');
      return !(close != std::string::npos && close + 2 < text.size() && text[close + 2] == 'Z');
    };
    const auto id = std::to_string(pid);
    if (step.check == Step::CheckWhat::ProcessAlive) {
      if (!running()) failAt(step.line, "process " + id + " (from " + path.string() + ") is not running");
      return;
    }
    const auto deadline = Clock::now() + fixture_.timeout;
    while (running()) {
      if (Clock::now() > deadline) failAt(step.line, "process " + id + " (from " + path.string() + ") is still running");
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  /// A notification the fixture's %skip lines drop.
  bool skipped(const Received& received) const {
    const auto& message = received.message;
    if (!received.garbage.empty() || !message.is_object() || message.contains("id")) return false;
    const auto method = message.find("method");
    if (method == message.end() || !method->is_string()) return false;
    const auto& skips = fixture_.skippedNotifications;
    return std::find(skips.begin(), skips.end(), method->get<std::string>()) != skips.end();
  }

  /// The next message, or a failure of `step` naming what arrived instead.
  nlohmann::json receive(const Step& step, const std::vector<nlohmann::json>& groupSoFar) {
    Received received;
    const auto bound = step.within.count() > 0 ? step.within : fixture_.timeout;
    const auto deadline = Clock::now() + bound;  // skipped notifications do not extend a `within`
    auto status = output_->next(received, deadline);
    while (status == DaemonOutput::Status::Received && skipped(received)) {
      trace("< (skipped) " + received.message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
      status = output_->next(received, step.within.count() > 0 ? deadline : Clock::now() + fixture_.timeout);
    }
    if (status == DaemonOutput::Status::Received) {
      received_.push_back(received);
      if (!received.garbage.empty()) failAt(step.line, "toold wrote " + received.garbage, step.patterns);
      trace("< " + received.message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
      return std::move(received.message);
    }
    std::string nothing;
    if (status == DaemonOutput::Status::Timeout) {
      nothing = "nothing within " + durationText(bound);
    } else {
      const auto exit = process_->waitExit(Clock::now() + kExitGrace);
      nothing = "nothing: toold closed its stdout (" + (exit ? exit->describe() : std::string("still running")) + ")";
    }
    if (!groupSoFar.empty()) {
      nothing += "\nafter " + std::to_string(groupSoFar.size()) + " of the group's " +
                 std::to_string(step.patterns.size()) + " messages:";
      for (const auto& message : groupSoFar) nothing += "\n" + prettyJson(message);
    }
    failAt(step.line, "an expected message did not arrive", step.patterns, nothing);
  }

  void expect(const Step& step) {
    std::vector<nlohmann::json> messages;
    for (std::size_t i = 0; i < step.patterns.size(); ++i) messages.push_back(receive(step, messages));
    if (!step.unordered) {
      auto result = matchPattern(step.patterns[0].value, messages[0], captures_);
      if (!result)
        failAt(step.line, "toold's message does not match", step.patterns, prettyJson(messages[0]), result.mismatch);
      return;
    }
    auto group = matchUnordered(patternValues(step), messages, captures_);
    if (group.matched) return;
    std::string actual;
    for (const auto& message : messages) actual += prettyJson(message) + "\n";
    std::string why;
    for (auto p : group.unmatchedPatterns)
      why += (why.empty() ? "" : "; ") + std::string("the pattern of line ") + std::to_string(step.patterns[p].line) +
             " matches none of the messages";
    if (why.empty()) why = "each pattern matches some message, but no pairing of messages and patterns matches all";
    failAt(step.line, "toold's " + std::to_string(messages.size()) + " messages do not match the unordered group",
           step.patterns, actual, why);
  }

  static std::vector<nlohmann::json> patternValues(const Step& step) {
    std::vector<nlohmann::json> values;
    for (const auto& pattern : step.patterns) values.push_back(pattern.value);
    return values;
  }

  int lastLine() const { return fixture_.steps.empty() ? 0 : fixture_.steps.back().line; }

  void finish() {
    const auto exit = awaitExit(lastLine(), false);
    checkExitStatus(lastLine(), exit, fixture_.exitStatus, "");
    checkStderr();
  }

  /// `restart`: toold must end as at the end of a fixture, with status 0 (%exit is for the last
  /// toold); then a new one starts on the same directories. File mode never gets here (skipReason).
  void restart(const Step& step) {
    trace("restart");
    const auto exit = awaitExit(step.line, true);
    checkExitStatus(step.line, exit, 0, " at the restart");
    traceStderr();
    // The new toold's stderr.log would truncate this one's; %stderr searches them all.
    std::error_code error;
    std::filesystem::rename(stderrFile(), restartedStderrFile(++restarts_), error);
    if (error) failAt(step.line, "cannot keep toold's stderr for the restart: " + error.message());
    launch();
  }

  /// Closes toold's input if it is open and waits for it to exit. Fails when it sends anything
  /// more or does not exit within %timeout.
  ExitStatus awaitExit(int line, bool restarting) {
    const std::string ending = restarting ? "the restart" : "the end of the fixture";
    if (process_->stdinOpen()) {
      trace(restarting ? "close (restart)" : "close (end of the fixture)");
      process_->closeStdin();
    }
    // Whatever toold still writes is unexpected; read until it closes stdout.
    const auto deadline = Clock::now() + fixture_.timeout;
    std::vector<Received> extra;
    for (;;) {
      Received received;
      const auto status = output_->next(received, deadline);
      if (status == DaemonOutput::Status::Eof) break;
      if (status == DaemonOutput::Status::Timeout) {
        const auto how = process_->kill();
        failAt(line, "toold did not exit within " + durationText(fixture_.timeout) + " after " + ending +
                         "; killed (" + how.describe() + ")");
      }
      if (skipped(received)) continue;
      trace("< " + received.message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
      received_.push_back(received);
      extra.push_back(std::move(received));
    }
    if (!extra.empty()) {
      std::string actual;
      for (const auto& received : extra)
        actual += received.garbage.empty() ? prettyJson(received.message) + "\n" : "(" + received.garbage + ")\n";
      failAt(line,
             "toold sent " + std::to_string(extra.size()) + " message(s) the fixture does not expect" +
                 (restarting ? " before the restart" : ""),
             {}, actual);
    }
    auto exit = process_->waitExit(Clock::now() + kExitGrace);
    if (!exit) {
      const auto how = process_->kill();
      failAt(line, "toold closed its stdout but did not exit within " + durationText(kExitGrace) + "; killed (" +
                       how.describe() + ")");
    }
    trace("toold: " + exit->describe());
    return *exit;
  }

  static void checkExitStatus(int line, const ExitStatus& exit, int expected, const std::string& when) {
    if (exit.signaled || exit.value != expected)
      failAt(line, std::string(exit.signaled ? "toold was " : "toold ended with ") + exit.describe() + when +
                       "; expected exit status " + std::to_string(expected));
  }

  /// Every %stderr regex must match a line of some toold's stderr: a restart does not hide the
  /// earlier ones.
  void checkStderr() const {
    if (fixture_.stderrExpectations.empty()) return;
    std::vector<std::string> lines;
    for (int n = 1; n <= restarts_ + 1; ++n) {
      std::size_t total = 0;
      auto more = lastLines(n <= restarts_ ? restartedStderrFile(n) : stderrFile(), SIZE_MAX, total);
      lines.insert(lines.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    }
    for (const auto& expectation : fixture_.stderrExpectations) {
      const Regex regex(expectation.regex);
      bool found = false;
      for (const auto& line : lines)
        if ((found = regex.search(line))) break;
      if (!found) failAt(expectation.line, "no line of toold's stderr matches /" + expectation.regex + "/");
    }
  }

  RunResult fail(const Failure& failure) {
    // Stop toold first: its stderr is then complete, and nothing of it outlives the run.
    if (process_) process_->kill();
    std::filesystem::path kept;
    if (options_.keepFailed) {
      scratch_.keep();
      kept = scratch_.root();
    }
    return {RunResult::Outcome::Fail, formatFailure(failure, FailureContext{fixture_, received_, stderrFile(), kept})};
  }

  const Fixture& fixture_;
  Mode mode_;
  const RunOptions& options_;
  ScratchDir scratch_;
  Captures captures_;
  client::ChildProcess::Options launch_;
  Environment environment_; ///< %env, substituted
  int restarts_ = 0;
  std::unique_ptr<DaemonProcess> process_;
  std::unique_ptr<DaemonOutput> output_;
  std::vector<Received> received_;
};

} // namespace

std::optional<std::string> skipReason(const Fixture& fixture, Mode mode) {
  if (mode == Mode::Pipe && !fixture.pipeMode) return "%modes excludes pipe mode";
  if (mode == Mode::File && !fixture.fileMode) return "%modes excludes file mode";
  if (mode == Mode::File && fixture.sendsUseCaptures) return "sends use captured values";
  if (mode == Mode::File && fixture.sendsSignals) return "the script sends signals";
  if (mode == Mode::File && fixture.restartsToold) return "the script restarts toold";
  if (mode == Mode::File && fixture.putsFiles) return "the script writes files while toold runs";
  return std::nullopt;
}

RunResult runFixture(const Fixture& fixture, Mode mode, const RunOptions& options) {
  if (auto reason = skipReason(fixture, mode)) return {RunResult::Outcome::Skip, *reason};
  try {
    return Session(fixture, mode, options).run();
  } catch (const std::exception& e) {
    // Only the scratch directory's creation can get here.
    return {RunResult::Outcome::Fail, "  " + fixture.path + ": " + e.what() + "\n"};
  }
}

} // namespace toold::fixture
