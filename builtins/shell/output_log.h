// The full output of one command, spooled to a file in the tool-output folder, so that memory
// stays bounded whatever a command prints and the model can read everything it was shown only the
// head and tail of. A foreground command's output is kept in memory until it passes
// `memoryBytes`: most commands print little, and they then leave no file behind unless their
// output had to be cut. The file holds the raw bytes, escape codes and all.
//
// A bounded log keeps at most `maxFileBytes` of output however much a command prints: its head,
// written as it comes, then its tail, written round a ring in the file after the head, so the
// stream costs no more than an unbounded one. When the command ends the ring is put in order
// behind the head, with a line saying how much was left out between them (core/output/kept_text).
#pragma once

#include "core/output/kept_text.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace toold::core {
class OutputStore;
}

namespace toold::builtins {

class OutputLog {
public:
  /// `folder` is created (0700) when the file is; the file is `tool_<id>` (0600), so the
  /// tool-output folder's clean-up by age removes it like any other kept output.
  /// `maxFileBytes`: 0 keeps all of the output, else its head and tail up to that many bytes.
  /// `store`, when given, counts the file in the folder's budget: being written until finish().
  OutputLog(std::filesystem::path folder, std::size_t memoryBytes, std::uint64_t maxFileBytes = 0,
            std::shared_ptr<core::OutputStore> store = nullptr);
  ~OutputLog();
  OutputLog(const OutputLog&) = delete;
  OutputLog& operator=(const OutputLog&) = delete;

  /// Appends raw output. A write error is kept (see error()) and what follows is still counted,
  /// never thrown: the command goes on, and its result says the log is incomplete.
  void append(std::string_view raw);

  /// Makes sure the output is in the file: creates it and writes what memory held. Returns its
  /// path, or nullopt when it cannot be written (see error()).
  std::optional<std::filesystem::path> persist();

  /// The file's path once it exists.
  const std::optional<std::filesystem::path>& path() const { return path_; }
  std::uint64_t size() const { return size_; }
  /// The first failure to create or write the file ("cannot write …: No space left on device").
  const std::string& error() const { return error_; }
  /// The store counting the file in the folder's budget; null when none does.
  const std::shared_ptr<core::OutputStore>& store() const { return store_; }

  /// Removes the file, if any (a background job evicted from its session's list).
  void remove();

  /// The command has ended: puts a bounded file's tail in order behind its head, closes the file
  /// and tells the store its size. Returns how much of the output the file keeps (all of it, for
  /// a log that has no file). Output appended after it is counted, not written.
  core::KeptPart finish();

  /// The file's bytes from its start that are already in their final order: all of them until the
  /// output passes the bound, then the head only (the tail is a ring until finish()).
  std::uint64_t orderedBytes() const;

private:
  bool open();
  /// Writes `bytes` at the file's next output position: the head, else the tail's ring.
  void writeToFile(std::string_view bytes);
  void writeAt(std::string_view bytes, std::uint64_t offset);
  /// The ring in order behind the head, through a new file renamed over the log.
  void reorder();
  std::uint64_t bytesOnDisk() const;

  std::filesystem::path folder_;
  std::size_t memoryBytes_;
  std::uint64_t headBytes_ = 0; ///< with ringBytes_: both 0 when unbounded
  std::uint64_t ringBytes_ = 0;
  std::shared_ptr<core::OutputStore> store_;
  std::string memory_;
  std::optional<std::filesystem::path> path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;  ///< output appended
  std::uint64_t filed_ = 0; ///< output handed to the file (the ring counts every byte it took)
  bool finished_ = false;
  core::KeptPart kept_;
  std::string error_;
};

/// What a log file holds from `offset` on: at most `maxBytes` and `maxLines` lines, ending after
/// the last '\n' in them when there is one and more follows (so a reader sees whole lines), else
/// cut at a UTF-8 character boundary.
struct LogSlice {
  std::string bytes;
  std::uint64_t offset = 0;
  std::uint64_t nextOffset = 0;
  std::uint64_t fileSize = 0;
};
/// Throws std::runtime_error with the system's reason when the file cannot be read.
LogSlice readLogSlice(const std::filesystem::path& path, std::uint64_t offset, std::size_t maxBytes,
                      std::size_t maxLines);

} // namespace toold::builtins
