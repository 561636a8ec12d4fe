// A large page converted a piece at a time. gumbo's tree costs 25–70 times the page's bytes (a
// 2.6 MB table took toold from 15 to 188 MB resident), and webfetch takes pages up to 5 MB: so a
// page over kHtmlPieceBytes is cut into pieces of about that size, each parsed, rendered and freed
// before the next. Cuts fall before a block's start tag (before a row inside a table), never
// inside a script, style, comment or (up to a piece long) pre; a piece cut inside tables starts with as many <table>
// tags again, so rows stay rows. What a cut costs: a list, paragraph or table is split in two
// where it falls (a table's second half gets its first row as header).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace toold::builtins {

inline constexpr std::size_t kHtmlPieceBytes = 512 * 1024;

struct HtmlPiece {
  std::string prefix;    ///< tags that reopen what the cut left open ("<table>")
  std::string_view html; ///< a part of the page
};

/// `html` in pieces of about `pieceBytes` (one piece when it is no larger than twice that).
std::vector<HtmlPiece> htmlPieces(std::string_view html, std::size_t pieceBytes = kHtmlPieceBytes);

} // namespace toold::builtins
