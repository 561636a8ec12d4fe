#include "core/checkpoint/baseline_manifest.h"

#include "core/files/atomic_file.h"

#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace toold::core {

namespace {
constexpr std::string_view kHeader = "toold checkpoint baseline 1\n";
}

std::string saveBaseline(ChunkStore& store, const std::filesystem::path& file, const std::vector<FileRecord>& records,
                         std::set<ChunkId>* manifestChunks) {
  const std::string text = encodeRecords(records);
  std::string pointer(kHeader);
  std::size_t begin = 0;
  for (std::size_t end : chunkBoundaries(text)) {
    auto stored = store.put(std::string_view(text).substr(begin, end - begin));
    if (auto* failure = std::get_if<std::string>(&stored)) return "cannot store the baseline: " + *failure;
    const ChunkId id = std::get<ChunkId>(stored);
    if (manifestChunks) manifestChunks->insert(id);
    pointer += id.hex() + '\n';
    begin = end;
  }
  return writeFileAtomically(file, pointer, 0644);
}

std::optional<LoadedBaseline> loadBaseline(const ChunkStore& store, const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream content;
  content << in.rdbuf();
  const std::string pointer = content.str();
  if (pointer.compare(0, kHeader.size(), kHeader) != 0) return std::nullopt;
  LoadedBaseline loaded;
  struct stat status {};
  if (::stat(file.c_str(), &status) == 0)
    loaded.writtenNanoseconds = static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1'000'000'000 + status.st_mtim.tv_nsec;
  std::string text;
  for (std::size_t at = kHeader.size(); at < pointer.size();) {
    const std::size_t newline = pointer.find('\n', at);
    if (newline == std::string::npos) return std::nullopt;
    ChunkId id;
    if (!ChunkId::fromHex(std::string_view(pointer).substr(at, newline - at), id)) return std::nullopt;
    auto chunk = store.get(id);
    if (chunk.index() != 0) return std::nullopt;
    text += std::get<0>(chunk);
    loaded.manifestChunks.insert(id);
    at = newline + 1;
  }
  auto records = decodeRecords(text);
  if (!records) return std::nullopt;
  loaded.records = std::move(*records);
  return loaded;
}

} // namespace toold::core
