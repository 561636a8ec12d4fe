// What the file tools share across calls: the per-path locks that serialize mutations, the
// sessions' read stamps, the line-index cache that makes paging through huge files cheap, which
// folders are on a local disk (where a small read runs without a thread hand-off), the small
// files read lately (kept open for their next read), and which folders' instructions each session
// has been shown.
// One instance serves every file tool of a daemon.
#pragma once

#include "builtins/files/line_window.h"
#include "builtins/files/local_disk.h"
#include "builtins/files/nested_instructions.h"
#include "builtins/files/open_file_cache.h"
#include "builtins/files/read_stamps.h"
#include "core/files/path_locks.h"
#include "core/lsp/formatter_config.h"

#include <memory>

namespace toold::core {
class CommandSandbox;
class LspService;
class ProcessRunner;
} // namespace toold::core

namespace toold::builtins {

struct FileTools {
  /// The service's (ToolService::pathLocks): checkpoint restores take them too.
  std::shared_ptr<core::PathLocks> locks = std::make_shared<core::PathLocks>();
  ReadStamps stamps;
  LineIndexCache lineIndex;
  LocalDiskCheck localDisk;
  /// Small files read on the sessions' queues, kept open for their next read.
  OpenFileCache openFiles;
  NestedInstructions instructions;
  /// The Location's language servers (null: none): told of every read and change, and asked
  /// for the diagnostics of what a tool wrote.
  std::shared_ptr<core::LspService> lsp;
  /// The project's formatters (`formatter` in toold.json: off unless it says so), run on each
  /// file write/edit/multiedit wrote, in the commands' sandbox.
  core::FormatterSettings formatters;
  core::ProcessRunner* processes = nullptr;
  std::shared_ptr<const core::CommandSandbox> sandbox;
};

} // namespace toold::builtins
