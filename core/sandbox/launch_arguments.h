// The words toold and its sandbox launcher (toold-sandbox) share. toold decides the policy and
// turns it into lists of paths; the launcher applies those lists to itself and execs the command.
// Header only and free of every dependency, because the launcher links nothing but the C++
// runtime: it runs before each sandboxed command, so its start-up is part of every round trip.
//
//   toold-sandbox --probe
//       prints one JSON line: what this kernel lets the launcher enforce.
//   toold-sandbox [--read P]... [--write P]... [--device P]... [--protect P]... [--rebind P]...
//                 [--no-network] -- PROGRAM [ARG]...
//       --read      P and all below it may be read and executed
//       --write     P and all below it may be read, executed, written, created and removed
//       --device    P (a device node or a folder of them) may be read, written and ioctl'ed
//       --protect   P stays read-only, even below a --write folder (a read-only bind mount in a
//                   mount namespace of the command's own)
//       --rebind    P, below a --protect folder, is writable again (toold's scratch folder)
//       --no-network  no socket but AF_UNIX, no TCP bind or connect, no abstract UNIX sockets
//       PROGRAM     an absolute path: toold resolved it in its PATH, so that a missing program is
//                   reported by toold as before, not as an exit status of 127.
// The launcher exits 126, with a line on stderr that starts with kLauncherErrorPrefix, when it
// cannot set up what it was asked to (it never runs a command with less than that); 127 when the
// exec fails.
#pragma once

#include <string_view>

namespace toold::sandbox_launch {

inline constexpr std::string_view kProbe = "--probe";
inline constexpr std::string_view kRead = "--read";
inline constexpr std::string_view kWrite = "--write";
inline constexpr std::string_view kDevice = "--device";
inline constexpr std::string_view kProtect = "--protect";
inline constexpr std::string_view kRebind = "--rebind";
inline constexpr std::string_view kNoNetwork = "--no-network";
inline constexpr std::string_view kEndOfOptions = "--";

inline constexpr std::string_view kLauncherName = "toold-sandbox";
inline constexpr std::string_view kLauncherErrorPrefix = "toold-sandbox: ";
inline constexpr int kSetupFailedStatus = 126;
inline constexpr int kExecFailedStatus = 127;

} // namespace toold::sandbox_launch
