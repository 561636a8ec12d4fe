// file:// URIs to paths and back, as language servers and VS Code write them.
#include "core/lsp/lsp_uri.h"

#include <catch2/catch.hpp>

#include <string>

using toold::core::fileUriFromPath;
using toold::core::pathFromFileUri;

TEST_CASE("lsp uri: paths with spaces, percent signs and unicode survive the round trip", "[lsp]") {
  for (std::string path : {"/ws/src/a.cpp", "/ws/a b/c d.py", "/ws/100%/x%20y", "/ws/caf\xc3\xa9/\xe6\x97\xa5.ts",
                           "/ws/a+b=c&d#e?f", "/ws/[x]/{y}/'z'", "/"}) {
    auto uri = fileUriFromPath(path);
    INFO(uri);
    auto back = pathFromFileUri(uri);
    REQUIRE(back);
    CHECK(back->string() == path);
  }
}

TEST_CASE("lsp uri: encoding keeps unreserved bytes and slashes, and encodes the rest in upper-case hex", "[lsp]") {
  CHECK(fileUriFromPath("/ws/a b/c-d_e.f~g") == "file:///ws/a%20b/c-d_e.f~g");
  CHECK(fileUriFromPath("/ws/100%") == "file:///ws/100%25");
  CHECK(fileUriFromPath("/ws/caf\xc3\xa9") == "file:///ws/caf%C3%A9");
  CHECK(fileUriFromPath("/C:/x") == "file:///C%3A/x");
}

TEST_CASE("lsp uri: decoding as servers write them", "[lsp]") {
  CHECK(pathFromFileUri("file:///ws/a%20b.py")->string() == "/ws/a b.py");
  CHECK(pathFromFileUri("file:///ws/caf%c3%a9")->string() == "/ws/caf\xc3\xa9"); // lower-case hex
  CHECK(pathFromFileUri("file:///ws/caf\xc3\xa9")->string() == "/ws/caf\xc3\xa9");  // not encoded at all
  CHECK(pathFromFileUri("FILE:///ws/x")->string() == "/ws/x");
  CHECK(pathFromFileUri("file://localhost/ws/x")->string() == "/ws/x");
  CHECK(pathFromFileUri("file:/ws/x")->string() == "/ws/x");
  CHECK(pathFromFileUri("file:///C%3A/Users/x.cs")->string() == "/C:/Users/x.cs");
  // A query or fragment is not part of the path; an escape that is not one stays as written.
  CHECK(pathFromFileUri("file:///ws/x.py#L12")->string() == "/ws/x.py");
  CHECK(pathFromFileUri("file:///ws/x.py?query")->string() == "/ws/x.py");
  CHECK(pathFromFileUri("file:///ws/100%")->string() == "/ws/100%");
  CHECK(pathFromFileUri("file:///ws/%zz%4")->string() == "/ws/%zz%4");
}

TEST_CASE("lsp uri: other schemes, other hosts and NUL bytes are not paths", "[lsp]") {
  CHECK_FALSE(pathFromFileUri("untitled:Untitled-1"));
  CHECK_FALSE(pathFromFileUri("jdt://contents/rt.jar/java.lang/String.class"));
  CHECK_FALSE(pathFromFileUri("https://example.com/a.py"));
  CHECK_FALSE(pathFromFileUri("file://server/share/a.py"));
  CHECK_FALSE(pathFromFileUri("file://localhostile/a.py"));
  CHECK_FALSE(pathFromFileUri("file:///ws/a%00b"));
  CHECK_FALSE(pathFromFileUri("file://"));
  CHECK_FALSE(pathFromFileUri("file:relative/a.py"));
  CHECK_FALSE(pathFromFileUri(""));
}
