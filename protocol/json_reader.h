// A fast parser for the JSON toold reads most: well-formed frames and values. nlohmann's parser
// reads a character at a time through its lexer's token buffer, and was a third of a ping's
// instructions. This one reads valid JSON into the same nlohmann::json value nlohmann would build
// (integers signed or unsigned as nlohmann types them, the last of duplicate keys kept) and gives
// up on anything else — invalid text, a number beyond double range, a byte-order mark, nesting
// past the limit — so that the caller falls back to nlohmann, whose refusals keep their words.
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toold::protocol {

/// The value of `text` when it is one valid JSON value nested at most `maxDepth` deep (surrounded
/// by whitespace at most); nothing otherwise, without saying why.
std::optional<nlohmann::json> parseJsonFast(std::string_view text, std::size_t maxDepth);

/// An object's members, in the order they came.
using JsonMembers = std::vector<std::pair<std::string, nlohmann::json>>;

/// A request's params left as text: read in a form of their own by a method that would otherwise
/// build a tree of the whole record only to take it apart (`register`: a tool at a time).
struct DeferredParams {
  /// Whether the params of `method` are wanted as text (the method read before them; empty when
  /// none was, or it is not a string).
  std::function<bool(std::string_view method)> wanted;
  /// Set by parseObjectMembersFast when the frame's last `params` member is an object that came
  /// after a wanted `method`: that object's text, checked as parseJsonFast checks (it would read
  /// it, nested at most maxDepth - 1 deep), and the member itself an empty object in its place.
  /// Empty otherwise (the params then read as usual). Views the frame's text.
  std::string_view text;
};

/// The members of `text` when it is one JSON object that parseJsonFast would read, each into its
/// own value, without building the object around them (a frame's envelope is read and taken
/// apart at once, so its map was built only to be emptied). A later duplicate key replaces the
/// earlier one, as in the object parseJsonFast builds. Nothing otherwise: not an object, an
/// object of more than 16 members (each key is compared with those before it), or anything
/// parseJsonFast gives up on. With `deferred`, its params may be left as text (see DeferredParams).
std::optional<JsonMembers> parseObjectMembersFast(std::string_view text, std::size_t maxDepth,
                                                  DeferredParams* deferred = nullptr);

/// Hands `each` the key and the value's text of every member of `text`, in order, when `text` is
/// one JSON object that parseJsonFast would read: false, having handed on the members before the
/// problem, when it is not. Nothing is built but the keys: a member's value is read when and as
/// `each` likes (`register` parses one tool at a time). What `each` throws goes through.
bool forEachMemberText(std::string_view text, std::size_t maxDepth,
                       const std::function<void(std::string&& key, std::string_view value)>& each);
} // namespace toold::protocol
