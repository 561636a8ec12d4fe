// The JavaScript that builds a program's world in each fresh global before the program runs: the
// frozen `tools` tree (unknown paths answer UnknownTool), `search`, the captured `console`, and
// the helpers the engine uses at the boundary — values cross as JSON only (Dates as ISO strings,
// Map/Set/RegExp as {}, depth at most 32), and errors become diagnostics. The helpers capture the
// built-ins they use before the program can replace them.
#pragma once

namespace toold::codemode {

/// A function expression `(function (host) {…})` returning {tools, search, console, complete,
/// encode, describe}. `host` carries the native functions call, search and log, and `paths`
/// (JSON text: an array of path arrays).
extern const char* const kProgramBootstrap;

} // namespace toold::codemode
