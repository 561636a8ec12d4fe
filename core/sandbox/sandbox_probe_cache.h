// The sandbox probe's answer, remembered between starts. Asking the launcher costs each start a
// process, namespaces made and torn down, a Landlock ruleset and a seccomp filter — 3 to 4 ms of
// CPU, a quarter of a start (measured) — and its answer changes only when what
// decides it changes. So the answer is kept in the data folder under a key naming all of that: the
// launcher's file, the running kernel (its boot), the sysctls that allow or forbid user namespaces,
// this process's own confinement (its namespaces, seccomp, no_new_privs, user and LSM label) and
// TOOLD_SANDBOX_WITHOUT.
// Any difference in the key, an unreadable or foreign file, or a probe that found a problem: the
// launcher is asked, as before.
#pragma once

#include "core/sandbox/sandbox_kernel.h"

#include <filesystem>
#include <optional>
#include <string>

namespace toold::core {

/// Everything the probe's answer depends on, as one line of text; empty when the launcher's file
/// cannot be read (then nothing is remembered).
std::string sandboxProbeKey(const std::filesystem::path& launcher);

/// The answer kept in `file` for exactly `key`; nullopt when there is none, it is for another key,
/// or the file is not one toold wrote.
std::optional<SandboxKernel> rememberedSandboxKernel(const std::filesystem::path& file, const std::string& key);

/// Keeps `kernel` in `file` for `key` (written whole or not at all). Best effort: a data folder
/// toold cannot write only means the next start asks the launcher again.
void rememberSandboxKernel(const std::filesystem::path& file, const std::string& key, const SandboxKernel& kernel);

/// The answer kept in `file` for this launcher, kernel and confinement as they are now; nullopt
/// when the launcher must be asked. Never throws: whatever goes wrong reads as nothing kept. A
/// start tries it first, on its own thread: only when it finds nothing does the probe get a thread.
std::optional<SandboxKernel> rememberedSandboxKernelNow(const std::filesystem::path& launcher,
                                                        const std::filesystem::path& file);

/// probeSandboxKernel(launcher), answered from `file` when it holds the answer for this key, else
/// asked and (when the launcher answered without a problem) remembered there. `fromMemory` says
/// which, for the start-up log.
SandboxKernel probeSandboxKernelRemembered(const std::filesystem::path& launcher, const std::filesystem::path& file,
                                           bool* fromMemory = nullptr);

} // namespace toold::core
