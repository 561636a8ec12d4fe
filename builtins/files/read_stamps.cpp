#include "builtins/files/read_stamps.h"

#include <sys/stat.h>

#include <ctime>

namespace toold::builtins {

namespace {

std::string isoTime(std::chrono::system_clock::time_point time) {
  const auto seconds = std::chrono::system_clock::to_time_t(time);
  const auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch()).count() % 1000;
  std::tm utc{};
  ::gmtime_r(&seconds, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &utc);
  char result[48];
  std::snprintf(result, sizeof result, "%s.%03dZ", buffer, static_cast<int>(millis < 0 ? 0 : millis));
  return result;
}

std::chrono::system_clock::time_point fromNanoseconds(std::int64_t ns) {
  return std::chrono::system_clock::time_point(
      std::chrono::duration_cast<std::chrono::system_clock::duration>(std::chrono::nanoseconds(ns)));
}

} // namespace

void ReadStamps::record(const std::string& sessionID, const std::filesystem::path& path, ReadStamp stamp) {
  std::lock_guard lock(mutex_);
  auto& session = sessions_[sessionID];
  if (auto it = session.byPath.find(path); it != session.byPath.end()) {
    // A file read again (paging through it): its age entry is moved to the new time in place,
    // its path not copied. Found from its time; an entry the same instant of another path is
    // stepped over.
    auto age = session.byAge.lower_bound({it->second.readAt, std::filesystem::path()});
    while (age != session.byAge.end() && age->first == it->second.readAt && age->second != path) ++age;
    if (age != session.byAge.end() && age->first == it->second.readAt) {
      auto entry = session.byAge.extract(age);
      entry.value().first = stamp.readAt;
      session.byAge.insert(std::move(entry));
      it->second = stamp;
      return;
    }
  }
  session.byAge.emplace(stamp.readAt, path);
  session.byPath.insert_or_assign(path, stamp);
  if (session.byPath.size() <= kMaxStampsPerSession) return;
  auto oldest = session.byAge.begin();
  session.byPath.erase(oldest->second);
  session.byAge.erase(oldest);
}

void ReadStamps::forget(const std::string& sessionID, const std::filesystem::path& path) {
  std::lock_guard lock(mutex_);
  auto session = sessions_.find(sessionID);
  if (session == sessions_.end()) return;
  auto it = session->second.byPath.find(path);
  if (it == session->second.byPath.end()) return;
  session->second.byAge.erase({it->second.readAt, path});
  session->second.byPath.erase(it);
}

std::optional<ReadStamp> ReadStamps::find(const std::string& sessionID, const std::filesystem::path& path) const {
  std::lock_guard lock(mutex_);
  auto session = sessions_.find(sessionID);
  if (session == sessions_.end()) return std::nullopt;
  auto it = session->second.byPath.find(path);
  if (it == session->second.byPath.end()) return std::nullopt;
  return it->second;
}

ReadStamp stampFor(const FileIdentity& identity, std::string_view content) {
  return ReadStamp{identity, contentHash(content), std::chrono::system_clock::now()};
}

FileIdentity identityOf(const struct stat& status) {
  return FileIdentity{static_cast<std::uint64_t>(status.st_dev), static_cast<std::uint64_t>(status.st_ino),
                      static_cast<std::uint64_t>(status.st_size),
                      static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1'000'000'000 + status.st_mtim.tv_nsec};
}

std::string checkStamp(const ReadStamps& stamps, const std::string& sessionID, const std::filesystem::path& path,
                       std::string_view displayPath, const FileIdentity& identity, std::string_view content,
                       StampRule rule) {
  auto stamp = stamps.find(sessionID, path);
  if (!stamp) {
    if (rule == StampRule::IfStamped) return {};
    return "You must read file " + std::string(displayPath) +
           " before overwriting it. Use the read tool first, so that nothing in it is lost.";
  }
  if (stamp->identity == identity || stamp->contentHash == contentHash(content)) return {};
  return "File " + std::string(displayPath) + " has been modified since it was last read.\nLast modification: " +
         isoTime(fromNanoseconds(identity.mtimeNs)) + "\nLast read: " + isoTime(stamp->readAt) +
         "\n\nPlease read the file again before modifying it.";
}

} // namespace toold::builtins
