// The network, closed by seccomp: a sandboxed command may create AF_UNIX sockets (pipes between
// its own processes, a local build server) and nothing else, whatever the protocol. Landlock
// covers only TCP, and only from ABI 4; this covers UDP (DNS), raw and netlink sockets too, on
// every kernel with seccomp.
//
// A classic BPF program of a dozen instructions, written out rather than built with libseccomp:
// it has one rule, and the launcher stays free of libraries. io_uring is refused as well, because
// its IORING_OP_SOCKET creates sockets without the socket system call a filter sees. System calls
// of another ABI (32-bit x86 on x86-64, x32) are refused: socketcall(2) would bypass the rule, and
// the launcher runs the machine's own programs.
#pragma once

#include <string>

namespace toold::sandbox_launch {

/// Installs the filter on the calling thread (no_new_privs must be set, or the caller privileged).
/// Returns an empty string, or why it could not.
std::string closeNetworkWithSeccomp();

} // namespace toold::sandbox_launch
