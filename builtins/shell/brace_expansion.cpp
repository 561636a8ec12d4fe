// Brace expansion, bounded. See brace_expansion.h.
//
// Bash finds the first `{` (from the left) whose matching `}` closes a valid group, expands the
// group's alternatives (recursively, so `{a,{b,c}}` gives three), and prefixes each with the text
// before the group and suffixes it with every expansion of the text after it. Here the matching is
// done once for the whole word with a stack, and a range is expanded left to right as a product of
// its plain text and its top-level valid groups: no copies of the word, recursion only as deep as
// the braces nest, and every product is checked against the budget before it is built.
#include "builtins/shell/brace_expansion.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>

namespace toold::builtins::shell_detail {
namespace {

/// A `{ … }` pair whose `}` closes its `{`, with the commas at its own level.
struct Group {
  std::size_t open = 0;
  std::size_t close = 0;
  std::vector<std::size_t> commas;
};

/// Thrown inside the expander when a limit is reached; becomes BraceExpansion::problem.
struct LimitReached {
  std::string problem;
};

std::optional<long long> parseInteger(std::string_view text) {
  long long value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (text.empty()) return std::nullopt;
  auto [end, error] = std::from_chars(first, last, value);
  if (error == std::errc::result_out_of_range) throw LimitReached{"brace expansion: a sequence bound is out of range"};
  if (error != std::errc() || end != last) return std::nullopt;
  return value;
}

bool isIntegerText(std::string_view text) {
  if (!text.empty() && text.front() == '-') text.remove_prefix(1);
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool isLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/// Zero-padded width of a sequence bound written with a leading zero (`08`, `-05`), else 0.
std::size_t paddedWidth(std::string_view bound) {
  std::string_view digits = bound;
  if (!digits.empty() && digits.front() == '-') digits.remove_prefix(1);
  return digits.size() > 1 && digits.front() == '0' ? bound.size() : 0;
}

class Expander {
public:
  Expander(std::string_view text, const std::vector<std::size_t>& marks, BraceBudget& budget)
      : text_(text), budget_(budget) {
    active_.assign(text.size(), false);
    for (auto mark : marks)
      if (mark < text.size()) active_[mark] = true;
    matchGroups();
  }

  bool anyGroup() const { return !groups_.empty(); }

  std::vector<std::string> expandAll() { return expand(0, text_.size()); }

private:
  void matchGroups() {
    std::vector<Group> open;
    for (std::size_t i = 0; i < text_.size(); ++i) {
      if (!active_[i]) continue;
      const char c = text_[i];
      if (c == '{') {
        if (open.size() >= kMaxBraceNesting)
          throw LimitReached{"brace expansion: braces nested deeper than " + std::to_string(kMaxBraceNesting)};
        open.push_back(Group{i, 0, {}});
      } else if (c == ',' && !open.empty()) {
        open.back().commas.push_back(i);
      } else if (c == '}' && !open.empty()) {
        Group group = std::move(open.back());
        open.pop_back();
        group.close = i;
        if (!group.commas.empty() || isSequence(group)) groups_.push_back(std::move(group));
      }
    }
    std::sort(groups_.begin(), groups_.end(), [](const Group& a, const Group& b) { return a.open < b.open; });
  }

  static constexpr std::size_t kLongestSequence = 64; // `{-9223372036854775808..…}` fits

  bool isSequence(const Group& group) const {
    const std::size_t length = group.close - group.open - 1;
    if (length > kLongestSequence) return false;
    return sequenceParts(text_.substr(group.open + 1, length)).has_value();
  }

  struct SequenceParts {
    std::string_view from, to, step;
  };

  static std::optional<SequenceParts> sequenceParts(std::string_view content) {
    const auto dots = content.find("..");
    if (dots == std::string_view::npos) return std::nullopt;
    SequenceParts parts{content.substr(0, dots), content.substr(dots + 2), {}};
    if (const auto more = parts.to.find(".."); more != std::string_view::npos) {
      parts.step = parts.to.substr(more + 2);
      parts.to = parts.to.substr(0, more);
      if (!isIntegerText(parts.step)) return std::nullopt;
    }
    const bool numbers = isIntegerText(parts.from) && isIntegerText(parts.to);
    const bool letters = parts.from.size() == 1 && parts.to.size() == 1 && isLetter(parts.from[0]) && isLetter(parts.to[0]);
    if (!numbers && !letters) return std::nullopt;
    return parts;
  }

  std::vector<std::string> sequence(const Group& group) const {
    const auto parts = *sequenceParts(text_.substr(group.open + 1, group.close - group.open - 1));
    long long step = 1;
    if (!parts.step.empty()) step = *parseInteger(parts.step);
    if (step < 0) step = -step; // bash: the direction comes from the bounds
    if (step == 0) step = 1;
    const bool letters = !isIntegerText(parts.from);
    const long long from = letters ? parts.from[0] : *parseInteger(parts.from);
    const long long to = letters ? parts.to[0] : *parseInteger(parts.to);
    // The count, computed without overflow before anything is made.
    const auto high = static_cast<unsigned long long>(std::max(from, to));
    const auto low = static_cast<unsigned long long>(std::min(from, to));
    const unsigned long long span = high - low; // modulo 2^64: exact for any two long longs
    const unsigned long long count = span / static_cast<unsigned long long>(step) + 1;
    if (count > kMaxBraceWords - std::min(kMaxBraceWords, budget_.words))
      throw LimitReached{"brace expansion makes more than " + std::to_string(kMaxBraceWords) + " words"};
    const std::size_t width = std::max(paddedWidth(parts.from), paddedWidth(parts.to));
    std::vector<std::string> out;
    long long value = from;
    for (unsigned long long n = 0; n < count; ++n) {
      if (letters) {
        out.emplace_back(1, static_cast<char>(value));
      } else {
        std::string digits = std::to_string(value < 0 ? 0ULL - static_cast<unsigned long long>(value)
                                                      : static_cast<unsigned long long>(value));
        const std::size_t sign = value < 0 ? 1 : 0;
        if (width > digits.size() + sign) digits.insert(0, width - digits.size() - sign, '0');
        out.push_back(value < 0 ? "-" + digits : digits);
      }
      if (n + 1 < count) value = from > to ? value - step : value + step;
    }
    return out;
  }

  /// The first valid group that starts in [from, to) (they nest, so it also ends there).
  const Group* firstGroup(std::size_t from, std::size_t to) const {
    auto found = std::lower_bound(groups_.begin(), groups_.end(), from,
                                  [](const Group& group, std::size_t at) { return group.open < at; });
    if (found == groups_.end() || found->open >= to) return nullptr;
    return &*found;
  }

  /// Every word [begin, end) of the text expands to.
  std::vector<std::string> expand(std::size_t begin, std::size_t end) {
    std::vector<std::string> words{std::string()};
    std::size_t bytes = 0;
    std::size_t at = begin;
    while (at < end) {
      const Group* group = firstGroup(at, end);
      const std::size_t plainEnd = group ? group->open : end;
      const std::string_view plain = text_.substr(at, plainEnd - at);
      if (!plain.empty()) {
        charge(words.size(), 1, bytes + words.size() * plain.size());
        for (auto& word : words) word += plain;
        bytes += words.size() * plain.size();
      }
      if (!group) break;
      std::vector<std::string> alternatives;
      if (group->commas.empty()) {
        alternatives = sequence(*group);
      } else {
        std::size_t start = group->open + 1;
        for (std::size_t k = 0; k <= group->commas.size(); ++k) {
          const std::size_t stop = k < group->commas.size() ? group->commas[k] : group->close;
          for (auto& word : expand(start, stop)) alternatives.push_back(std::move(word));
          charge(alternatives.size(), 1, 0);
          start = stop + 1;
        }
      }
      std::size_t alternativeBytes = 0;
      for (const auto& alternative : alternatives) alternativeBytes += alternative.size();
      const std::size_t productBytes = bytes * alternatives.size() + alternativeBytes * words.size();
      charge(words.size(), alternatives.size(), productBytes);
      std::vector<std::string> product;
      product.reserve(words.size() * alternatives.size());
      for (const auto& word : words)
        for (const auto& alternative : alternatives) product.push_back(word + alternative);
      words = std::move(product);
      bytes = productBytes;
      at = group->close + 1;
    }
    return words;
  }

  /// Refuses a list of `left` × `right` words and `bytes` bytes that would break the budget.
  void charge(std::size_t left, std::size_t right, std::size_t bytes) const {
    const std::size_t wordsLeft = kMaxBraceWords - std::min(kMaxBraceWords, budget_.words);
    if (right != 0 && left > wordsLeft / right)
      throw LimitReached{"brace expansion makes more than " + std::to_string(kMaxBraceWords) + " words"};
    if (bytes > kMaxBraceBytes - std::min(kMaxBraceBytes, budget_.bytes))
      throw LimitReached{"brace expansion makes more than " + std::to_string(kMaxBraceBytes) + " bytes"};
  }

  std::string_view text_;
  BraceBudget& budget_;
  std::vector<bool> active_;
  std::vector<Group> groups_; ///< valid groups only, by their `{`
};

} // namespace

BraceExpansion expandBraces(std::string_view text, const std::vector<std::size_t>& marks, BraceBudget& budget) {
  BraceExpansion result;
  if (marks.empty()) return result;
  try {
    Expander expander(text, marks, budget);
    if (!expander.anyGroup()) return result;
    result.words = expander.expandAll();
    result.expanded = true;
    for (const auto& word : result.words) budget.bytes += word.size();
    budget.words += result.words.size();
  } catch (const LimitReached& limit) {
    result = BraceExpansion{};
    result.problem = limit.problem;
  }
  return result;
}

} // namespace toold::builtins::shell_detail
