#include "core/net/url.h"

#include <catch2/catch.hpp>

using toold::core::parseUrl;
using toold::core::resolveReference;

TEST_CASE("parseUrl splits scheme, host, port and target", "[net]") {
  auto url = parseUrl("HTTPS://Example.COM/a/b?q=1#frag");
  REQUIRE(url);
  CHECK(url->scheme == "https");
  CHECK(url->host == "example.com");
  CHECK(url->port == 443);
  CHECK(url->target == "/a/b?q=1");
  CHECK(url->text() == "https://example.com/a/b?q=1");

  url = parseUrl("http://127.0.0.1:8080");
  REQUIRE(url);
  CHECK(url->port == 8080);
  CHECK(url->target == "/");
  CHECK(url->authority() == "127.0.0.1:8080");

  url = parseUrl("http://[::1]:9000/x");
  REQUIRE(url);
  CHECK(url->host == "::1");
  CHECK(url->authority() == "[::1]:9000");

  url = parseUrl("http://host?only=query");
  REQUIRE(url);
  CHECK(url->target == "/?only=query");

  url = parseUrl("  http://host/a path/\"x\"  ");
  REQUIRE(url);
  CHECK(url->target == "/a%20path/%22x%22");
}

TEST_CASE("parseUrl refuses what it cannot fetch, saying why", "[net]") {
  std::string error;
  CHECK_FALSE(parseUrl("example.com/page", &error));
  CHECK(error.find("not an absolute URL") != std::string::npos);
  CHECK_FALSE(parseUrl("ftp://example.com/", &error));
  CHECK(error.find("only http and https") != std::string::npos);
  CHECK_FALSE(parseUrl("http://user:secret@example.com/", &error));
  CHECK(error.find("user name or password") != std::string::npos);
  CHECK_FALSE(parseUrl("http:///path", &error));
  CHECK(error == "the URL has no host");
  CHECK_FALSE(parseUrl("http://host:99999/", &error));
  CHECK(error.find("port") != std::string::npos);
  CHECK_FALSE(parseUrl("http://[::1/", &error));
}

TEST_CASE("resolveReference follows the forms a Location header takes", "[net]") {
  const auto base = *parseUrl("https://example.com/docs/guide/page.html?x=1");
  CHECK(resolveReference(base, "http://other.org/p")->text() == "http://other.org/p");
  CHECK(resolveReference(base, "//cdn.example.com/a")->text() == "https://cdn.example.com/a");
  CHECK(resolveReference(base, "/root")->text() == "https://example.com/root");
  CHECK(resolveReference(base, "next.html")->text() == "https://example.com/docs/guide/next.html");
  CHECK(resolveReference(base, "../up/./x")->text() == "https://example.com/docs/up/x");
  CHECK(resolveReference(base, "../../../../too-far")->text() == "https://example.com/too-far");
  CHECK(resolveReference(base, "?y=2")->text() == "https://example.com/docs/guide/page.html?y=2");
  CHECK(resolveReference(base, "sub/")->text() == "https://example.com/docs/guide/sub/");
  CHECK_FALSE(resolveReference(base, "ftp://elsewhere/"));
}
