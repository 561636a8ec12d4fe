// Typographic punctuation that models and word processors substitute for ASCII: folding it lets a
// loose match see `“quoted”` and `"quoted"` as the same text.
#pragma once

#include <string>
#include <string_view>

namespace toold::builtins {

/// `text` with curly single quotes (U+2018–201B) and primes (U+2032) as `'`, curly double quotes
/// (U+201C–201F) and U+2033 as `"`, the dashes U+2010–2015 and the minus U+2212 as `-`, the
/// ellipsis U+2026 as `...`, NBSP and the odd spaces (U+2002–200A, U+202F, U+205F, U+3000) as a
/// plain space, the arrows → ← ↔ ⇒ as `->`, `<-`, `<->`, `=>`, ≤ ≥ ≠ as `<=`, `>=`, `!=`, and the
/// zero-width characters (U+200B–200D, U+2060, the byte-order mark U+FEFF) removed. A run of
/// dashes, typographic or ASCII, becomes one `-`, so that `—` and `--` (how an em dash is typed)
/// fold alike. Everything else is copied unchanged. Folding goes both ways: the file or the
/// model's text may be the typographic one.
std::string foldPunctuation(std::string_view text);

} // namespace toold::builtins
