// Deciding what a file is before showing it to a model: text, an image or PDF the model can be
// given as a file item, or binary that must be refused. Media is recognised by its magic bytes,
// not its extension alone, so a corrupt `.png` never reaches a provider as `image/png`.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toold::builtins {

enum class FileClass { Text, Media, Binary };

struct FileSniff {
  FileClass kind = FileClass::Text;
  std::string mime;   ///< Media: "image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "application/pdf"
  std::string reason; ///< Binary: why, for logs ("extension .wasm", "NUL byte at 12", "38% control bytes")
};

/// Classifies from the file name and its first bytes (`head`: up to 4096 bytes; `size`: the whole
/// size). In order: a known binary extension (opencode's list: .zip .tar .gz .exe .dll .so .class
/// .jar .war .7z .doc .docx .xls .xlsx .ppt .pptx .odt .ods .odp .bin .dat .obj .o .a .lib .wasm
/// .pyc .pyo, case-insensitive) → Binary; media magic bytes (PNG, JPEG, GIF87a/89a, RIFF…WEBP,
/// BM, %PDF-) → Media, whatever the extension; an image/PDF extension whose bytes do not match
/// its magic → Binary ("not a valid PNG"); size 0 → Text; a NUL byte in `head` → Binary; more than
/// 30% of `head` being bytes < 9 or 14..31 → Binary; else Text. `.svg` and `.fbs` are text.
FileSniff sniffFile(const std::filesystem::path& path, std::string_view head, std::uintmax_t size);

/// Up to `max` names in `directory` similar to `name` (one contains the other, case-insensitive;
/// else edit distance ≤ max(2, len/3)), best first (smaller distance, then name order), as full
/// paths. Never throws; an unreadable directory gives none.
std::vector<std::filesystem::path> similarNames(const std::filesystem::path& directory, std::string_view name, std::size_t max = 3);

} // namespace toold::builtins
