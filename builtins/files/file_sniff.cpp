#include "builtins/files/file_sniff.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <system_error>
#include <utility>

namespace toold::builtins {

namespace {

std::string lowerAscii(std::string_view text) {
  std::string lowered(text);
  for (char& c : lowered)
    if (c >= 'A' && c <= 'Z')
      c = static_cast<char>(c - 'A' + 'a');
  return lowered;
}

constexpr std::array<std::string_view, 28> kBinaryExtensions = {
    ".zip", ".tar", ".gz",  ".exe", ".dll", ".so",  ".class", ".jar", ".war", ".7z",
    ".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx", ".odt", ".ods", ".odp", ".bin",
    ".dat", ".obj", ".o",   ".a",   ".lib", ".wasm", ".pyc", ".pyo"};

struct MediaKind {
  std::string_view mime;
  std::string_view what; ///< for "not a valid … "
};

constexpr MediaKind kPng{"image/png", "PNG image"};
constexpr MediaKind kJpeg{"image/jpeg", "JPEG image"};
constexpr MediaKind kGif{"image/gif", "GIF image"};
constexpr MediaKind kWebp{"image/webp", "WEBP image"};
constexpr MediaKind kBmp{"image/bmp", "BMP image"};
constexpr MediaKind kPdf{"application/pdf", "PDF document"};

/// The media kind an extension promises, if any.
const MediaKind* mediaForExtension(std::string_view extension) {
  if (extension == ".png")
    return &kPng;
  if (extension == ".jpg" || extension == ".jpeg")
    return &kJpeg;
  if (extension == ".gif")
    return &kGif;
  if (extension == ".webp")
    return &kWebp;
  if (extension == ".bmp")
    return &kBmp;
  if (extension == ".pdf")
    return &kPdf;
  return nullptr;
}

std::uint32_t littleEndian32(std::string_view bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i)
    value |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
  return value;
}

/// A BMP: "BM", at least the 14-byte file header plus a 12-byte core header, and a DIB header
/// size (offset 14) that one of the known header versions has — "BM" alone starts many texts.
bool isBmp(std::string_view head, std::uintmax_t size) {
  if (size < 26 || head.size() < 18 || !head.starts_with("BM"))
    return false;
  const std::uint32_t dibSize = littleEndian32(head, 14);
  return dibSize == 12 || dibSize == 16 || dibSize == 40 || dibSize == 52 || dibSize == 56 || dibSize == 64 ||
         dibSize == 108 || dibSize == 124;
}

/// The media kind the bytes themselves show, if any.
const MediaKind* mediaForMagic(std::string_view head, std::uintmax_t size) {
  using namespace std::string_view_literals;
  if (head.starts_with("\x89PNG\r\n\x1A\n"sv))
    return &kPng;
  if (head.starts_with("\xFF\xD8\xFF"sv))
    return &kJpeg;
  if (head.starts_with("GIF87a"sv) || head.starts_with("GIF89a"sv))
    return &kGif;
  if (head.size() >= 12 && head.starts_with("RIFF"sv) && head.substr(8, 4) == "WEBP"sv)
    return &kWebp;
  if (isBmp(head, size))
    return &kBmp;
  if (head.starts_with("%PDF-"sv))
    return &kPdf;
  return nullptr;
}

/// Bytes below 9, or from 14 to 31: the control characters text files do not hold.
std::size_t countControlBytes(std::string_view head) {
  std::size_t control = 0;
  std::size_t at = 0;
#if defined(__SSE2__)
  // Unsigned "x <= limit" is "min(x, limit) == x"; each match subtracts -1 from its byte lane,
  // and a lane is folded before it could pass 255.
  const __m128i eight = _mm_set1_epi8(8);
  const __m128i fourteen = _mm_set1_epi8(14);
  const __m128i seventeen = _mm_set1_epi8(17);
  while (head.size() - at >= 16) {
    __m128i lanes = _mm_setzero_si128();
    for (int block = 0; block < 255 && head.size() - at >= 16; ++block, at += 16) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(head.data() + at));
      const __m128i low = _mm_cmpeq_epi8(_mm_min_epu8(bytes, eight), bytes);
      const __m128i shifted = _mm_sub_epi8(bytes, fourteen);
      const __m128i middle = _mm_cmpeq_epi8(_mm_min_epu8(shifted, seventeen), shifted);
      lanes = _mm_sub_epi8(lanes, _mm_or_si128(low, middle));
    }
    const __m128i sums = _mm_sad_epu8(lanes, _mm_setzero_si128());
    control += static_cast<std::size_t>(_mm_cvtsi128_si32(sums)) +
               static_cast<std::size_t>(_mm_cvtsi128_si32(_mm_unpackhi_epi64(sums, sums)));
  }
#endif
  for (; at < head.size(); ++at) {
    const auto byte = static_cast<unsigned char>(head[at]);
    control += static_cast<std::size_t>(byte < 9 || (byte >= 14 && byte < 32));
  }
  return control;
}

/// Levenshtein distance over bytes, two rows.
std::size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> previous(b.size() + 1);
  std::vector<std::size_t> current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

} // namespace

FileSniff sniffFile(const std::filesystem::path& path, std::string_view head, std::uintmax_t size) {
  const std::string extension = lowerAscii(path.extension().string());
  if (std::find(kBinaryExtensions.begin(), kBinaryExtensions.end(), extension) != kBinaryExtensions.end())
    return FileSniff{FileClass::Binary, {}, "extension " + extension};

  if (const MediaKind* media = mediaForMagic(head, size))
    return FileSniff{FileClass::Media, std::string(media->mime), {}};
  if (const MediaKind* promised = mediaForExtension(extension))
    return FileSniff{FileClass::Binary, {}, "not a valid " + std::string(promised->what)};

  if (size == 0 || head.empty())
    return FileSniff{};

  if (const void* nul = std::memchr(head.data(), 0, head.size()))
    return FileSniff{FileClass::Binary, {}, "NUL byte at " + std::to_string(static_cast<const char*>(nul) - head.data())};
  const std::size_t control = countControlBytes(head);
  // ratio > 0.3, in integers
  if (control * 10 > head.size() * 3) {
    const std::size_t percent = (control * 100 + head.size() / 2) / head.size();
    return FileSniff{FileClass::Binary, {}, std::to_string(percent) + "% control bytes"};
  }
  return FileSniff{};
}

std::vector<std::filesystem::path> similarNames(const std::filesystem::path& directory, std::string_view name, std::size_t max) {
  namespace fs = std::filesystem;
  std::vector<fs::path> result;
  if (name.empty() || max == 0)
    return result;
  const std::string wanted = lowerAscii(name);
  const std::size_t threshold = std::max<std::size_t>(2, name.size() / 3);

  std::vector<std::pair<std::size_t, std::string>> candidates; // (distance, name)
  std::error_code error;
  fs::directory_iterator it(directory, error);
  for (; !error && it != fs::directory_iterator(); it.increment(error)) {
    std::string entry = it->path().filename().string();
    if (entry == name)
      continue;
    const std::string lowered = lowerAscii(entry);
    const std::size_t lengthGap = lowered.size() > wanted.size() ? lowered.size() - wanted.size() : wanted.size() - lowered.size();
    const bool contains = lowered.size() >= wanted.size() ? lowered.find(wanted) != std::string::npos
                                                          : wanted.find(lowered) != std::string::npos;
    if (contains) {
      candidates.emplace_back(lengthGap, std::move(entry)); // the distance is exactly the length gap
      continue;
    }
    if (lengthGap > threshold)
      continue; // the distance is at least the length gap
    const std::size_t distance = editDistance(lowered, wanted);
    if (distance <= threshold)
      candidates.emplace_back(distance, std::move(entry));
  }

  std::sort(candidates.begin(), candidates.end());
  for (std::size_t i = 0; i < candidates.size() && i < max; ++i)
    result.push_back(directory / candidates[i].second);
  return result;
}

} // namespace toold::builtins
