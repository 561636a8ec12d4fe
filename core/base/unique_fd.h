// Owning one file descriptor, so that no early return leaks it and no path string stands in for it
// after it was opened.
#pragma once

#include <unistd.h>

#include <utility>

namespace toold::core {

/// Owns one descriptor until it is handed over or closed; or, made by borrow(), stands for one
/// that another owner keeps open for longer, which it never closes.
class UniqueFd {
public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.fd_), owned_(other.owned_) {
    other.fd_ = -1;
    other.owned_ = true;
  }
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = std::exchange(other.fd_, -1);
      owned_ = std::exchange(other.owned_, true);
    }
    return *this;
  }
  ~UniqueFd() { reset(); }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  /// `fd`, used through the result and never closed by it: for a descriptor its owner keeps open
  /// for as long as the result lives (the held workspace root's), where opening it again would
  /// only cost two system calls. Never release() one: it is not the result's to hand over.
  static UniqueFd borrow(int fd) {
    UniqueFd borrowed(fd);
    borrowed.owned_ = false;
    return borrowed;
  }

  int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }
  int release() { return std::exchange(fd_, -1); }
  void reset(int fd = -1) {
    if (fd_ >= 0 && owned_) ::close(fd_);
    fd_ = fd;
    owned_ = true;
  }

private:
  int fd_ = -1;
  bool owned_ = true;
};

} // namespace toold::core
