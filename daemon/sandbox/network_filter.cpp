#include "daemon/sandbox/network_filter.h"

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <vector>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

namespace toold::sandbox_launch {

namespace {

#if defined(__x86_64__)
constexpr std::uint32_t kNativeArch = AUDIT_ARCH_X86_64;
constexpr std::uint32_t kX32Bit = 0x40000000; // __X32_SYSCALL_BIT
#elif defined(__aarch64__)
constexpr std::uint32_t kNativeArch = AUDIT_ARCH_AARCH64;
constexpr std::uint32_t kX32Bit = 0;
#else
#error "the sandbox's network filter knows x86-64 and AArch64"
#endif

sock_filter statement(std::uint16_t code, std::uint32_t k) { return BPF_STMT(code, k); }
sock_filter jump(std::uint16_t code, std::uint32_t k, std::uint8_t ifTrue, std::uint8_t ifFalse) {
  return BPF_JUMP(code, k, ifTrue, ifFalse);
}

} // namespace

std::string closeNetworkWithSeccomp() {
  constexpr std::uint32_t kRefuseForeign = SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA);
  constexpr std::uint32_t kRefuseSocket = SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA);
  constexpr std::uint32_t kRefuseUring = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
  const std::vector<sock_filter> program = {
      // 0: another ABI is refused outright.
      statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
      jump(BPF_JMP | BPF_JEQ | BPF_K, kNativeArch, 1, 0),
      statement(BPF_RET | BPF_K, kRefuseForeign),
      // 3: the system call's number; x32's are the native numbers with one bit set.
      statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      jump(BPF_JMP | BPF_JSET | BPF_K, kX32Bit, 0, 1),
      statement(BPF_RET | BPF_K, kRefuseForeign),
      // 6: socket(2) with any family but AF_UNIX (its first argument, low 32 bits).
      jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 0, 4),
      statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])),
      jump(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1),
      statement(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      statement(BPF_RET | BPF_K, kRefuseSocket),
      // 11: io_uring can open sockets by itself.
      jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_io_uring_setup, 0, 1),
      statement(BPF_RET | BPF_K, kRefuseUring),
      statement(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  // x32 does not exist on AArch64: the JSET on 0 never jumps, and the filter reads the same.
  sock_fprog filter{static_cast<unsigned short>(program.size()), const_cast<sock_filter*>(program.data())};
  if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter, 0, 0) != 0)
    return std::string("seccomp: ") + std::strerror(errno);
  return {};
}

} // namespace toold::sandbox_launch
