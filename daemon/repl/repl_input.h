// Where the REPL's lines come from: libedit on a terminal (editing, history), plain reads
// otherwise, so piped input works the same way. Both wait on the console's wake pipe too, so
// output from toold is shown while a line is being typed, and a toold that exits ends the input.
#pragma once

#include "daemon/repl/repl_console.h"

#include <functional>
#include <optional>
#include <string>

namespace toold::repl {

class LineInput {
public:
  struct Hooks {
    /// Asked on every wake-up; when it returns true, the input ends.
    std::function<bool()> stopWaiting;
    /// The prompt to show now (a permission ask replaces the usual one). Asked on every wake-up.
    std::function<std::string()> prompt;
    /// Ctrl-C at the prompt: true when it cancelled something (the typed line is then kept).
    std::function<bool()> interrupted;
    /// Whether a line typed at a terminal goes into the history (answers to prompts do not).
    std::function<bool(const std::string&)> keepInHistory;
  };
  /// `historyFile` is read and saved only on a terminal; empty disables history.
  LineInput(int fd, Console& console, std::string historyFile, Hooks hooks);
  ~LineInput();
  LineInput(const LineInput&) = delete;
  LineInput& operator=(const LineInput&) = delete;

  bool interactive() const { return interactive_; }
  /// The next line, without its newline; nullopt at the end of input (Ctrl-D, the end of piped
  /// input, or stopWaiting()).
  /// `continuation` shows the prompt for the next line of a multi-line input instead.
  std::optional<std::string> readLine(bool continuation = false);
  /// Leaves line editing for good and saves the history.
  void stop();

  /// Called from a SIGINT handler: the line being typed is dropped.
  static void interrupt();

private:
  enum class Wait { Input, Stop, Interrupted };
  Wait waitForInput();
  int editorGetc();
  std::optional<std::string> readPipedLine();
  void showQueuedOutput();
  friend int editorGetcThunk(FILE*);

  int fd_;
  Console& console_;
  bool interactive_;
  bool stopped_ = false;
  bool ended_ = false;
  std::string historyFile_;
  Hooks hooks_;
  std::string shownPrompt_;
  bool continuation_ = false;
  std::string pending_; ///< piped input read past the last complete line
};

} // namespace toold::repl
