// A directory walker on several threads, ignore-aware, in the shape of ripgrep's WalkParallel:
// each thread takes folders from a shared stack (last in, first out, so the walk is depth first
// and memory stays small on wide trees), reads them, judges every entry against its folder's
// IgnoreStack, and hands each kept entry to its own visitor, which answers Continue, Skip (do
// not enter this folder) or Quit (stop the whole walk as soon as possible).
//
// Hidden files are included; folders named `.git` never are (a `.git` *file*, as in a submodule
// or a worktree, is an ordinary file). Symbolic links are reported as links and not followed
// unless `followLinks` is set, in which case a link to a folder is entered unless that folder is
// one of its own ancestors (a loop: the link is still visited, but not entered, and reported as
// an error). Entries that cannot be read (permission denied, vanished) are collected as errors
// and the walk goes on. The walk checks the cancellation token between folders (and every few
// hundred entries of a large one).
//
// Order: entries arrive in no particular order (a folder's in readdir order, folders interleaved
// across threads). Quit and cancellation: no folder is read after them, and no entry is handed
// to a visitor once a thread has seen the flag, but another thread may be inside its visitor at
// that moment, so a visit or two may still arrive while the walk winds down.
#pragma once

#include "core/walk/ignore_rules.h"
#include "core/base/cancellation.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace toold::core {

struct WalkOptions {
  std::size_t threads = 2;          ///< at least 1
  bool followLinks = false;
  bool respectIgnores = true;       ///< .gitignore, .ignore and the excludes files (IgnoreStack)
  IgnoreOptions ignore;
  int maxDepth = -1;                ///< -1: unlimited; 0: the root's entries only
  /// Folder names never visited nor entered, wherever they are (besides `.git`), e.g. list's
  /// node_modules. Only folders (with followLinks, links to folders too); a file of that name is kept.
  std::vector<std::string> skipFolderNames;
  /// The root, already open (a descriptor of the held location the tool checked); -1: the walk
  /// opens the root's path itself. Either way, without followLinks every folder below the root is
  /// reached from the root's descriptor without following any link.
  int rootDirectory = -1;
};

enum class WalkDecision { Continue, Skip, Quit };

struct WalkEntry {
  /// Absolute: the root joined with `relative`. Text, not a path object: making one splits the
  /// path into its components, for every entry, which a deep tree made quadratic.
  std::string path;
  std::string relative;        ///< '/'-separated, relative to the root
  std::string_view name() const;
  bool isDirectory = false;    ///< a folder (or, with followLinks, a link to one)
  bool isSymlink = false;
  bool isFile = false;         ///< a regular file (or, with followLinks, a link to one)
  // A fifo, socket or device has all three false; so has a dangling link, apart from isSymlink.
  int depth = 0;               ///< 0 for the root's entries
  /// The open folder that holds the entry, valid during the visit only: `fstatat(folderFd,
  /// name())` costs no path lookup, which a glob that stats every match notices.
  int folderFd = -1;
};

struct WalkResult {
  bool quit = false;                ///< a visitor answered Quit, or the walk was cancelled
  bool cancelled = false;
  std::vector<std::string> errors;  ///< "<path>: <reason>" for what could not be read; sorted
};

/// Makes one visitor per walking thread; a visitor is only ever called from its own thread.
using WalkVisitorFactory = std::function<std::function<WalkDecision(const WalkEntry&)>()>;

/// Walks below `root` (a folder; the root itself is not visited; made absolute and lexically
/// normal, so entries' paths are that joined with `relative`). An unreadable root is an error in
/// the result. Returns when every thread is done. Visitors run concurrently on up to
/// `options.threads` threads, the calling thread being one of them; the entry handed to a visitor
/// is only valid during the call. An exception from a factory or visitor stops the walk and is
/// rethrown here once every thread has stopped.
WalkResult walkTree(const std::filesystem::path& root, const WalkOptions& options, const WalkVisitorFactory& visitors,
                    const CancellationToken& cancellation);

} // namespace toold::core
