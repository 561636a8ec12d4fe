// Holding what the resolver checked. core/workspace/workspace_paths decides, on a symlink-free `canonical`
// path, whether a location is inside the workspace (or in a folder the person approved); nothing
// may then open that path again by its text, because a symlink swapped in between the check and
// the open (by the model's own background shell, say) would lead the open elsewhere.
//
// So a location is held: every folder of `canonical` is opened in turn from `/` — from the held
// workspace folder (core/workspace/workspace_root.h) when `canonical` is in it, so that the
// workspace's own name is never followed — each relative to the descriptor of the one before and
// with O_NOFOLLOW, and the tool acts only through the descriptor of the last folder and the leaf's
// name in it (openat, fstatat, renameat, unlinkat). The workspace folder itself is held as `.` in
// its own descriptor.
// `canonical` contains no symlink by construction, so meeting one on the way means the path
// changed after the check: that is refused with a message that says so, before anything is read
// or written. What is reached is therefore exactly the folder the check approved, whatever the
// file system did meanwhile. Where every folder exists, openat2 with RESOLVE_NO_SYMLINKS (and
// RESOLVE_BENEATH from the workspace folder) makes the same walk in one call (one system call instead of two per folder); anything it refuses (a
// missing folder, a symlink met, a folder that may only be searched) is walked by hand, which
// creates missing folders one at a time, each held as it is made, and says what it met.
//
// Reading also refuses what could block or never end: anything but a regular file (devices,
// FIFOs, sockets), and any file on a pseudo file system (/proc, /sys, debugfs, ...), whose
// "regular" files may block forever or produce endless data. Files are opened with O_NONBLOCK and
// O_NOCTTY, and only after a look (the hold's lstat of the leaf, or an O_PATH descriptor's fstat)
// has shown them to be regular, so opening a device has no effect unless it is swapped in between.
#pragma once

#include "core/base/unique_fd.h"
#include "core/workspace/workspace_paths.h"
#include "core/workspace/workspace_root.h"

#include <filesystem>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <variant>
#include <vector>

namespace toold::core {

/// What the location is held for. Writing creates missing folders and refuses toold's own
/// tool-output folder; reading creates nothing.
enum class HoldPurpose { Read, Write };

/// A resolved path, held: the folder that contains it, opened without following any symlink, and
/// the leaf's name within it.
struct HeldLocation {
  std::filesystem::path canonical; ///< what was checked; for keys and messages only, never opened
  std::string display;             ///< the path as the model named it, for messages
  UniqueFd directory;              ///< the containing folder; empty when it does not exist (reading)
  std::string leaf;                ///< the name in `directory` (`.` for `/` itself)
  /// The leaf's lstat, taken through `directory`; nullopt when it does not exist.
  std::optional<struct stat> status;

  bool exists() const { return status.has_value(); }
  bool isDirectory() const { return status && S_ISDIR(status->st_mode); }
};

/// Holds `path` (see the file comment). With Write, missing folders are created (0755, subject to
/// the umask), each appended to `created` when given, outermost first. Returns the message for the
/// model when a folder on the way is now a symlink or the leaf is ("... changed after it was
/// checked ..."), when a folder cannot be opened or created, or when Write is asked for a path in
/// the tool-output folder.
std::variant<HeldLocation, std::string> holdLocation(const ResolvedPath& path, HoldPurpose purpose,
                                                     std::vector<std::filesystem::path>* created = nullptr);

/// The same for a canonical path checked earlier (a planned change), named `display` in messages,
/// held from `root` when it is in it (ResolvedPath::root; null: from `/`). The caller has refused
/// the tool-output folder already, when it resolved the path.
std::variant<HeldLocation, std::string> holdLocation(const std::filesystem::path& canonical, std::string display,
                                                     HoldPurpose purpose, const WorkspaceRoot* root,
                                                     std::vector<std::filesystem::path>* created = nullptr);

/// Holds `path` through the folder its resolution opened (resolveToolPath with a ResolvedFolder),
/// with the leaf's lstat taken then, instead of opening and looking again: for a read that goes on
/// at once, on the thread that resolved it, nothing having waited in between (a permission asked
/// of the person is answered later: hold afresh then). nullopt when resolving took the long way.
std::optional<HeldLocation> holdResolvedFolder(const ResolvedPath& path, ResolvedFolder&& found);

/// The deepest a file tool writes: paths of more folders than this are refused (reading them is
/// not). Real trees stay far below it; a chain of thousands of folders, which one model call can
/// ask for, would only make every later step on it cost more.
inline constexpr std::size_t kMaxWriteDepth = 512;

/// The refusal of a write to `canonical` when it is more than kMaxWriteDepth folders deep.
std::optional<std::string> tooDeepToWrite(const std::filesystem::path& canonical, const std::string& display);

/// The refusal of a change to the tool-output folder (ResolvedPath::inToolOutput).
std::string toolOutputIsReadOnly(const std::string& display);

struct FileSystemMemo;

/// Opens the held leaf for reading: O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW, and only when it
/// is a regular file on an ordinary file system (see blockingFileReason). The message says why not.
/// A leaf the hold saw as a regular file is opened as openReadableFileAt opens a file a listing
/// called regular. `status`, when given, receives the opened file's fstat; `memo`, when given,
/// is what is known of the file system already (see FileSystemMemo).
std::variant<UniqueFd, std::string> openHeldFile(const HeldLocation& held, struct stat* status = nullptr,
                                                 FileSystemMemo* memo = nullptr);

/// Why openReadableFileAt refused: `reason` follows the file's name in a message ("is a FIFO").
struct ReadableFileRefusal {
  enum class Kind { Unopenable, Symlink, Directory, Blocking, Replaced } kind = Kind::Unopenable;
  std::string reason;
  int error = 0; ///< the errno of Unopenable
};

/// What a run of openReadableFileAt calls learnt of the last file system it met (by st_dev), so
/// that a walk asks `fstatfs` once per file system it crosses rather than once per file. Keep one
/// for the length of one request: a device number freed by an unmount can be given to a new mount
/// (or for as long as something holds that file system open, which keeps its number taken).
struct FileSystemMemo {
  bool known = false;
  dev_t device = 0;
  std::optional<std::string> pseudo; ///< "is on the proc pseudo file system", or nothing
};

/// The one way toold opens a file to read its bytes: an O_PATH look first (so not even opening a
/// device or FIFO has an effect), blockingFileReason, then O_RDONLY | O_NONBLOCK | O_NOCTTY, and
/// the same inode checked. A symlink as `name` is refused unless `followLink`. `status`, when
/// given, receives the opened file's fstat.
///
/// `listedAsRegular`: the folder's listing (a walk's getdents) has just said `name` is a regular
/// file. It is then opened at once and the same checks are made on what was opened — two system
/// calls fewer per file of a search. What is read is still only ever a regular file on an
/// ordinary file system; what is given up is that an entry swapped for a FIFO or a device between
/// the listing and the open would be opened (not read) before it is refused: a FIFO's open
/// without a reader waiting has no effect on anyone but its writer, and a device node on the
/// workspace's file system needs root to make (docs/security.md).
std::variant<UniqueFd, ReadableFileRefusal> openReadableFileAt(int directory, const std::string& name, bool followLink,
                                                               struct stat* status = nullptr,
                                                               FileSystemMemo* memo = nullptr,
                                                               bool listedAsRegular = false);

/// Opens the held leaf as a folder to list (O_RDONLY | O_DIRECTORY | O_NOFOLLOW).
std::variant<UniqueFd, std::string> openHeldDirectory(const HeldLocation& held);

/// Why the file open at `fd` must not be read, for a message after its name ("is a character
/// device", "is on the proc pseudo file system"); nullopt for a regular file on an ordinary file
/// system. `fd` may be an O_PATH descriptor.
std::optional<std::string> blockingFileReason(int fd);

/// The message for a location that changed after it was checked: `where` is now a symbolic link.
std::string changedAfterCheck(const std::string& display, const std::filesystem::path& where);

} // namespace toold::core
