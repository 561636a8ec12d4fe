// Reading and writing a whole file in tests, as another program would: no toold code involved, so
// what a test checks does not depend on what it tests.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace toold::testing {

/// The file's bytes; empty when it cannot be read.
inline std::string contentOf(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// Replaces the file's bytes (creating it; not its folders).
inline void put(const std::filesystem::path& path, const std::string& content) {
  std::ofstream(path, std::ios::binary) << content;
}

} // namespace toold::testing
