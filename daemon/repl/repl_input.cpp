// Terminal input is libedit's blocking readline() with a getc hook: the hook waits on stdin and
// on the console's wake pipe, so queued output is printed above the prompt from the editing thread
// itself (libedit is not thread-safe, and its callback interface mishandles redisplay and Ctrl-D).
#include "daemon/repl/repl_input.h"

#include <cerrno>
#include <clocale>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <editline/readline.h>
#include <poll.h>
#include <unistd.h>

namespace toold::repl {
namespace {

constexpr int kHistoryLines = 1000;
constexpr std::size_t kReadChunk = 64 * 1024;
// What the getc hook hands libedit on Ctrl-C: ^U, which kills the whole line in emacs mode.
constexpr int kKillLine = 0x15;

LineInput* gActive = nullptr;
volatile std::sig_atomic_t gInterrupted = 0;

} // namespace

int editorGetcThunk(FILE*) { return gActive != nullptr ? gActive->editorGetc() : EOF; }

LineInput::LineInput(int fd, Console& console, std::string historyFile, Hooks hooks)
    : fd_(fd), console_(console), interactive_(::isatty(fd) == 1 && ::isatty(STDOUT_FILENO) == 1),
      historyFile_(std::move(historyFile)), hooks_(std::move(hooks)) {
  if (!interactive_) return;
  gActive = this;
  std::setlocale(LC_CTYPE, ""); // so libedit shows non-ASCII text as the terminal's encoding
  // Both must be set before libedit initializes: it reads them once.
  rl_getc_function = editorGetcThunk;
  rl_catch_signals = 0; // the REPL handles Ctrl-C itself
  using_history();
  stifle_history(kHistoryLines);
  if (!historyFile_.empty()) read_history(historyFile_.c_str());
  console_.setDeferred(true);
}

LineInput::~LineInput() { stop(); }

void LineInput::interrupt() { gInterrupted = 1; }

LineInput::Wait LineInput::waitForInput() {
  for (;;) {
    if (gInterrupted) {
      gInterrupted = 0;
      return Wait::Interrupted;
    }
    pollfd fds[2] = {{fd_, POLLIN, 0}, {console_.wakeFd(), POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return Wait::Stop;
    }
    if (fds[1].revents != 0) {
      showQueuedOutput();
      if (hooks_.stopWaiting()) return Wait::Stop;
    }
    if (fds[0].revents != 0) return Wait::Input;
  }
}

void LineInput::showQueuedOutput() {
  const std::string screen = console_.takeScreenUpdate();
  if (!interactive_) return;
  // A permission ask arriving (or going away) changes the prompt under the typed text.
  const std::string prompt = continuation_ ? std::string() : hooks_.prompt();
  const bool promptChanged = !continuation_ && prompt != shownPrompt_;
  if (screen.empty() && !promptChanged) return;
  if (promptChanged) {
    shownPrompt_ = prompt;
    rl_set_prompt(shownPrompt_.c_str());
  }
  // The screen update clears the prompt line first; libedit then draws the prompt and the typed
  // text again below the output.
  std::fwrite(screen.data(), 1, screen.size(), stdout);
  if (screen.empty()) std::fputs("\r\033[K", stdout);
  std::fflush(stdout);
  rl_forced_update_display();
}

int LineInput::editorGetc() {
  switch (waitForInput()) {
  case Wait::Stop: return EOF;
  case Wait::Interrupted:
    // A running request is cancelled first; only a Ctrl-C with nothing to cancel drops the line.
    if (hooks_.interrupted && hooks_.interrupted()) {
      showQueuedOutput();
      return editorGetc();
    }
    // Leave the abandoned text on screen, start a fresh prompt line, then have libedit kill it.
    std::fputs("^C\n", stdout);
    std::fflush(stdout);
    rl_forced_update_display();
    return kKillLine;
  case Wait::Input: break;
  }
  // libedit takes the value as one character: decode UTF-8 here, or it would see each byte alone.
  unsigned char lead = 0;
  ssize_t n;
  while ((n = ::read(fd_, &lead, 1)) < 0 && errno == EINTR) {
  }
  if (n <= 0) return EOF;
  const int extra = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0;
  int codePoint = extra == 3 ? lead & 0x07 : extra == 2 ? lead & 0x0F : extra == 1 ? lead & 0x1F : lead;
  for (int i = 0; i < extra; ++i) {
    unsigned char next = 0;
    if (::read(fd_, &next, 1) != 1 || (next & 0xC0) != 0x80) return 0xFFFD;
    codePoint = (codePoint << 6) | (next & 0x3F);
  }
  return codePoint;
}

std::optional<std::string> LineInput::readLine(bool continuation) {
  if (ended_) return std::nullopt;
  if (!interactive_) return readPipedLine();
  continuation_ = continuation;
  shownPrompt_ = continuation ? std::string("   ...> ") : hooks_.prompt();
  char* line = readline(shownPrompt_.c_str());
  if (line == nullptr) {
    ended_ = true;
    std::fputs("\n", stdout); // Ctrl-D leaves the cursor after the prompt
    std::fflush(stdout);
    return std::nullopt;
  }
  std::string text(line);
  std::free(line);
  if (text.find_first_not_of(" \t") != std::string::npos && (!hooks_.keepInHistory || hooks_.keepInHistory(text)))
    add_history(text.c_str());
  return text;
}

std::optional<std::string> LineInput::readPipedLine() {
  for (;;) {
    if (auto nl = pending_.find('\n'); nl != std::string::npos) {
      std::string line = pending_.substr(0, nl);
      pending_.erase(0, nl + 1);
      return line;
    }
    if (waitForInput() == Wait::Stop) break;
    char chunk[kReadChunk];
    const ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) break;
    pending_.append(chunk, static_cast<std::size_t>(n));
  }
  ended_ = true;
  if (pending_.empty()) return std::nullopt;
  std::string last = std::move(pending_); // a final line without a newline
  pending_.clear();
  return last;
}

void LineInput::stop() {
  if (stopped_) return;
  stopped_ = true;
  if (!interactive_) return;
  console_.setDeferred(false); // from here on, the reader thread prints by itself
  if (!historyFile_.empty()) write_history(historyFile_.c_str());
  gActive = nullptr;
}

} // namespace toold::repl
