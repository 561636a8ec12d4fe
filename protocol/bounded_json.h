// JSON that toold did not write, taken in and shown back within bounds. nlohmann parses
// iteratively, but its copies, comparisons and `dump` recurse once per level of nesting, so a value
// nested 100,000 deep overflows the stack of whichever thread walks it first. Every text toold did
// not write is therefore parsed here, which refuses nesting deeper than a limit before anything
// is built, and turns every exception of the parse into a refusal; and every value a peer sent
// that is printed back (into an error text, a log line) is rendered by `dumpBounded`, which walks
// with its own stack and stops at a depth and a size.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace toold::protocol {

/// The deepest nesting of arrays and objects toold accepts in a frame or any other JSON text it
/// did not write: `[]` is one level, `[[]]` two. Deep enough for any real schema or answer;
/// shallow enough that every recursive walk of an accepted value stays far from a thread's stack.
inline constexpr std::size_t kMaxJsonDepth = 512;

/// Why a text was refused.
struct JsonRefusal {
  enum class Kind {
    Syntax,  ///< not JSON, or a number beyond double range: nlohmann's message, shortened
    TooDeep, ///< nested deeper than the limit; nothing was parsed
  };
  Kind kind;
  std::string message; ///< without a "Parse error: " prefix; at most a few hundred bytes
  std::optional<std::size_t> byte; ///< offset of the offending character (TooDeep: the first bracket too
                                   ///< deep); unknown for a number out of range
};

template <class Json>
struct BoundedParse {
  Json value;                          ///< null when refused
  std::optional<JsonRefusal> refusal;  ///< set when the text was refused
  explicit operator bool() const { return !refusal.has_value(); }
};

/// The nesting depth of a JSON text, found by a linear scan that skips strings (escapes included)
/// and stops as soon as `limit` is exceeded: then the result is `limit + 1` and `*tooDeepAt`
/// (if given) is the offset of the bracket that went past it. Exact for valid JSON; for invalid
/// text only an estimate, which the parse that follows refuses anyway.
std::size_t jsonNestingDepth(std::string_view text, std::size_t limit, std::size_t* tooDeepAt = nullptr);

/// Parses a JSON text toold did not write. Never throws (bar std::bad_alloc): a text nested deeper
/// than `maxDepth` is refused before it is parsed, and every parse exception (syntax errors,
/// numbers beyond double range) becomes a refusal.
BoundedParse<nlohmann::json> parseBounded(std::string_view text, std::size_t maxDepth = kMaxJsonDepth);
/// The same for an ordered_json (the config file, whose keys are reported in their order).
BoundedParse<nlohmann::ordered_json> parseBoundedOrdered(std::string_view text, std::size_t maxDepth = kMaxJsonDepth);

/// Limits of `dumpBounded`.
struct RenderLimits {
  std::size_t maxDepth = 32;        ///< containers nested deeper show as `[...]` / `{...}`
  std::size_t maxBytes = 16 * 1024; ///< the text is cut here (at a UTF-8 boundary) and marked
  int indent = -1;                  ///< as in `json::dump`: -1 compact, else spaces per level
};

/// For ids and values in log lines: a glance, not the whole.
inline constexpr RenderLimits kLogRender{.maxDepth = 8, .maxBytes = 256, .indent = -1};

/// Renders a value for people and models: like `dump` (invalid UTF-8 replaced, keys sorted), but
/// iterative, so any depth is safe, and bounded in depth and size. Not meant to be parsed back.
std::string dumpBounded(const nlohmann::json& value, const RenderLimits& limits = {});

} // namespace toold::protocol
