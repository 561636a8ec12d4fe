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
  /// `historyFile` is read and saved only on a terminal; empty disables history. `stopWaiting`
  /// is asked on every wake-up; when it returns true, the input ends.
  LineInput(int fd, Console& console, std::string prompt, std::string historyFile, std::function<bool()> stopWaiting);
  ~LineInput();
  LineInput(const LineInput&) = delete;
  LineInput& operator=(const LineInput&) = delete;

  bool interactive() const { return interactive_; }
  /// The next line, without its newline; nullopt at the end of input (Ctrl-D, the end of piped
  /// input, or stopWaiting()).
  std::optional<std::string> readLine();
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
  std::string prompt_;
  std::string historyFile_;
  std::function<bool()> stopWaiting_;
  std::string pending_; ///< piped input read past the last complete line
};

} // namespace toold::repl
