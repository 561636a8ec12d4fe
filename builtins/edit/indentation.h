// Indentation of a matched block relative to the find: which uniform shift (a different base
// indentation, tabs for N spaces per level) turns the find's lines into the window's, and the same
// shift applied to the replacement. Private to builtins/edit.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace toold::builtins::edit {

struct IndentShift {
  enum class Style {
    Same,         ///< nested indentation is written the same way in both
    SpacesToTabs, ///< the find nests with `spacesPerTab` spaces per level, the file with tabs
    TabsToSpaces, ///< the find nests with tabs, the file with `spacesPerTab` spaces per level
  };
  std::string findBase;   ///< indentation common to the find's non-blank lines
  std::string windowBase; ///< indentation common to the window's non-blank lines
  Style style = Style::Same;
  std::size_t spacesPerTab = 0;

  /// Whether the replacement must be re-indented at all.
  bool shifts() const { return style != Style::Same || findBase != windowBase; }
  /// "indentation shifted from 4 spaces to 1 tab", …; empty when nothing shifts.
  std::string describe() const;
};

/// A consistent scaling of nesting: the find nests by `findStep` indentation characters per level
/// from `findBase`, the window by `windowStep` from `windowBase` (2-space levels for 4-space ones,
/// 3 spaces for a tab, …). Each side indents with one character only.
struct IndentScale {
  std::size_t findBase = 0;
  std::size_t findStep = 1;
  std::size_t windowBase = 0;
  std::size_t windowStep = 1;
  char windowChar = ' '; ///< ' ' or '\t'
  char findChar = ' ';

  /// The window's indentation for a line the model indented with `findIndent`.
  std::string map(std::string_view findIndent) const;
  /// "indentation rescaled from 2 spaces to 4 spaces per level"
  std::string describe() const;
};

/// What indentation comparison needs of a line.
struct LineShape {
  std::string_view indent; ///< leading spaces and tabs
  bool blank = true;       ///< empty or whitespace only
};

LineShape lineShape(std::string_view line);

/// The shift that makes `find`'s indentation the `window`'s (same number of lines), or nullopt
/// when their relative indentation differs. Lines blank on either side are not compared.
std::optional<IndentShift> matchIndentation(std::span<const LineShape> find, std::span<const LineShape> window);

/// The scaling of levels that makes `find`'s indentation the `window`'s (same number of lines),
/// or nullopt when there is none: each side must indent with one character (spaces or tabs), have
/// at least two levels, and every line's level (its indentation above the base, in steps) must be
/// the same on both sides. Lines blank on either side are not compared.
std::optional<IndentScale> matchIndentScale(std::span<const LineShape> find, std::span<const LineShape> window);

/// `line` with its indentation written the file's way; blank lines are kept as they are.
std::string reindentLine(std::string_view line, const IndentShift& shift);
std::string reindentLine(std::string_view line, const IndentScale& scale);

/// `replacement` with the shift applied to each non-blank line that starts with the find's base:
/// that base replaced by the window's, nested indentation converted to the file's style. Other
/// lines are kept as they are.
std::string reindent(std::string_view replacement, const IndentShift& shift);

} // namespace toold::builtins::edit
