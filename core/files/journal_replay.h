// Finishing, at start-up, the file changes a killed toold left half done (see change_journal.h):
// every journal whose owner no longer runs is rolled back ("staging": its staging files and the
// folders it created are removed) or forward ("committing": the remaining staging files are renamed
// over their targets and the remaining removals done), then deleted. Journals of running toolds,
// and of owners that cannot be checked, are left alone. Concurrent starts replay one at a time.
//
// A journal is data anyone who can write the data directory can forge, so a replay renames only a
// staging file named after its target and beside it (".<name>.toold-<id>"), and removes only the
// file whose identity the journal recorded.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace toold::core {

struct ReplayReport {
  std::size_t rolledBack = 0;    ///< changes undone: nothing of them had been committed
  std::size_t rolledForward = 0; ///< changes finished: every staged file was complete
  std::size_t interrupted = 0;   ///< changes killed while toold was undoing a failed commit
  std::size_t leftAlone = 0;     ///< journals of running (or uncheckable) owners
  std::vector<std::string> notes; ///< one line per journal acted on or not understood, for the log
};

/// Replays the journals in `directory` (nothing happens when it does not exist).
ReplayReport replayJournals(const std::filesystem::path& directory);

} // namespace toold::core
