// Bounded parsing and rendering. The depth scan counts brackets, the parse is nlohmann's
// (iterative) after the scan, and the renderer keeps its own stack. toold's fast reader of valid
// JSON does recurse, once per level, so it is used only within kMaxJsonDepth levels (a few hundred
// bytes of stack each), and stops past the limit before going deeper.
#include "protocol/bounded_json.h"

#include "protocol/json_reader.h"

#include <vector>

namespace toold::protocol {
namespace {

using nlohmann::json;

// An error text quotes the token it failed on, and a token can be a 100,000-digit number or a
// megabyte string; the message keeps its head.
constexpr std::size_t kMaxMessageBytes = 300;

// Cuts `text` to at most `bytes`, never inside a UTF-8 sequence.
void cutAtCharBoundary(std::string& text, std::size_t bytes) {
  if (text.size() <= bytes) return;
  std::size_t cut = bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  text.resize(cut);
}

std::string shortenedMessage(const std::exception& e) {
  // nlohmann prefixes "[json.exception.parse_error.101] "; the rest says where and why.
  std::string what = e.what();
  if (auto end = what.find("] "); what.starts_with("[json.exception") && end != std::string::npos)
    what.erase(0, end + 2);
  if (what.size() > kMaxMessageBytes) {
    cutAtCharBoundary(what, kMaxMessageBytes);
    what += "...";
  }
  return what;
}

template <class Json>
BoundedParse<Json> parseWithin(std::string_view text, std::size_t maxDepth) {
  std::size_t tooDeepAt = 0;
  if (jsonNestingDepth(text, maxDepth, &tooDeepAt) > maxDepth)
    return {Json(), JsonRefusal{JsonRefusal::Kind::TooDeep,
                                "nested deeper than " + std::to_string(maxDepth) + " levels (at byte " +
                                    std::to_string(tooDeepAt) + ")",
                                tooDeepAt}};
  // nlohmann takes a NUL byte for the end of the input, and would accept `1\0garbage` as 1. No
  // JSON text holds a raw NUL (in strings it must be escaped), so one anywhere refuses the text.
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos)
    return {Json(), JsonRefusal{JsonRefusal::Kind::Syntax,
                                "parse error at byte " + std::to_string(nul) + ": a NUL byte is not JSON", nul}};
  try {
    return {Json::parse(text.begin(), text.end()), std::nullopt};
  } catch (const nlohmann::json::parse_error& e) {
    return {Json(), JsonRefusal{JsonRefusal::Kind::Syntax, shortenedMessage(e), e.byte == 0 ? 0 : e.byte - 1}};
  } catch (const nlohmann::json::exception& e) {
    // out_of_range.406: a number beyond double range. nlohmann raises it without a position.
    return {Json(), JsonRefusal{JsonRefusal::Kind::Syntax, shortenedMessage(e), std::nullopt}};
  }
}

/// The renderer's state: the text so far and the open containers, innermost last.
class BoundedRenderer {
public:
  explicit BoundedRenderer(const RenderLimits& limits) : limits_(limits) {}

  std::string render(const json& root) {
    emit(root);
    while (!open_.empty() && !full()) step();
    if (full()) {
      cutAtCharBoundary(out_, limits_.maxBytes);
      out_ += " ...(cut at " + std::to_string(limits_.maxBytes) + " bytes)";
    }
    return std::move(out_);
  }

private:
  struct Open {
    const json* container;
    json::const_iterator next;
    bool first = true;
  };

  bool full() const { return out_.size() > limits_.maxBytes; }

  void newline(std::size_t level) {
    if (limits_.indent < 0) return;
    out_ += '\n';
    out_.append(level * static_cast<std::size_t>(limits_.indent), ' ');
  }

  void emitScalar(const json& value) {
    if (value.is_string()) {
      // A string longer than the room left is cut before it is escaped, not after.
      const auto& text = value.get_ref<const json::string_t&>();
      const std::size_t room = limits_.maxBytes - std::min(limits_.maxBytes, out_.size()) + 1;
      if (text.size() > room) {
        out_ += json(text.substr(0, room)).dump(-1, ' ', false, json::error_handler_t::replace);
        return;
      }
    }
    out_ += value.dump(-1, ' ', false, json::error_handler_t::replace);
  }

  // Writes a value, or opens it: a container's members are written by later steps.
  void emit(const json& value) {
    if (!value.is_structured()) return emitScalar(value);
    const bool array = value.is_array();
    if (value.empty()) {
      out_ += array ? "[]" : "{}";
    } else if (open_.size() >= limits_.maxDepth) {
      out_ += array ? "[...]" : "{...}";
    } else {
      out_ += array ? '[' : '{';
      open_.push_back(Open{&value, value.cbegin()});
    }
  }

  // Writes the next member of the innermost open container, or closes it.
  void step() {
    Open& top = open_.back();
    if (top.next == top.container->cend()) {
      const bool array = top.container->is_array();
      open_.pop_back();
      newline(open_.size());
      out_ += array ? ']' : '}';
      return;
    }
    if (!top.first) out_ += ',';
    top.first = false;
    newline(open_.size());
    if (top.container->is_object()) {
      out_ += json(top.next.key()).dump(-1, ' ', false, json::error_handler_t::replace);
      out_ += limits_.indent < 0 ? ":" : ": ";
    }
    const json& member = *top.next;
    ++top.next; // before emit, which may grow open_ and move `top`
    emit(member);
  }

  RenderLimits limits_;
  std::string out_;
  std::vector<Open> open_;
};

} // namespace

std::size_t jsonNestingDepth(std::string_view text, std::size_t limit, std::size_t* tooDeepAt) {
  std::size_t depth = 0;
  std::size_t deepest = 0;
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\') ++i; // the escaped character, a quote included, does not end the string
      else if (c == '"') inString = false;
      continue;
    }
    switch (c) {
    case '"': inString = true; break;
    case '[':
    case '{':
      if (++depth > limit) {
        if (tooDeepAt != nullptr) *tooDeepAt = i;
        return limit + 1;
      }
      deepest = std::max(deepest, depth);
      break;
    case ']':
    case '}':
      if (depth > 0) --depth;
      break;
    default: break;
    }
  }
  return deepest;
}

BoundedParse<nlohmann::json> parseBounded(std::string_view text, std::size_t maxDepth) {
  // Valid JSON goes through toold's own reader; anything it gives up on goes to nlohmann, so a
  // refusal reads as it always has.
  if (maxDepth <= kMaxJsonDepth) {
    if (auto fast = parseJsonFast(text, maxDepth)) return {std::move(*fast), std::nullopt};
  }
  return parseWithin<nlohmann::json>(text, maxDepth);
}

BoundedParse<nlohmann::ordered_json> parseBoundedOrdered(std::string_view text, std::size_t maxDepth) {
  return parseWithin<nlohmann::ordered_json>(text, maxDepth);
}

std::string dumpBounded(const nlohmann::json& value, const RenderLimits& limits) {
  return BoundedRenderer(limits).render(value);
}

} // namespace toold::protocol
