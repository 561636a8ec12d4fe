#include "builtins/edit/indentation.h"

#include "builtins/edit/line_text.h"

#include <algorithm>

namespace toold::builtins::edit {

namespace {

// The longest indentation prefix shared by every non-blank line.
std::string_view commonIndent(std::span<const LineShape> lines) {
  std::optional<std::string_view> base;
  for (const LineShape& line : lines) {
    if (line.blank) continue;
    if (!base) {
      base = line.indent;
      continue;
    }
    const std::size_t limit = std::min(base->size(), line.indent.size());
    std::size_t shared = 0;
    while (shared < limit && (*base)[shared] == line.indent[shared]) ++shared;
    base = base->substr(0, shared);
  }
  return base.value_or(std::string_view{});
}

bool allOf(std::string_view text, char c) {
  return std::all_of(text.begin(), text.end(), [c](char x) { return x == c; });
}

// Whether nested indentation `find` (relative to its base) is `window` written in `style`.
bool fits(IndentShift::Style style, std::size_t width, std::string_view find, std::string_view window) {
  switch (style) {
  case IndentShift::Style::Same: return find == window;
  case IndentShift::Style::SpacesToTabs:
    return allOf(find, ' ') && allOf(window, '\t') && find.size() == width * window.size();
  case IndentShift::Style::TabsToSpaces:
    return allOf(find, '\t') && allOf(window, ' ') && window.size() == width * find.size();
  }
  return false;
}

std::string countNoun(std::size_t count, std::string_view noun) {
  return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

std::string describeIndent(std::string_view indent) {
  const auto tabs = static_cast<std::size_t>(std::count(indent.begin(), indent.end(), '\t'));
  const std::size_t spaces = indent.size() - tabs;
  if (tabs == 0 && spaces == 0) return "no indentation";
  if (tabs == 0) return countNoun(spaces, "space");
  if (spaces == 0) return countNoun(tabs, "tab");
  return countNoun(tabs, "tab") + " and " + countNoun(spaces, "space");
}

// Leading nested indentation `indent` written in the file's style.
std::string convertIndent(std::string_view indent, const IndentShift& shift) {
  std::string out;
  switch (shift.style) {
  case IndentShift::Style::Same: out = indent; break;
  case IndentShift::Style::SpacesToTabs: {
    std::size_t pending = 0;
    for (const char c : indent) {
      if (c == ' ') {
        if (++pending == shift.spacesPerTab) {
          out.push_back('\t');
          pending = 0;
        }
      } else {
        out.append(pending, ' ');
        pending = 0;
        out.push_back(c);
      }
    }
    out.append(pending, ' ');
    break;
  }
  case IndentShift::Style::TabsToSpaces:
    for (const char c : indent) {
      if (c == '\t')
        out.append(shift.spacesPerTab, ' ');
      else
        out.push_back(c);
    }
    break;
  }
  return out;
}

// The one character `indents` use, '\0' when none has any indentation, or nullopt when mixed.
std::optional<char> indentChar(std::span<const LineShape> lines, std::span<const LineShape> other) {
  char found = '\0';
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].blank || other[i].blank) continue;
    for (const char c : lines[i].indent) {
      if (found != '\0' && c != found) return std::nullopt;
      found = c;
    }
  }
  return found;
}

std::size_t gcd(std::size_t a, std::size_t b) {
  while (b != 0) {
    const std::size_t rest = a % b;
    a = b;
    b = rest;
  }
  return a;
}

} // namespace

std::string reindentLine(std::string_view line, const IndentShift& shift) {
  if (isBlank(line) || !line.starts_with(shift.findBase)) return std::string(line);
  const std::string_view rest = line.substr(shift.findBase.size());
  const std::string_view nested = leadingIndent(rest);
  return shift.windowBase + convertIndent(nested, shift) + std::string(rest.substr(nested.size()));
}

std::string reindentLine(std::string_view line, const IndentScale& scale) {
  if (isBlank(line)) return std::string(line);
  const std::string_view indent = leadingIndent(line);
  return scale.map(indent) + std::string(line.substr(indent.size()));
}

std::string IndentScale::map(std::string_view findIndent) const {
  // Indentation written with the other character (a tab in a space-indented find) counts as
  // one level.
  std::size_t width = 0;
  for (const char c : findIndent) width += c == findChar ? 1 : findStep;
  std::size_t target = 0;
  if (width >= findBase) {
    const std::size_t above = width - findBase;
    target = windowBase + above / findStep * windowStep + above % findStep;
  } else {
    const std::size_t below = (findBase - width + findStep - 1) / findStep * windowStep;
    target = below > windowBase ? 0 : windowBase - below;
  }
  return std::string(target, windowChar);
}

std::string IndentScale::describe() const {
  const auto unit = [](std::size_t step, char c) {
    return c == '\t' ? countNoun(step, "tab") : countNoun(step, "space");
  };
  return "indentation rescaled from " + unit(findStep, findChar) + " to " + unit(windowStep, windowChar) +
         " per level";
}

std::optional<IndentScale> matchIndentScale(std::span<const LineShape> find, std::span<const LineShape> window) {
  if (find.size() != window.size()) return std::nullopt;
  const std::optional<char> findChar = indentChar(find, window);
  const std::optional<char> windowChar = indentChar(window, find);
  if (!findChar || !windowChar) return std::nullopt;
  std::optional<std::size_t> findBase;
  std::optional<std::size_t> windowBase;
  for (std::size_t i = 0; i < find.size(); ++i) {
    if (find[i].blank || window[i].blank) continue;
    if (!findBase || find[i].indent.size() < *findBase) findBase = find[i].indent.size();
    if (!windowBase || window[i].indent.size() < *windowBase) windowBase = window[i].indent.size();
  }
  if (!findBase) return std::nullopt;
  std::size_t findStep = 0;
  std::size_t windowStep = 0;
  for (std::size_t i = 0; i < find.size(); ++i) {
    if (find[i].blank || window[i].blank) continue;
    findStep = gcd(findStep, find[i].indent.size() - *findBase);
    windowStep = gcd(windowStep, window[i].indent.size() - *windowBase);
  }
  // One level only is a uniform shift, another step's business.
  if (findStep == 0 || windowStep == 0) return std::nullopt;
  for (std::size_t i = 0; i < find.size(); ++i) {
    if (find[i].blank || window[i].blank) continue;
    if ((find[i].indent.size() - *findBase) / findStep != (window[i].indent.size() - *windowBase) / windowStep)
      return std::nullopt;
  }
  IndentScale scale;
  scale.findBase = *findBase;
  scale.findStep = findStep;
  scale.windowBase = *windowBase;
  scale.windowStep = windowStep;
  scale.findChar = *findChar == '\0' ? ' ' : *findChar;
  scale.windowChar = *windowChar == '\0' ? ' ' : *windowChar;
  return scale;
}

std::string IndentShift::describe() const {
  std::string out;
  if (findBase != windowBase) {
    out = "indentation shifted from " + describeIndent(findBase) + " to " + describeIndent(windowBase);
  }
  if (style == Style::Same) return out;
  if (!out.empty()) out += "; ";
  if (style == Style::SpacesToTabs) {
    out += "nested indentation converted from " + std::to_string(spacesPerTab) + " spaces to tabs";
  } else {
    out += "nested indentation converted from tabs to " + std::to_string(spacesPerTab) + " spaces";
  }
  return out;
}

LineShape lineShape(std::string_view line) { return {leadingIndent(line), isBlank(line)}; }

std::optional<IndentShift> matchIndentation(std::span<const LineShape> find, std::span<const LineShape> window) {
  if (find.size() != window.size()) return std::nullopt;
  const std::string_view findBase = commonIndent(find);
  const std::string_view windowBase = commonIndent(window);
  // Whether the nested indentation of every line with text on both sides fits `style`.
  const auto allFit = [&](IndentShift::Style style, std::size_t width) {
    for (std::size_t i = 0; i < find.size(); ++i) {
      if (find[i].blank || window[i].blank) continue;
      if (!fits(style, width, find[i].indent.substr(findBase.size()), window[i].indent.substr(windowBase.size()))) {
        return false;
      }
    }
    return true;
  };
  IndentShift shift;
  if (!allFit(IndentShift::Style::Same, 0)) {
    bool found = false;
    for (const std::size_t width : {std::size_t{4}, std::size_t{2}, std::size_t{8}}) {
      for (const auto style : {IndentShift::Style::SpacesToTabs, IndentShift::Style::TabsToSpaces}) {
        if (!found && allFit(style, width)) {
          shift.style = style;
          shift.spacesPerTab = width;
          found = true;
        }
      }
    }
    if (!found) return std::nullopt;
  }
  shift.findBase = findBase;
  shift.windowBase = windowBase;
  return shift;
}

std::string reindent(std::string_view replacement, const IndentShift& shift) {
  if (!shift.shifts()) return std::string(replacement);
  std::string out;
  out.reserve(replacement.size() + replacement.size() / 4);
  std::size_t pos = 0;
  while (true) {
    const std::size_t newline = replacement.find('\n', pos);
    const std::size_t length = newline == std::string_view::npos ? std::string_view::npos : newline - pos;
    out += reindentLine(replacement.substr(pos, length), shift);
    if (newline == std::string_view::npos) break;
    out.push_back('\n');
    pos = newline + 1;
  }
  return out;
}

} // namespace toold::builtins::edit
