// HTML as webfetch shows it: Markdown for each construct, the visible text, tag soup read as a
// browser reads it, and pages nested too deeply refused before they are parsed.
#include "builtins/web/html_conversion.h"
#include "builtins/web/html_pieces.h"

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

TEST_CASE("html pieces: a large page is cut before blocks, rows inside tables, never inside raw text", "[html]") {
  std::string page = "<html><head><title>t</title></head><body><h1>Big</h1><table>";
  for (int i = 0; i < 40000; ++i)
    page += "<tr><td>cell " + std::to_string(i) + "</td><td>value " + std::to_string(i) + "</td></tr>";
  page += "</table><script>var s = '<p>not a cut</p>';</script><p>end</p></body></html>";
  const auto pieces = toold::builtins::htmlPieces(page);
  REQUIRE(pieces.size() >= 3);
  std::string joined;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    joined += std::string(pieces[i].html);
    CHECK(pieces[i].html.size() < 2 * toold::builtins::kHtmlPieceBytes);
    if (i > 0) {
      CHECK(pieces[i].prefix == "<table>");
      CHECK(pieces[i].html.substr(0, 4) == "<tr>");
    }
  }
  CHECK(joined == page); // nothing lost, nothing repeated

  // Converted a piece at a time, every row is still a table row.
  const auto markdown = toold::builtins::htmlToMarkdown(page);
  REQUIRE(markdown);
  for (int i : {0, 12345, 20000, 39999})
    CHECK_THAT(*markdown, Catch::Contains("| cell " + std::to_string(i) + " | value " + std::to_string(i) + " |"));
  CHECK_THAT(*markdown, Catch::Contains("# Big") && Catch::EndsWith("end"));
  CHECK_THAT(*markdown, !Catch::Contains("not a cut"));

  // A pre left open cannot make the whole page one piece again (its tags are parsed, at full cost).
  CHECK(toold::builtins::htmlPieces("<body><pre>" + page).size() >= 3);

  // Small pieces show the raw-text rule: the script is never split, whatever the size.
  std::string scripted = "<body>";
  for (int i = 0; i < 50; ++i) scripted += "<p>para " + std::to_string(i) + "</p>";
  scripted += "<script>" + std::string(3000, 'x') + "<p>inside</p></script><p>after</p></body>";
  for (const auto& piece : toold::builtins::htmlPieces(scripted, 256)) {
    const auto open = piece.html.rfind("<script>");
    if (open != std::string_view::npos) CHECK(piece.html.find("</script>", open) != std::string_view::npos);
  }
}
