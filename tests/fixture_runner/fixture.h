// A parsed fixture: the daemon's setup (directives) and the scripted conversation (steps).
// docs/fixtures.md describes the text format.
#pragma once

#include "protocol/framing.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>
#include <vector>

namespace toold::fixture {

using nlohmann::json;

/// How toold's stdin is fed: through a pipe, step by step, or from a regular file holding
/// every send at once (toold reads a file differently: no waiting, EOF right after the last byte).
enum class Mode { Pipe, File };

inline const char* modeName(Mode mode) { return mode == Mode::Pipe ? "pipe" : "file"; }

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
  };
  Kind kind = Kind::Send;
  int line = 0;
  json message;      ///< Send
  std::string bytes; ///< SendRaw
  std::chrono::milliseconds wait{0};
  std::vector<Pattern> patterns; ///< Expect
  bool unordered = false;        ///< Expect: a `<*` group
  int signal = 0;                ///< Signal
};

/// A `%file` directive: created in the workspace before toold starts.
struct WorkspaceFile {
  std::string path; ///< relative to the workspace
  std::string content;
  int line = 0;
};

/// A `%stderr` directive: some line of toold's stderr must match.
struct StderrExpectation {
  std::string regex;
  int line = 0;
};

struct Fixture {
  std::string path;
  std::vector<std::string> args; ///< `%args`, still holding ${workspace} and ${data}
  protocol::Framing framing = protocol::Framing::Ndjson;
  bool pipeMode = true;
  bool fileMode = true;
  int exitStatus = 0;
  std::chrono::milliseconds timeout{10000};
  std::vector<WorkspaceFile> files;
  std::vector<StderrExpectation> stderrExpectations;
  std::vector<Step> steps;
  /// True when a send uses a value captured from toold: only a pipe can wait for it.
  bool sendsUseCaptures = false;
  /// True when the script signals toold: when that lands relative to a file's input is chance.
  bool sendsSignals = false;
};

} // namespace toold::fixture
