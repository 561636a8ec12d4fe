#include "builtins/web/html_conversion.h"

#include "builtins/web/html_pieces.h"

#include <gumbo.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <memory>
#include <vector>

namespace toold::builtins {

namespace {

// gumbo frees its tree recursively; an estimate above this is refused before parsing.
constexpr int kMaxEstimatedDepth = 4000;
// The renderers below recurse too; deeper content is flattened to its text.
constexpr int kMaxRenderDepth = 256;

struct GumboDocument {
  explicit GumboDocument(std::string_view html)
      : output(gumbo_parse_with_options(&kGumboDefaultOptions, html.data(), html.size())) {}
  ~GumboDocument() { gumbo_destroy_output(&kGumboDefaultOptions, output); }
  GumboDocument(const GumboDocument&) = delete;
  GumboDocument& operator=(const GumboDocument&) = delete;
  GumboOutput* output;
};

bool isElement(const GumboNode* node) {
  return node->type == GUMBO_NODE_ELEMENT || node->type == GUMBO_NODE_TEMPLATE;
}

std::string_view attribute(const GumboNode* node, const char* name) {
  const GumboAttribute* a = gumbo_get_attribute(&node->v.element.attributes, name);
  return a != nullptr ? std::string_view(a->value) : std::string_view();
}

bool hidden(GumboTag tag) {
  switch (tag) {
  case GUMBO_TAG_SCRIPT: case GUMBO_TAG_STYLE: case GUMBO_TAG_NOSCRIPT: case GUMBO_TAG_IFRAME:
  case GUMBO_TAG_OBJECT: case GUMBO_TAG_EMBED: case GUMBO_TAG_HEAD: case GUMBO_TAG_TEMPLATE:
  case GUMBO_TAG_META: case GUMBO_TAG_LINK: case GUMBO_TAG_TITLE: case GUMBO_TAG_SVG:
    return true;
  default:
    return false;
  }
}

bool block(GumboTag tag) {
  switch (tag) {
  case GUMBO_TAG_P: case GUMBO_TAG_DIV: case GUMBO_TAG_SECTION: case GUMBO_TAG_ARTICLE:
  case GUMBO_TAG_HEADER: case GUMBO_TAG_FOOTER: case GUMBO_TAG_MAIN: case GUMBO_TAG_NAV:
  case GUMBO_TAG_ASIDE: case GUMBO_TAG_FIGURE: case GUMBO_TAG_FIGCAPTION: case GUMBO_TAG_FORM:
  case GUMBO_TAG_ADDRESS: case GUMBO_TAG_DL: case GUMBO_TAG_DT: case GUMBO_TAG_DD: case GUMBO_TAG_BODY:
  case GUMBO_TAG_H1: case GUMBO_TAG_H2: case GUMBO_TAG_H3: case GUMBO_TAG_H4: case GUMBO_TAG_H5:
  case GUMBO_TAG_H6: case GUMBO_TAG_UL: case GUMBO_TAG_OL: case GUMBO_TAG_LI: case GUMBO_TAG_PRE:
  case GUMBO_TAG_BLOCKQUOTE: case GUMBO_TAG_TABLE: case GUMBO_TAG_TR: case GUMBO_TAG_HR:
  case GUMBO_TAG_DETAILS: case GUMBO_TAG_SUMMARY:
    return true;
  default:
    return false;
  }
}

int headingLevel(GumboTag tag) {
  switch (tag) {
  case GUMBO_TAG_H1: return 1;
  case GUMBO_TAG_H2: return 2;
  case GUMBO_TAG_H3: return 3;
  case GUMBO_TAG_H4: return 4;
  case GUMBO_TAG_H5: return 5;
  case GUMBO_TAG_H6: return 6;
  default: return 0;
  }
}

bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

// Text flowing into `out`: runs of whitespace become one space, and none at a line's start or
// after a space already written.
void appendFlowing(std::string& out, std::string_view text) {
  for (char c : text) {
    if (space(c)) {
      if (out.empty() || out.back() == ' ' || out.back() == '\n') continue;
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
}

void breakLine(std::string& out) {
  while (!out.empty() && out.back() == ' ') out.pop_back();
  if (!out.empty() && out.back() != '\n') out.push_back('\n');
}

void breakBlock(std::string& out) {
  breakLine(out);
  if (!out.empty() && !out.ends_with("\n\n")) out.push_back('\n');
}

// Lines right-trimmed, runs of blank lines made one, blank lines at both ends removed.
std::string tidy(const std::string& text) {
  std::string result;
  std::size_t start = 0;
  bool blankPending = false;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);
    while (!line.empty() && space(line.back())) line.remove_suffix(1);
    if (line.empty()) {
      blankPending = !result.empty();
    } else {
      if (!result.empty()) result += blankPending ? "\n\n" : "\n";
      result.append(line);
      blankPending = false;
    }
    start = end + 1;
  }
  return result;
}

// The text under `root`, as written (line breaks for <br>); iterative, so any depth is fine.
void rawText(const GumboNode* root, std::string& out, int /*depth*/) {
  std::vector<const GumboNode*> stack{root};
  while (!stack.empty()) {
    const GumboNode* node = stack.back();
    stack.pop_back();
    if (node->type == GUMBO_NODE_TEXT || node->type == GUMBO_NODE_WHITESPACE || node->type == GUMBO_NODE_CDATA) {
      out += node->v.text.text;
      continue;
    }
    if (!isElement(node) || hidden(node->v.element.tag)) continue;
    if (node->v.element.tag == GUMBO_TAG_BR) out.push_back('\n');
    const GumboVector& children = node->v.element.children;
    for (unsigned i = children.length; i > 0; --i) stack.push_back(static_cast<const GumboNode*>(children.data[i - 1]));
  }
}

class MarkdownWriter {
public:
  std::string render(const GumboNode* root) {
    node(root, 0);
    return tidy(out_);
  }

private:
  std::string out_;
  int listDepth_ = 0;

  void children(const GumboNode* n, int depth) {
    const GumboVector& list = n->v.element.children;
    for (unsigned i = 0; i < list.length; ++i) node(static_cast<const GumboNode*>(list.data[i]), depth + 1);
  }

  // The inline rendering of `n` alone, as a string (link texts, cells, emphasis).
  std::string inlineOf(const GumboNode* n, int depth) {
    MarkdownWriter inner;
    inner.listDepth_ = listDepth_;
    inner.children(n, depth);
    std::string text = inner.out_;
    std::replace(text.begin(), text.end(), '\n', ' ');
    std::string collapsed;
    appendFlowing(collapsed, text);
    while (!collapsed.empty() && collapsed.back() == ' ') collapsed.pop_back();
    return collapsed;
  }

  void node(const GumboNode* n, int depth) {
    if (n->type == GUMBO_NODE_DOCUMENT) {
      const GumboVector& list = n->v.document.children;
      for (unsigned i = 0; i < list.length; ++i) node(static_cast<const GumboNode*>(list.data[i]), depth + 1);
      return;
    }
    if (n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_WHITESPACE || n->type == GUMBO_NODE_CDATA) {
      appendFlowing(out_, n->v.text.text);
      return;
    }
    if (!isElement(n)) return;
    const GumboTag tag = n->v.element.tag;
    if (hidden(tag)) return;
    if (depth > kMaxRenderDepth) {
      std::string text;
      rawText(n, text, 0);
      appendFlowing(out_, text);
      return;
    }
    if (int level = headingLevel(tag)) {
      breakBlock(out_);
      out_ += std::string(static_cast<std::size_t>(level), '#') + " " + inlineOf(n, depth);
      breakBlock(out_);
      return;
    }
    switch (tag) {
    case GUMBO_TAG_BR: breakLine(out_); return;
    case GUMBO_TAG_HR: breakBlock(out_); out_ += "---"; breakBlock(out_); return;
    case GUMBO_TAG_STRONG: case GUMBO_TAG_B: return wrap(n, depth, "**");
    case GUMBO_TAG_EM: case GUMBO_TAG_I: return wrap(n, depth, "*");
    case GUMBO_TAG_CODE: return inlineCode(n);
    case GUMBO_TAG_PRE: return codeBlock(n);
    case GUMBO_TAG_A: return link(n, depth);
    case GUMBO_TAG_IMG: return image(n);
    case GUMBO_TAG_UL: case GUMBO_TAG_OL: return list(n, depth, tag == GUMBO_TAG_OL);
    case GUMBO_TAG_BLOCKQUOTE: return quote(n, depth);
    case GUMBO_TAG_TABLE: return table(n, depth);
    default: break;
    }
    if (block(tag)) breakBlock(out_);
    children(n, depth);
    if (block(tag)) breakBlock(out_);
  }

  void wrap(const GumboNode* n, int depth, const char* mark) {
    const std::string text = inlineOf(n, depth);
    if (text.empty()) return;
    out_ += mark + text + mark;
  }

  void inlineCode(const GumboNode* n) {
    std::string text;
    rawText(n, text, 0);
    std::replace(text.begin(), text.end(), '\n', ' ');
    if (text.empty()) return;
    const char* fence = text.find('`') != std::string::npos ? "``" : "`";
    out_ += fence + text + fence;
  }

  void codeBlock(const GumboNode* n) {
    std::string language;
    const GumboVector& list = n->v.element.children;
    for (unsigned i = 0; i < list.length; ++i) {
      auto* child = static_cast<const GumboNode*>(list.data[i]);
      if (!isElement(child) || child->v.element.tag != GUMBO_TAG_CODE) continue;
      std::string_view cls = attribute(child, "class");
      for (std::string_view prefix : {"language-", "lang-"})
        if (auto at = cls.find(prefix); at != std::string_view::npos) {
          auto rest = cls.substr(at + prefix.size());
          language = std::string(rest.substr(0, rest.find(' ')));
          break;
        }
    }
    std::string text;
    rawText(n, text, 0);
    if (text.starts_with('\n')) text.erase(0, 1);
    while (text.ends_with('\n')) text.pop_back();
    const char* fence = text.find("```") != std::string::npos ? "~~~" : "```";
    breakBlock(out_);
    out_ += fence + language + "\n" + text + "\n" + fence;
    breakBlock(out_);
  }

  void link(const GumboNode* n, int depth) {
    const std::string text = inlineOf(n, depth);
    const std::string_view href = attribute(n, "href");
    if (href.empty() || href.starts_with("javascript:")) {
      appendFlowing(out_, text);
      return;
    }
    out_ += "[" + (text.empty() ? std::string(href) : text) + "](" + std::string(href) + ")";
  }

  void image(const GumboNode* n) {
    const std::string_view src = attribute(n, "src");
    if (src.empty() || src.starts_with("data:")) return;
    out_ += "![" + std::string(attribute(n, "alt")) + "](" + std::string(src) + ")";
  }

  void list(const GumboNode* n, int depth, bool numbered) {
    breakLine(out_);
    if (listDepth_ == 0) breakBlock(out_);
    const std::string indent(static_cast<std::size_t>(listDepth_) * 2, ' ');
    ++listDepth_;
    int number = 1;
    const GumboVector& items = n->v.element.children;
    for (unsigned i = 0; i < items.length; ++i) {
      auto* item = static_cast<const GumboNode*>(items.data[i]);
      if (!isElement(item) || item->v.element.tag != GUMBO_TAG_LI) continue;
      breakLine(out_);
      out_ += indent + (numbered ? std::to_string(number++) + ". " : std::string("- "));
      // The item rendered on its own: its blocks (paragraphs) stay under the item, indented.
      MarkdownWriter inner;
      inner.listDepth_ = listDepth_;
      inner.children(item, depth + 1);
      std::string tidied = tidy(inner.out_);
      std::string indented;
      for (std::size_t k = 0; k < tidied.size(); ++k) {
        indented.push_back(tidied[k]);
        // A paragraph's next line is indented under the item; a nested list brings its own.
        if (tidied[k] == '\n' && k + 1 < tidied.size() && tidied[k + 1] != '\n' && tidied[k + 1] != ' ')
          indented += indent + "  ";
      }
      out_ += indented;
    }
    --listDepth_;
    breakLine(out_);
    if (listDepth_ == 0) breakBlock(out_);
  }

  void quote(const GumboNode* n, int depth) {
    MarkdownWriter inner;
    inner.children(n, depth);
    const std::string body = tidy(inner.out_);
    breakBlock(out_);
    std::size_t start = 0;
    while (start <= body.size()) {
      std::size_t end = body.find('\n', start);
      if (end == std::string::npos) end = body.size();
      out_ += end > start ? "> " + body.substr(start, end - start) + "\n" : ">\n";
      start = end + 1;
    }
    breakBlock(out_);
  }

  void collectRows(const GumboNode* n, std::vector<const GumboNode*>& rows, int depth) {
    if (!isElement(n) || depth > 4) return;
    const GumboVector& list = n->v.element.children;
    for (unsigned i = 0; i < list.length; ++i) {
      auto* child = static_cast<const GumboNode*>(list.data[i]);
      if (!isElement(child)) continue;
      if (child->v.element.tag == GUMBO_TAG_TR) rows.push_back(child);
      else if (child->v.element.tag == GUMBO_TAG_THEAD || child->v.element.tag == GUMBO_TAG_TBODY ||
               child->v.element.tag == GUMBO_TAG_TFOOT)
        collectRows(child, rows, depth + 1);
    }
  }

  void table(const GumboNode* n, int depth) {
    std::vector<const GumboNode*> rows;
    collectRows(n, rows, 0);
    std::vector<std::vector<std::string>> cells;
    std::size_t width = 0;
    for (const GumboNode* row : rows) {
      std::vector<std::string> line;
      const GumboVector& list = row->v.element.children;
      for (unsigned i = 0; i < list.length; ++i) {
        auto* cell = static_cast<const GumboNode*>(list.data[i]);
        if (!isElement(cell) || (cell->v.element.tag != GUMBO_TAG_TD && cell->v.element.tag != GUMBO_TAG_TH)) continue;
        std::string text = inlineOf(cell, depth + 2);
        std::string escaped;
        for (char c : text) {
          if (c == '|') escaped += "\\|";
          else escaped.push_back(c);
        }
        line.push_back(std::move(escaped));
      }
      width = std::max(width, line.size());
      cells.push_back(std::move(line));
    }
    if (width == 0) return;
    breakBlock(out_);
    for (std::size_t r = 0; r < cells.size(); ++r) {
      cells[r].resize(width);
      out_ += "|";
      for (const auto& cell : cells[r]) out_ += " " + cell + " |";
      out_ += "\n";
      if (r == 0) {
        out_ += "|";
        for (std::size_t c = 0; c < width; ++c) out_ += " --- |";
        out_ += "\n";
      }
    }
    breakBlock(out_);
  }
};

void visibleText(const GumboNode* n, std::string& out, int depth) {
  if (n->type == GUMBO_NODE_DOCUMENT) {
    const GumboVector& list = n->v.document.children;
    for (unsigned i = 0; i < list.length; ++i) visibleText(static_cast<const GumboNode*>(list.data[i]), out, depth + 1);
    return;
  }
  if (n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_WHITESPACE || n->type == GUMBO_NODE_CDATA) {
    appendFlowing(out, n->v.text.text);
    return;
  }
  if (!isElement(n) || hidden(n->v.element.tag)) return;
  const GumboTag tag = n->v.element.tag;
  const bool isBlock = block(tag) || tag == GUMBO_TAG_BR || tag == GUMBO_TAG_TD || tag == GUMBO_TAG_TH;
  if (isBlock) breakLine(out);
  if (depth > kMaxRenderDepth) {
    std::string text;
    rawText(n, text, 0);
    appendFlowing(out, text);
  } else {
    const GumboVector& list = n->v.element.children;
    for (unsigned i = 0; i < list.length; ++i) visibleText(static_cast<const GumboNode*>(list.data[i]), out, depth + 1);
  }
  if (isBlock) breakLine(out);
}

// Elements that never hold others, or whose end tag a page may leave out: not counted.
bool uncounted(std::string_view name) {
  static constexpr std::array kNames{"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                                     "param", "source", "track", "wbr", "p", "li", "td", "th", "tr", "option",
                                     "dt", "dd", "thead", "tbody", "tfoot", "colgroup", "rt", "rp", "optgroup",
                                     "html", "head", "body", "!doctype"};
  for (std::string_view n : kNames)
    if (n == name) return true;
  return false;
}

} // namespace

bool htmlTooDeep(std::string_view html) {
  int depth = 0;
  for (std::size_t i = 0; i + 1 < html.size(); ++i) {
    if (html[i] != '<') continue;
    const bool closing = html[i + 1] == '/';
    std::size_t start = i + (closing ? 2 : 1);
    std::size_t end = start;
    while (end < html.size() && (std::isalnum(static_cast<unsigned char>(html[end])) || html[end] == '!')) ++end;
    if (end == start) continue;
    std::string name(html.substr(start, end - start));
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    if (uncounted(name)) continue;
    const std::size_t close = html.find('>', end);
    const bool selfClosing = close != std::string_view::npos && close > 0 && html[close - 1] == '/';
    if (closing) depth = std::max(0, depth - 1);
    else if (!selfClosing && ++depth > kMaxEstimatedDepth) return true;
  }
  return false;
}

namespace {

// `render` of each piece of the page (html_pieces.h), joined by a blank line: one piece's tree at a
// time.
template <class Render>
std::string byPieces(std::string_view html, Render render) {
  const std::vector<HtmlPiece> pieces = htmlPieces(html);
  if (pieces.size() == 1) {
    GumboDocument document(html);
    return render(document.output->document);
  }
  std::string joined;
  for (const HtmlPiece& piece : pieces) {
    std::string part;
    {
      std::string text = piece.prefix;
      text += piece.html;
      GumboDocument document(text);
      part = render(document.output->document);
    }
    if (part.empty()) continue;
    if (!joined.empty()) joined += "\n\n";
    joined += part;
  }
  return joined;
}

} // namespace

std::optional<std::string> htmlToMarkdown(std::string_view html) {
  if (htmlTooDeep(html)) return std::nullopt;
  return byPieces(html, [](const GumboNode* root) { return MarkdownWriter().render(root); });
}

std::optional<std::string> htmlToText(std::string_view html) {
  if (htmlTooDeep(html)) return std::nullopt;
  return byPieces(html, [](const GumboNode* root) {
    std::string text;
    visibleText(root, text, 0);
    return tidy(text);
  });
}

} // namespace toold::builtins

// The module's entry points (core/net/web_module.h), forwarded to by html_module_calls.cpp in toold.
extern "C" __attribute__((visibility("default"))) void toold_html_to_markdown(std::string_view html,
                                                                               std::optional<std::string>& out) {
  out = toold::builtins::htmlToMarkdown(html);
}
extern "C" __attribute__((visibility("default"))) void toold_html_to_text(std::string_view html,
                                                                           std::optional<std::string>& out) {
  out = toold::builtins::htmlToText(html);
}
extern "C" __attribute__((visibility("default"))) bool toold_html_too_deep(std::string_view html) {
  return toold::builtins::htmlTooDeep(html);
}
