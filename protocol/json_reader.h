// A fast parser for the JSON toold reads most: well-formed frames and values. nlohmann's parser
// reads a character at a time through its lexer's token buffer, and was a third of a ping's
// instructions. This one reads valid JSON into the same nlohmann::json value nlohmann would build
// (integers signed or unsigned as nlohmann types them, the last of duplicate keys kept) and gives
// up on anything else — invalid text, a number beyond double range, a byte-order mark, nesting
// past the limit — so that the caller falls back to nlohmann, whose refusals keep their words.
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
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

/// The members of `text` when it is one JSON object that parseJsonFast would read, each into its
/// own value, without building the object around them (a frame's envelope is read and taken
/// apart at once, so its map was built only to be emptied). A later duplicate key replaces the
/// earlier one, as in the object parseJsonFast builds. Nothing otherwise: not an object, an
/// object of more than 16 members (each key is compared with those before it), or anything
/// parseJsonFast gives up on.
std::optional<JsonMembers> parseObjectMembersFast(std::string_view text, std::size_t maxDepth);

} // namespace toold::protocol
