// Where toold finds the Code Mode worker: toold-codemode, in the folder of toold's own executable.
// The worker is an executable of its own so that toold never loads the JavaScript engine (libmozjs
// is mapped and relocated by the worker alone, not on every start of toold).
#pragma once

#include <optional>
#include <string>

namespace toold::codemode {

/// `<folder of /proc/self/exe>/toold-codemode`; empty when /proc/self/exe cannot be read.
std::string defaultWorkerExecutable();

/// Why `executable` cannot be started as a worker (missing, not executable), as a sentence for the
/// person; nothing when it can.
std::optional<std::string> workerExecutableProblem(const std::string& executable);

} // namespace toold::codemode
