#include "core/checkpoint/chunk_store.h"

#include "core/checkpoint/unnamed_write.h"
#include "core/files/read_to_end.h"

#include "core/files/atomic_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

namespace toold::core {

namespace fs = std::filesystem;

namespace {

// A chunk file is one tag byte and its payload: 'r' raw bytes, 'z' a zlib stream of them.
constexpr char kRaw = 'r', kDeflated = 'z';

std::string deflated(std::string_view bytes, int level) {
  uLongf capacity = compressBound(static_cast<uLong>(bytes.size()));
  std::string out(1 + capacity, '\0');
  out[0] = kDeflated;
  if (compress2(reinterpret_cast<Bytef*>(out.data() + 1), &capacity, reinterpret_cast<const Bytef*>(bytes.data()),
                static_cast<uLong>(bytes.size()), level) != Z_OK)
    return {};
  out.resize(1 + capacity);
  return out;
}

std::variant<std::string, std::string> inflated(std::string_view payload) {
  z_stream stream{};
  if (inflateInit(&stream) != Z_OK) return std::variant<std::string, std::string>(std::in_place_index<1>, "zlib cannot start");
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(payload.data()));
  stream.avail_in = static_cast<uInt>(payload.size());
  std::string out;
  int status = Z_OK;
  while (status == Z_OK) {
    const std::size_t used = out.size();
    out.resize(used + 16 * 1024);
    stream.next_out = reinterpret_cast<Bytef*>(out.data() + used);
    stream.avail_out = 16 * 1024;
    status = inflate(&stream, Z_NO_FLUSH);
    out.resize(out.size() - stream.avail_out);
  }
  inflateEnd(&stream);
  if (status != Z_STREAM_END) return std::variant<std::string, std::string>(std::in_place_index<1>, "corrupt compressed chunk");
  return std::variant<std::string, std::string>(std::in_place_index<0>, std::move(out));
}

} // namespace

ChunkStore::ChunkStore(fs::path directory) : ChunkStore(std::move(directory), Options{}) {}

ChunkStore::ChunkStore(fs::path directory, Options options) : directory_(std::move(directory)), options_(options) {
  std::error_code ec;
  fs::create_directories(directory_, ec);
  directoryFd_ = ::open(directory_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directoryFd_ < 0)
    throw std::runtime_error("cannot open the checkpoint store " + directory_.string() + ": " + std::strerror(errno));
}

ChunkStore::~ChunkStore() {
  if (directoryFd_ >= 0) ::close(directoryFd_);
}

// Two hex digits of fan-out: 256 folders keep each one small enough to list and evict quickly.
fs::path ChunkStore::pathOf(const ChunkId& id) const {
  const std::string hex = id.hex();
  return fs::path(hex.substr(0, 2)) / hex.substr(2);
}

bool ChunkStore::contains(const ChunkId& id) const {
  struct stat status {};
  return ::fstatat(directoryFd_, pathOf(id).c_str(), &status, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(status.st_mode);
}

std::variant<ChunkId, std::string> ChunkStore::put(std::string_view bytes) {
  const ChunkId id = ChunkId::of(bytes);
  if (contains(id)) return id;
  const fs::path relative = pathOf(id);
  const std::string folder = relative.parent_path().string();
  if (::mkdirat(directoryFd_, folder.c_str(), 0700) != 0 && errno != EEXIST)
    return "cannot create " + (directory_ / folder).string() + ": " + std::strerror(errno);
  const int folderFd = ::openat(directoryFd_, folder.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (folderFd < 0) return "cannot open " + (directory_ / folder).string() + ": " + std::strerror(errno);
  std::string file;
  if (options_.compress) file = deflated(bytes, options_.level);
  if (file.empty() || file.size() > bytes.size()) {
    file.assign(1, kRaw);
    file.append(bytes);
  }
  // Unflushed (see the header); a torn chunk fails its id check on reading. Unnamed until whole, so
  // a kill leaves no staging file; a name already there holds the same bytes.
  std::string error;
  const auto unnamed = writeUnnamedThenLink(folderFd, relative.filename().string(), file, 0600);
  if (unnamed.result != UnnamedWriteResult::Unsupported) {
    ::close(folderFd);
    if (unnamed.result == UnnamedWriteResult::Failed) return unnamed.error;
    return id;
  }
  auto staged = stageFileWrite(folderFd, directory_ / relative, file, 0600, StagingOptions{.temporary = {}, .flush = false});
  if (auto* failure = std::get_if<std::string>(&staged)) error = *failure;
  else error = commitStagedWrite(folderFd, std::get<StagedWrite>(staged), false);
  ::close(folderFd);
  if (!error.empty()) return error;
  return id;
}

std::variant<std::string, std::string> ChunkStore::get(const ChunkId& id) const {
  using Result = std::variant<std::string, std::string>;
  const fs::path relative = pathOf(id);
  const int fd = ::openat(directoryFd_, relative.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return Result(std::in_place_index<1>, "chunk " + id.hex() + " is not in the store (evicted)");
    return Result(std::in_place_index<1>, "cannot open chunk " + id.hex() + ": " + std::strerror(errno));
  }
  const auto read = readToEnd(fd);
  const int saved = errno;
  ::close(fd);
  if (!read) return Result(std::in_place_index<1>, "cannot read chunk " + id.hex() + ": " + std::strerror(saved));
  const std::string& file = *read;
  std::string bytes;
  if (!file.empty() && file[0] == kRaw) bytes = file.substr(1);
  else if (!file.empty() && file[0] == kDeflated) {
    auto out = inflated(std::string_view(file).substr(1));
    if (out.index() == 1) return Result(std::in_place_index<1>, "chunk " + id.hex() + ": " + std::get<1>(out));
    bytes = std::move(std::get<0>(out));
  } else {
    return Result(std::in_place_index<1>, "chunk " + id.hex() + " is torn (no format tag)");
  }
  if (!(ChunkId::of(bytes) == id))
    return Result(std::in_place_index<1>, "chunk " + id.hex() + " does not hold what its id says (torn or damaged)");
  return Result(std::in_place_index<0>, std::move(bytes));
}

bool ChunkStore::remove(const ChunkId& id) { return ::unlinkat(directoryFd_, pathOf(id).c_str(), 0) == 0; }

// The lock is a file of its own, opened per holder: flock locks belong to an open file, so two
// holders in one process exclude each other as two processes do.
ChunkStore::Hold::Hold(const ChunkStore& store) {
  fd_ = ::openat(store.directoryFd_, ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd_ >= 0) ::flock(fd_, LOCK_SH);
}

ChunkStore::Hold::~Hold() {
  if (fd_ >= 0) ::close(fd_);
}

ChunkStore::Sweep ChunkStore::sweepExcept(const std::set<ChunkId>& live) {
  Sweep sweep;
  const int lock = ::openat(directoryFd_, ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock < 0 || ::flock(lock, LOCK_EX | LOCK_NB) != 0) {
    sweep.error = lock < 0 ? "cannot open the store's lock: " + std::string(std::strerror(errno))
                           : "a recording holds the checkpoint store; sweep later";
    if (lock >= 0) ::close(lock);
    return sweep;
  }
  std::error_code ec;
  for (const auto& folder : fs::directory_iterator(directory_, ec)) {
    const std::string prefix = folder.path().filename().string();
    if (prefix.size() != 2 || !folder.is_directory(ec)) continue;
    for (const auto& entry : fs::directory_iterator(folder.path(), ec)) {
      ChunkId id;
      // Staging files of writes cut short have other names and go too.
      const bool isChunk = ChunkId::fromHex(prefix + entry.path().filename().string(), id);
      if (isChunk && live.contains(id)) continue;
      struct stat status {};
      if (::lstat(entry.path().c_str(), &status) != 0 || !S_ISREG(status.st_mode)) continue;
      if (::unlink(entry.path().c_str()) != 0) continue;
      sweep.chunksRemoved += isChunk ? 1 : 0;
      sweep.bytesFreed += static_cast<std::uint64_t>(status.st_size);
    }
  }
  ::close(lock);
  return sweep;
}

std::uint64_t ChunkStore::storedBytes() const {
  std::uint64_t total = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(directory_, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    struct stat status {};
    if (::lstat(it->path().c_str(), &status) == 0 && S_ISREG(status.st_mode)) total += static_cast<std::uint64_t>(status.st_size);
  }
  return total;
}

} // namespace toold::core
