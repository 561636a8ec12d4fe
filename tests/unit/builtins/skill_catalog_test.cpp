// Reading SKILL.md front matter: the forms skills are written in, and what is not a skill.
#include "builtins/skills/skill_catalog.h"

#include <catch2/catch.hpp>

using toold::builtins::parseSkillFile;

TEST_CASE("skill front matter: plain, quoted and block values", "[skill]") {
  auto plain = parseSkillFile("---\nname: pdf\ndescription: Work with PDFs\n---\n\n# PDF\nbody\n");
  REQUIRE(plain);
  CHECK(plain->name == "pdf");
  CHECK(plain->description == "Work with PDFs");
  CHECK(plain->body == "\n# PDF\nbody\n");

  auto quoted = parseSkillFile("---\r\nname: 'a b'\r\ndescription: \"x: y\"\r\n---\r\nrest");
  REQUIRE(quoted);
  CHECK(quoted->name == "a b");
  CHECK(quoted->description == "x: y");
  CHECK(quoted->body == "rest");

  auto folded = parseSkillFile("---\nname: r\ndescription: >\n  one\n  two\nlicense: MIT\n---\n");
  REQUIRE(folded);
  CHECK(folded->description == "one two");
  CHECK(folded->body.empty());

  auto bom = parseSkillFile("\xEF\xBB\xBF---\nname: b\n---\nx");
  REQUIRE(bom);
  CHECK(bom->name == "b");
}

TEST_CASE("skill front matter: what is not a skill", "[skill]") {
  CHECK_FALSE(parseSkillFile("no front matter"));
  CHECK_FALSE(parseSkillFile("---\nname: x\n"));                   // never closed
  CHECK_FALSE(parseSkillFile("---\ndescription: nameless\n---\n")); // no name
  CHECK_FALSE(parseSkillFile(""));
}
