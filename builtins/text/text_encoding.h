// How the text-editing tools see a file's bytes, and how they put them back. A file is decoded
// once into LF-normalized text (what matchers and patches work on) plus what is needed to write
// it back byte-for-byte: the BOM, each line's own ending, the final newline. Edits are spliced into
// the raw bytes, so a region the edit did not touch keeps every byte it had — even in a file that
// mixes CRLF and LF lines.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace toold::builtins {

enum class LineEnding { Lf, Crlf };

struct DecodedText {
  bool bom = false;  ///< the file starts with the UTF-8 BOM (EF BB BF); it is not part of `text`
  std::string text;  ///< the content after the BOM with every "\r\n" replaced by "\n" (a lone "\r" stays)
  /// The style new lines are written in: Crlf when the file has at least one CRLF and no fewer
  /// CRLF than bare LF line ends; Lf otherwise (including a file with no line end at all).
  LineEnding lineEnding = LineEnding::Lf;
  /// Sorted positions in `text` of the '\n' characters that were "\r\n" in the file.
  std::vector<std::size_t> crlfAt;
};

/// Why a file cannot be edited as text. `message` is written for the model and is meant to follow
/// "File <path> ": "is not valid UTF-8 (byte 0xE9 at offset 1234 is not part of a UTF-8
/// character); toold edits UTF-8 text only, so it was left unchanged. Convert it to UTF-8 first, or
/// edit it with the shell." or "is UTF-16 (it starts with a UTF-16 BOM); toold edits UTF-8 text
/// only, so it was left unchanged" (UTF-32 likewise). `offset` is the bad byte's offset in the raw
/// file, BOM included (0 for a BOM refusal).
struct TextDecodeError {
  std::size_t offset = 0;
  std::string message;
};

/// How many bytes at the start of `bytes` can begin one well-formed UTF-8 character (Unicode
/// Table 3-7): the whole character, or the prefix of one that more bytes could complete; 0 when
/// `bytes` is empty or its first byte cannot begin one.
std::size_t utf8CharacterPrefix(std::string_view bytes);

/// The offset of the first byte that is not part of well-formed UTF-8 (overlongs, surrogates and
/// code points above U+10FFFF are ill-formed), or npos when all of `bytes` is valid. For a bad or
/// truncated multi-byte sequence that is the offset of its lead byte.
std::size_t firstInvalidUtf8(std::string_view bytes);

/// Decodes a file's bytes in O(n). Refuses a UTF-16/UTF-32 BOM and invalid UTF-8 (never
/// substitutes U+FFFD). NUL bytes are valid UTF-8 and are kept.
std::variant<DecodedText, TextDecodeError> decodeText(std::string_view raw);

/// Every "\r\n" in `text` replaced by "\n".
std::string toLf(std::string_view text);

/// `lfText` with every "\n" written as `ending` (an existing "\r\n" is not doubled). With Lf the
/// text is returned as is: a "\r\n" already in it stays (use toLf to normalize first).
std::string withLineEnding(std::string_view lfText, LineEnding ending);

/// The byte offset in the raw file (BOM included) of position `position` of `decoded.text`. A
/// position at a '\n' that was "\r\n" maps to the '\r', so a span ending before a line end stays
/// before the whole "\r\n". O(log n): a binary search in `crlfAt`.
std::size_t rawOffset(const DecodedText& decoded, std::size_t position);

/// One replacement in `DecodedText::text` coordinates: [begin, end) becomes `text` (LF text).
struct TextReplacement {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string text;
};

/// The raw bytes after applying `replacements` (sorted, non-overlapping, in decoded coordinates)
/// to `raw`, which `decoded` was decoded from. Bytes outside the replaced spans are copied
/// unchanged (BOM, line ends, a missing final newline); each replacement's "\n" are written in
/// `decoded.lineEnding`.
std::string spliceRaw(std::string_view raw, const DecodedText& decoded, const std::vector<TextReplacement>& replacements);

/// The raw bytes for whole new LF text `lfText` written in the style of `decoded`: the BOM kept,
/// every line end written in `decoded.lineEnding`. For tools that rebuild a file from lines
/// (apply_patch) rather than splicing spans.
std::string encodeLike(const DecodedText& decoded, std::string_view lfText);

} // namespace toold::builtins
