#include "core/checkpoint/file_record.h"

#include "core/files/read_to_end.h"
#include "core/files/tab_fields.h"

#include "core/checkpoint/relative_folder.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

namespace toold::core {

namespace {

// A hash-only file is hashed as it streams, never held whole.
ChunkId streamedHash(int fd, std::uint64_t& size) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_128bits_reset(state);
  char buffer[64 * 1024];
  size = 0;
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    XXH3_128bits_update(state, buffer, static_cast<std::size_t>(n));
    size += static_cast<std::uint64_t>(n);
  }
  const XXH128_hash_t hash = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  return ChunkId{hash.high64, hash.low64};
}

template <typename Number> bool parseNumber(std::string_view text, Number& value, int base = 10) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  return error == std::errc() && end == text.data() + text.size();
}


// The chunks of a file's bytes, put into the store and named in the record; what failed, else empty.
std::string storeChunks(FileRecord& record, std::string_view bytes, ChunkStore& store, const RecordingLimits& limits) {
  std::size_t begin = 0;
  for (std::size_t end : chunkBoundaries(bytes, limits.chunking)) {
    auto stored = store.put(bytes.substr(begin, end - begin));
    if (auto* failure = std::get_if<std::string>(&stored)) return *failure;
    record.chunks.push_back(std::get<ChunkId>(stored));
    begin = end;
  }
  return {};
}

} // namespace

std::variant<FileRecord, std::string> recordBytes(std::string_view path, std::string_view bytes, mode_t mode,
                                                  ChunkStore& store, const RecordingLimits& limits) {
  FileRecord record;
  record.path = std::string(path);
  record.kind = EntryKind::File;
  record.mode = mode & 07777;
  record.size = bytes.size();
  record.content = ChunkId::of(bytes);
  if (bytes.size() > limits.hashOnlyOver) {
    record.hashOnly = true;
    return record;
  }
  if (auto error = storeChunks(record, bytes, store, limits); !error.empty()) return error;
  return record;
}

bool FileRecord::sameContent(const FileRecord& other) const {
  if (kind != other.kind) return false;
  if (kind == EntryKind::Folder) return true;
  if (kind == EntryKind::Symlink) return linkTarget == other.linkTarget;
  return size == other.size && content == other.content;
}

std::variant<std::optional<FileRecord>, std::string> recordPath(int root, std::string_view path, ChunkStore* store,
                                                                const RecordingLimits& limits) {
  using Result = std::variant<std::optional<FileRecord>, std::string>;
  OpenedFolder folder = openFolderOf(root, path);
  if (folder.fd < 0) {
    // A missing folder on the way means the path does not exist either.
    if (folder.errorNumber == ENOENT || folder.errorNumber == ENOTDIR)
      return Result(std::optional<FileRecord>{});
    return Result(folder.error);
  }
  FileRecord record;
  record.path = std::string(path);
  struct stat status {};
  std::string error;
  if (::fstatat(folder.fd, folder.leaf.c_str(), &status, AT_SYMLINK_NOFOLLOW) != 0) {
    const int saved = errno;
    ::close(folder.fd);
    if (saved == ENOENT) return Result(std::optional<FileRecord>{});
    return Result("cannot stat " + record.path + ": " + std::strerror(saved));
  }
  record.mode = status.st_mode & 07777;
  record.size = static_cast<std::uint64_t>(status.st_size);
  record.mtimeNanoseconds = static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1'000'000'000 + status.st_mtim.tv_nsec;
  record.inode = static_cast<std::uint64_t>(status.st_ino);
  if (S_ISDIR(status.st_mode)) {
    record.kind = EntryKind::Folder;
    record.size = 0;
  } else if (S_ISLNK(status.st_mode)) {
    record.kind = EntryKind::Symlink;
    std::string target(static_cast<std::size_t>(status.st_size) + 1, '\0');
    const ssize_t n = ::readlinkat(folder.fd, folder.leaf.c_str(), target.data(), target.size());
    if (n < 0) error = "cannot read the link " + record.path + ": " + std::strerror(errno);
    else {
      target.resize(static_cast<std::size_t>(n));
      record.linkTarget = std::move(target);
      record.content = ChunkId::of(record.linkTarget);
      record.size = record.linkTarget.size();
    }
  } else if (S_ISREG(status.st_mode)) {
    record.kind = EntryKind::File;
    const int fd = ::openat(folder.fd, folder.leaf.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) error = "cannot open " + record.path + ": " + std::strerror(errno);
    else if (record.size > limits.hashOnlyOver) {
      record.hashOnly = true;
      record.content = streamedHash(fd, record.size);
      ::close(fd);
    } else {
      const auto read = readToEnd(fd, static_cast<std::size_t>(record.size));
      const int saved = errno;
      ::close(fd);
      if (!read) return Result("cannot read " + record.path + ": " + std::strerror(saved));
      const std::string& bytes = *read;
      record.size = bytes.size();
      record.content = ChunkId::of(bytes);
      if (store) error = storeChunks(record, bytes, *store, limits);
    }
  } else {
    error = record.path + " is neither a file, a symlink nor a folder";
  }
  ::close(folder.fd);
  if (!error.empty()) return Result(error);
  return Result(std::optional<FileRecord>(std::move(record)));
}

std::variant<std::string, std::string> recordedContent(const FileRecord& record, const ChunkStore& store) {
  using Result = std::variant<std::string, std::string>;
  if (record.kind != EntryKind::File) return Result(std::in_place_index<1>, record.path + " is not a file");
  if (record.hashOnly)
    return Result(std::in_place_index<1>, record.path + " was over the size limit and recorded by hash only");
  std::string bytes;
  bytes.reserve(record.size);
  for (const ChunkId& id : record.chunks) {
    auto chunk = store.get(id);
    if (chunk.index() == 1) return Result(std::in_place_index<1>, record.path + ": " + std::get<1>(chunk));
    bytes += std::get<0>(chunk);
  }
  if (bytes.size() != record.size || !(ChunkId::of(bytes) == record.content))
    return Result(std::in_place_index<1>, record.path + ": the stored chunks do not make up the recorded content");
  return Result(std::in_place_index<0>, std::move(bytes));
}

// One line per record: kind, mode (octal), size, mtime, inode, content hash, hash-only flag,
// path, then the link target or the chunk ids separated by commas.
std::string encodeRecords(const std::vector<FileRecord>& records) {
  std::string text;
  for (const auto& record : records) {
    char mode[8];
    const auto end = std::to_chars(mode, mode + sizeof mode, static_cast<unsigned>(record.mode), 8).ptr;
    text += static_cast<char>(record.kind);
    text += '\t';
    text.append(mode, end);
    text += '\t' + std::to_string(record.size) + '\t' + std::to_string(record.mtimeNanoseconds) + '\t' +
            std::to_string(record.inode) + '\t' + record.content.hex() + '\t' + (record.hashOnly ? "h" : "c") + '\t' +
            escapeField(record.path) + '\t';
    if (record.kind == EntryKind::Symlink) text += escapeField(record.linkTarget);
    else
      for (std::size_t i = 0; i < record.chunks.size(); ++i) text += (i ? "," : "") + record.chunks[i].hex();
    text += '\n';
  }
  return text;
}

std::optional<std::vector<FileRecord>> decodeRecords(std::string_view text) {
  std::vector<FileRecord> records;
  while (!text.empty()) {
    const std::size_t newline = text.find('\n');
    if (newline == std::string_view::npos) return std::nullopt; // cut short
    const auto parts = splitTabFields(text.substr(0, newline));
    text.remove_prefix(newline + 1);
    if (parts.size() != 9 || parts[0].size() != 1) return std::nullopt;
    FileRecord record;
    const char kind = parts[0][0];
    if (kind != 'f' && kind != 'l' && kind != 'd') return std::nullopt;
    record.kind = static_cast<EntryKind>(kind);
    unsigned mode = 0;
    if (!parseNumber(parts[1], mode, 8) || mode > 07777) return std::nullopt;
    record.mode = static_cast<mode_t>(mode);
    if (!parseNumber(parts[2], record.size) || !parseNumber(parts[3], record.mtimeNanoseconds) ||
        !parseNumber(parts[4], record.inode) || !ChunkId::fromHex(parts[5], record.content) ||
        (parts[6] != "h" && parts[6] != "c"))
      return std::nullopt;
    record.hashOnly = parts[6] == "h";
    auto path = unescapeField(parts[7]);
    if (!path) return std::nullopt;
    record.path = std::move(*path);
    if (record.kind == EntryKind::Symlink) {
      auto target = unescapeField(parts[8]);
      if (!target) return std::nullopt;
      record.linkTarget = std::move(*target);
    } else if (!parts[8].empty()) {
      for (std::size_t start = 0; start <= parts[8].size(); start += 33) {
        ChunkId id;
        if (!ChunkId::fromHex(parts[8].substr(start, 32), id)) return std::nullopt;
        if (start + 32 < parts[8].size() && parts[8][start + 32] != ',') return std::nullopt;
        record.chunks.push_back(id);
      }
    }
    records.push_back(std::move(record));
  }
  return records;
}

} // namespace toold::core
