// The running account of the tool-output folder: which kept files it holds, in creation order,
// how many bytes they take, and which ones are still being written. It decides what to remove
// when the folder passes its budget without listing the folder again: the store scans it once,
// then tells the ledger of every file it keeps, grows or removes.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace toold::core {

class RetentionLedger {
public:
  /// `budget`: the bytes the folder may hold; the oldest files go once it holds more.
  explicit RetentionLedger(std::uint64_t budget) : budget_(budget) {}

  /// A kept file of `bytes` (a new one, or one found on disk). Names sort in creation order
  /// (`tool_<time-sortable id>`). A name already known takes the new size.
  void record(const std::string& name, std::uint64_t bytes);
  /// A file being written (a command's log while the command runs): counted at `bytes` so far,
  /// never chosen for removal until finished().
  void writing(const std::string& name, std::uint64_t bytes = 0);
  /// The file is complete at `bytes`: it may be removed from now on.
  void finished(const std::string& name, std::uint64_t bytes);
  /// The file is gone (removed by someone else, or by its owner).
  void forget(const std::string& name);
  /// Starts again from what a listing of the folder found (files being written stay). Files found
  /// on disk may be another toold's, still being written: see overBudget.
  void resync(const std::map<std::string, std::uint64_t>& found);

  /// The names to remove, oldest first, until the folder fits its budget: never a file being
  /// written, never `keep` (the one just kept, which may alone be over the budget), and a file
  /// only found on disk only when `mayRemoveFound` says so (it is not being written elsewhere).
  /// They leave the ledger now; the caller unlinks them.
  std::vector<std::string> overBudget(std::string_view keep,
                                      const std::function<bool(const std::string&)>& mayRemoveFound = {});

  std::uint64_t total() const { return total_; }
  std::uint64_t budget() const { return budget_; }
  std::size_t files() const { return entries_.size(); }

private:
  struct Entry {
    std::uint64_t bytes = 0;
    bool writing = false;
    bool found = false; ///< learnt from a listing, not from this process's own writes
  };
  void set(const std::string& name, std::uint64_t bytes, bool writing);

  std::uint64_t budget_;
  std::uint64_t total_ = 0;
  std::map<std::string, Entry, std::less<>> entries_;
};

} // namespace toold::core
