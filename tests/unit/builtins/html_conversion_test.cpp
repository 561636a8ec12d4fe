// HTML as webfetch shows it: Markdown for each construct, the visible text, tag soup read as a
// browser reads it, and pages nested too deeply refused before they are parsed.
#include "builtins/web/html_conversion.h"

#include <catch2/catch.hpp>

#include <string>

using toold::builtins::htmlToMarkdown;
using toold::builtins::htmlToText;
using toold::builtins::htmlTooDeep;

TEST_CASE("html to markdown: headings, emphasis, links, images", "[html]") {
  CHECK(htmlToMarkdown("<h2>Sub <i>title</i></h2><p>a <strong>b</strong> <a href='/x'>c</a> <img src='y.png' alt='d'></p>") ==
        "## Sub *title*\n\na **b** [c](/x) ![d](y.png)");
  CHECK(htmlToMarkdown("<p><a href='javascript:void(0)'>js</a> <a>bare</a></p>") == "js bare");
}

TEST_CASE("html to markdown: lists nest, numbered lists count, paragraphs in items indent", "[html]") {
  CHECK(htmlToMarkdown("<ul><li>a<ul><li>b<ol><li>c</li><li>d</li></ol></li></ul></li><li>e</li></ul>") ==
        "- a\n  - b\n    1. c\n    2. d\n- e");
  CHECK(htmlToMarkdown("<ul><li><p>one</p><p>two</p></li></ul>") == "- one\n\n  two");
}

TEST_CASE("html to markdown: code, quotes, rules and tables", "[html]") {
  CHECK(htmlToMarkdown("<pre><code class='hljs language-py'>x = 1\n\nprint(x)\n</code></pre>") ==
        "```py\nx = 1\n\nprint(x)\n```");
  CHECK(htmlToMarkdown("<pre>a ``` b</pre>") == "~~~\na ``` b\n~~~");
  CHECK(htmlToMarkdown("<p>run <code>a`b</code></p>") == "run ``a`b``");
  CHECK(htmlToMarkdown("<blockquote><p>x</p><p>y</p></blockquote><hr>") == "> x\n>\n> y\n\n---");
  CHECK(htmlToMarkdown("<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>") ==
        "| a | b |\n| --- | --- |\n| 1 |  |");
}

TEST_CASE("html to markdown: what is not shown, and tag soup", "[html]") {
  CHECK(htmlToMarkdown("<html><head><title>T</title><script>x()</script><style>p{}</style></head>"
                       "<body><noscript>n</noscript><p>shown<p>too</body>") == "shown\n\ntoo");
  CHECK(htmlToMarkdown("") == "");
}

TEST_CASE("html to text: visible text only, blocks on lines", "[html]") {
  CHECK(htmlToText("<head><title>T</title></head><body><h1>A</h1><p>b  <b>c</b>\n d</p><script>e</script>"
                   "<iframe>f</iframe><table><tr><td>g</td><td>h</td></tr></table></body>") ==
        "A\nb c d\ng\nh");
}

TEST_CASE("html nested too deeply is refused before parsing, ordinary sloppiness is not", "[html]") {
  std::string deep;
  for (int i = 0; i < 5000; ++i) deep += "<div>";
  CHECK(htmlTooDeep(deep));
  CHECK_FALSE(htmlToMarkdown(deep));
  CHECK_FALSE(htmlToText(deep));
  std::string sloppy;
  for (int i = 0; i < 20000; ++i) sloppy += "<p>para<li>item<br><img src=x>";
  CHECK_FALSE(htmlTooDeep(sloppy));
  std::string closed;
  for (int i = 0; i < 20000; ++i) closed += "<div><span>x</span></div>";
  CHECK_FALSE(htmlTooDeep(closed));
  // Deep, but not past the estimate: converted, with the deepest text kept.
  std::string nested;
  for (int i = 0; i < 1000; ++i) nested += "<span>";
  nested += "core";
  auto markdown = htmlToMarkdown(nested);
  REQUIRE(markdown);
  CHECK(*markdown == "core");
}
