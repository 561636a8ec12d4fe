// Turning what a tool returned into the one canonical, model-facing representation: a non-empty
// array of content items, and metadata that is a small JSON object or nothing.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>

namespace toold::core {

using json = nlohmann::json;

inline constexpr std::size_t kMaxMetadataBytes = 16 * 1024;

/// Content a tool had no right to return (an item of unknown type, nothing at all): a defect.
struct ContentError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// `content` a string → one text item; a non-empty array of valid items → kept; absent or empty →
/// the encoded output as one text item (a string verbatim, other JSON compact). Throws
/// ContentError when there is neither, or an item is not {type:"text", text} or
/// {type:"file", uri, mime, name?}.
json normalizeContent(std::optional<json> content, const std::optional<json>& encodedOutput);

/// Why `metadata` cannot be kept (not an object, or larger than 16 KiB once encoded); empty when
/// it can. Metadata is a UI side channel: it is dropped with a warning, never fails a call.
std::string metadataProblem(const json& metadata);

/// A failed call's `partial`: the last progress update, with the failure's own metadata laid over
/// it (key by key when both are objects; else the metadata, else the progress).
std::optional<json> failurePartial(const std::optional<json>& lastProgress, const std::optional<json>& metadata);

} // namespace toold::core
