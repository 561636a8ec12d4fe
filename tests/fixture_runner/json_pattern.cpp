// The matcher: one recursive walk, with the JSON path carried along for the mismatch message.
#include "json_pattern.h"

#include "regex.h"

#include <string_view>

namespace toold::fixture {
namespace {

constexpr std::string_view kAny = "$any";
constexpr std::string_view kAbsent = "$absent";
constexpr std::string_view kRegex = "$re:";
constexpr std::string_view kCapture = "$capture:";
constexpr std::string_view kExact = "$exact";
constexpr std::size_t kShownChars = 200;

std::string shown(const json& value) {
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > kShownChars) text = text.substr(0, kShownChars) + "...";
  return text;
}

std::string where(const std::string& path) { return path.empty() ? "at the top level" : "at " + path; }

std::string memberPath(const std::string& path, const std::string& key) {
  bool plain = isCaptureName(key) || (!key.empty() && key.find_first_of(".[]\"' ") == std::string::npos);
  if (plain) return path.empty() ? key : path + "." + key;
  return path + "[" + json(key).dump() + "]";
}

std::string elementPath(const std::string& path, std::size_t index) { return path + "[" + std::to_string(index) + "]"; }

bool isExactForm(const json& pattern) { return pattern.is_object() && pattern.contains(kExact); }

/// A string pattern that starts like a special form but is none: most likely a typo of one.
bool looksLikeUnknownForm(std::string_view text) {
  return text.size() > 1 && text.front() == '$' && text[1] >= 'a' && text[1] <= 'z' && text != kAny &&
         text != kAbsent && !text.starts_with(kRegex) && !text.starts_with(kCapture);
}

void validate(const json& pattern, const std::string& path, bool isMemberValue) {
  if (pattern.is_string()) {
    const auto& text = pattern.get_ref<const std::string&>();
    if (text == kAbsent && !isMemberValue)
      throw PatternError(where(path) + ": \"$absent\" is only meaningful as the value of an object member");
    if (text.starts_with(kRegex)) {
      try {
        Regex check(std::string_view(text).substr(kRegex.size()));
      } catch (const RegexError& e) {
        throw PatternError(where(path) + ": " + e.what());
      }
    } else if (text.starts_with(kCapture)) {
      if (!isCaptureName(std::string_view(text).substr(kCapture.size())))
        throw PatternError(where(path) + ": \"" + text + "\": a capture name is a letter or _ then letters, digits, _");
    } else if (looksLikeUnknownForm(text)) {
      throw PatternError(where(path) + ": unknown pattern form \"" + text +
                         "\" (known: $any, $absent, $re:REGEX, $capture:NAME, ${NAME}); to match it literally "
                         "write \"$re:^\\\\" +
                         text + "$\"");
    }
    return;
  }
  if (isExactForm(pattern)) {
    if (pattern.size() != 1)
      throw PatternError(where(path) + ": \"$exact\" must be the only key of its object: {\"$exact\": {...}}");
    const json& inner = pattern.at(std::string(kExact));
    if (!inner.is_object()) throw PatternError(where(path) + ": the value of \"$exact\" must be an object");
    for (const auto& [key, value] : inner.items()) validate(value, memberPath(path, key), true);
    return;
  }
  if (pattern.is_object()) {
    for (const auto& [key, value] : pattern.items()) validate(value, memberPath(path, key), true);
  } else if (pattern.is_array()) {
    for (std::size_t i = 0; i < pattern.size(); ++i) validate(pattern[i], elementPath(path, i), false);
  }
}

void collectCaptures(const json& pattern, std::set<std::string>& names) {
  if (pattern.is_string()) {
    const auto& text = pattern.get_ref<const std::string&>();
    if (text.starts_with(kCapture)) names.insert(text.substr(kCapture.size()));
  } else if (pattern.is_structured()) {
    for (const auto& element : pattern) collectCaptures(element, names);
  }
}

const char* kindOf(const json& value) {
  switch (value.type()) {
  case json::value_t::object: return "an object";
  case json::value_t::array: return "an array";
  case json::value_t::string: return "a string";
  case json::value_t::boolean: return "a boolean";
  case json::value_t::null: return "null";
  case json::value_t::number_float: return "a fractional number";
  case json::value_t::number_integer:
  case json::value_t::number_unsigned: return "an integer";
  default: return "an unusual value";
  }
}

class Matcher {
public:
  explicit Matcher(Captures& captures) : captures_(captures) {}

  bool match(const json& pattern, const json& actual, const std::string& path) {
    if (pattern.is_string()) return matchString(pattern.get_ref<const std::string&>(), actual, path);
    if (isExactForm(pattern)) return matchObject(pattern.at(std::string(kExact)), actual, path, true);
    if (pattern.is_object()) return matchObject(pattern, actual, path, false);
    if (pattern.is_array()) return matchArray(pattern, actual, path);
    if (strictlyEqual(pattern, actual)) return true;
    return fail(path, "expected " + shown(pattern) + ", got " + shown(actual));
  }

  const std::string& mismatch() const { return mismatch_; }

private:
  bool fail(const std::string& path, const std::string& why) {
    mismatch_ = where(path) + ": " + why;
    return false;
  }

  bool matchString(const std::string& pattern, const json& actual, const std::string& path) {
    if (pattern == kAny) return true;
    if (pattern == kAbsent) return fail(path, "expected no value here, got " + shown(actual));
    if (pattern.starts_with(kCapture)) {
      captures_[pattern.substr(kCapture.size())] = actual;
      return true;
    }
    if (pattern.starts_with(kRegex)) {
      if (!actual.is_string())
        return fail(path, "expected a string matching /" + pattern.substr(kRegex.size()) + "/, got " + shown(actual));
      if (Regex(std::string_view(pattern).substr(kRegex.size())).search(actual.get_ref<const std::string&>()))
        return true;
      return fail(path, shown(actual) + " does not match /" + pattern.substr(kRegex.size()) + "/");
    }
    if (auto name = wholeReference(pattern)) {
      auto it = captures_.find(*name);
      if (it == captures_.end()) return fail(path, "${" + *name + "} is not captured yet");
      if (strictlyEqual(it->second, actual)) return true;
      return fail(path, "expected ${" + *name + "} = " + shown(it->second) + ", got " + shown(actual));
    }
    std::string expected;
    try {
      expected = interpolate(pattern, captures_);
    } catch (const std::runtime_error& e) {
      return fail(path, e.what());
    }
    if (actual.is_string() && actual.get_ref<const std::string&>() == expected) return true;
    return fail(path, "expected " + shown(json(expected)) + ", got " + shown(actual));
  }

  bool matchObject(const json& pattern, const json& actual, const std::string& path, bool exact) {
    if (!actual.is_object())
      return fail(path, std::string("expected an object, got ") + kindOf(actual) + ": " + shown(actual));
    for (const auto& [key, value] : pattern.items()) {
      const bool wantAbsent = value.is_string() && value.get_ref<const std::string&>() == kAbsent;
      auto it = actual.find(key);
      if (wantAbsent) {
        if (it != actual.end()) return fail(memberPath(path, key), "expected no such key, got " + shown(*it));
        continue;
      }
      if (it == actual.end()) return fail(memberPath(path, key), "the key is missing");
      if (!match(value, *it, memberPath(path, key))) return false;
    }
    if (exact) {
      for (const auto& [key, value] : actual.items()) {
        if (!pattern.contains(key))
          return fail(memberPath(path, key), "unexpected key (the pattern is $exact), value " + shown(value));
      }
    }
    return true;
  }

  bool matchArray(const json& pattern, const json& actual, const std::string& path) {
    if (!actual.is_array())
      return fail(path, std::string("expected an array, got ") + kindOf(actual) + ": " + shown(actual));
    if (actual.size() != pattern.size()) {
      return fail(path, "expected an array of " + std::to_string(pattern.size()) + " elements, got " +
                            std::to_string(actual.size()) + ": " + shown(actual));
    }
    for (std::size_t i = 0; i < pattern.size(); ++i)
      if (!match(pattern[i], actual[i], elementPath(path, i))) return false;
    return true;
  }

  Captures& captures_;
  std::string mismatch_;
};

} // namespace

void validatePattern(const json& pattern) { validate(pattern, "", false); }

std::set<std::string> capturedNames(const json& pattern) {
  std::set<std::string> names;
  collectCaptures(pattern, names);
  return names;
}

bool strictlyEqual(const json& a, const json& b) {
  if (a.is_number() && b.is_number()) return a.is_number_float() == b.is_number_float() && a == b;
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (const auto& [key, value] : a.items()) {
      auto it = b.find(key);
      if (it == b.end() || !strictlyEqual(value, *it)) return false;
    }
    return true;
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!strictlyEqual(a[i], b[i])) return false;
    return true;
  }
  return a == b;
}

MatchResult matchPattern(const json& pattern, const json& actual, Captures& captures) {
  // Captures go to a scratch copy first: a half-matched pattern must not leave values behind.
  Captures scratch = captures;
  Matcher matcher(scratch);
  if (!matcher.match(pattern, actual, "")) return {false, matcher.mismatch()};
  captures = std::move(scratch);
  return {true, {}};
}

} // namespace toold::fixture
