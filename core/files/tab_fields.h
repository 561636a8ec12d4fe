// The line format of toold's own record files (the change journal, checkpoint records): fields
// separated by tabs, one record a line, each field byte for byte except `%`, tab and newline,
// which are written `%25`, `%09` and `%0A` — so any path, however odd, is one field.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toold::core {

/// `text` as one field: `%`, tab and newline escaped.
std::string escapeField(std::string_view text);

/// The field's bytes; nullopt for an escape other than the three above, or one cut short.
std::optional<std::string> unescapeField(std::string_view field);

/// A line's fields, split at every tab (an empty line is one empty field).
std::vector<std::string_view> splitTabFields(std::string_view line);

} // namespace toold::core
