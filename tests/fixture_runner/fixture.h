// A parsed fixture: the daemon's setup (directives) and the scripted conversation (steps).
// docs/fixtures.md describes the text format.
#pragma once

#include "protocol/framing.h"

#include <nlohmann/json.hpp>

#include <array>
#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace toold::fixture {

using nlohmann::json;

/// How toold's stdin is fed: through a pipe, step by step, or from a regular file holding
/// every send at once (toold reads a file differently: no waiting, EOF right after the last byte).
enum class Mode { Pipe, File };

inline const char* modeName(Mode mode) { return mode == Mode::Pipe ? "pipe" : "file"; }

/// The names the runner predefines before toold starts: the canonical paths of the run's scratch
/// directories. Nothing else can be substituted into what is set up before toold runs.
inline constexpr std::array<std::string_view, 3> kDirectoryNames{"workspace", "data", "outside"};

inline bool isDirectoryName(std::string_view name) {
  for (auto directory : kDirectoryNames)
    if (name == directory) return true;
  return false;
}

/// One `<` or `<*` pattern, with the line it was written on for failure reports.
struct Pattern {
  json value;
  int line = 0;
};

struct Step {
  enum class Kind {
    Send,    ///< `> JSON`: one message, framed with the fixture's framing, captures substituted
    SendRaw, ///< `>raw "..."`: exact bytes, one write
    Wait,    ///< `wait MS`: pause before the next send (pipe mode only)
    Expect,  ///< `<` (one pattern) or a run of `<*` lines (unordered)
    Close,   ///< `close`: end of toold's input
    Signal,  ///< `signal TERM|INT|HUP|KILL`: sent to toold (pipe mode only)
    Restart, ///< `restart`: toold must exit cleanly; a new one starts on the same directories (pipe mode only)
    Put,     ///< `put PATH "bytes"`: a file is (re)written now, as another program would (pipe mode only)
    Check,   ///< `check PATH "bytes"` | `absent` | `mode 0644` | `pid-gone` | `pid-alive`: the file is so now
  };
  /// What a Check step asserts.
  enum class CheckWhat { Bytes, Absent, Mode, ProcessGone, ProcessAlive };
  Kind kind = Kind::Send;
  int line = 0;
  json message;      ///< Send
  std::string bytes; ///< SendRaw
  std::chrono::milliseconds wait{0};
  std::vector<Pattern> patterns; ///< Expect
  bool unordered = false;        ///< Expect: a `<*` group
  /// Expect: each message must arrive within this long of the runner starting to wait for it
  /// (`within MS` before the step), instead of %timeout; 0: %timeout.
  std::chrono::milliseconds within{0};
  int signal = 0;                ///< Signal
  int area = 0;                  ///< Put, Check: a ScratchArea
  std::string path;              ///< Put, Check: relative to the area's directory
  CheckWhat check = CheckWhat::Bytes;
  unsigned mode = 0;             ///< Check mode: the permission bits
};

/// The scratch directory a `%file` or `%symlink` PATH is created in: the workspace, unless the
/// PATH starts with `${data}/` or `${outside}/`.
enum class ScratchArea { Workspace, Data, Outside };

/// A `%file` directive: created before toold starts.
struct ScratchFile {
  ScratchArea area = ScratchArea::Workspace;
  std::string path; ///< relative to the area's directory
  std::string content;
  int line = 0;
};

/// A `%symlink` directive: a symbolic link created before toold starts. Its target may dangle.
struct ScratchSymlink {
  ScratchArea area = ScratchArea::Workspace;
  std::string path;   ///< relative to the area's directory
  std::string target; ///< as written, still holding ${workspace}, ${data} and ${outside}
  int line = 0;
};

/// A `%env` directive: a variable of toold's environment.
struct EnvVariable {
  std::string name;
  std::string value; ///< still holding ${workspace}, ${data} and ${outside}
};

/// A `%stderr` directive: some line of toold's stderr must match.
struct StderrExpectation {
  std::string regex;
  int line = 0;
};

struct Fixture {
  std::string path;
  std::vector<std::string> args; ///< `%args`, still holding ${workspace}, ${data} and ${outside}
  std::vector<EnvVariable> environment; ///< `%env`, in order (a later one for the same name wins)
  protocol::Framing framing = protocol::Framing::Ndjson;
  bool pipeMode = true;
  bool fileMode = true;
  int exitStatus = 0;
  std::chrono::milliseconds timeout{10000};
  std::vector<ScratchFile> files;
  std::vector<ScratchSymlink> symlinks;
  std::vector<StderrExpectation> stderrExpectations;
  /// `%skip METHOD`: notifications of these methods are read and dropped, never matched (live
  /// output whose count depends on timing).
  std::vector<std::string> skippedNotifications;
  std::vector<Step> steps;
  /// True when a send uses a value captured from toold: only a pipe can wait for it.
  bool sendsUseCaptures = false;
  /// True when the script signals toold: when that lands relative to a file's input is chance.
  bool sendsSignals = false;
  /// True when the script restarts toold: a file holds one input, read by one toold.
  bool restartsToold = false;
  /// True when the script writes files while toold runs: only a pipe orders that against the sends.
  bool putsFiles = false;
};

} // namespace toold::fixture
