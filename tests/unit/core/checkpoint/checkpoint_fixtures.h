// Shared by the checkpoint tests: source-like text, and recording a whole test tree.
#pragma once

#include "core/checkpoint/file_record.h"
#include "core/checkpoint/state_diff.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace toold::testing {

/// About `bytes` of lines that look like code: indented words from a fixed vocabulary, so the text
/// compresses roughly as source does. Deterministic for a seed.
inline std::vector<std::string> sourceLines(std::size_t bytes, std::uint64_t seed = 1) {
  std::uint64_t state = seed;
  auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  };
  std::vector<std::string> words;
  for (int i = 0; i < 2000; ++i) {
    std::string word;
    const auto length = 2 + next() % 9;
    for (std::uint64_t j = 0; j < length; ++j) word += "abcdefghijklmnopqrstuvwxyz_"[next() % 27];
    words.push_back(word);
  }
  std::vector<std::string> lines;
  std::size_t size = 0;
  while (size < bytes) {
    std::string line(4 * (1 + next() % 3), ' ');
    const auto count = 3 + next() % 10;
    for (std::uint64_t j = 0; j < count; ++j) line += (j ? " " : "") + words[next() % words.size()];
    line += ";\n";
    size += line.size();
    lines.push_back(std::move(line));
  }
  return lines;
}

inline std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += line;
  return text;
}

inline void writeFile(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// Every path below `root` (symlinks not followed), recorded without a store.
inline core::WorkspaceState recordTree(int rootFd, const std::filesystem::path& root) {
  core::WorkspaceState state;
  for (auto it = std::filesystem::recursive_directory_iterator(root); it != std::filesystem::recursive_directory_iterator(); ++it) {
    const std::string path = it->path().lexically_relative(root).string(); // relative() would follow links
    auto recorded = core::recordPath(rootFd, path, nullptr);
    if (recorded.index() != 0) throw std::runtime_error(std::get<1>(recorded));
    auto& record = std::get<0>(recorded);
    if (record) state.emplace(path, *record);
  }
  return state;
}

} // namespace toold::testing
