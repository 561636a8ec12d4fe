// What webfetch makes of an HTML page: Markdown (headings, lists, links, images, emphasis, code
// blocks, block quotes, tables; scripts, styles and the head left out) or the visible text alone.
// Parsed by gumbo, a complete HTML5 parser, so tag soup reads as a browser would read it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace toold::builtins {

/// The page as Markdown: ATX headings, `-` bullets (`1.` numbered), `*` emphasis, `**` strong,
/// fenced code blocks (with the language of a `language-x` class), `---` rules, `> ` quotes,
/// pipe tables, `[text](href)` links and `![alt](src)` images. nullopt when the page is nested
/// too deeply to be parsed safely (see htmlTooDeep).
std::optional<std::string> htmlToMarkdown(std::string_view html);

/// The page's visible text: text outside script, style, noscript, iframe, object, embed and the
/// head, blocks on lines of their own, trimmed. nullopt as for htmlToMarkdown.
std::optional<std::string> htmlToText(std::string_view html);

/// True when an estimate of the element nesting of `html` exceeds what the parser's recursive
/// teardown can take on a worker's stack. Elements whose end tag HTML lets a page omit (p, li,
/// td, …) and void elements are not counted, so sloppy but ordinary pages pass.
bool htmlTooDeep(std::string_view html);

} // namespace toold::builtins
