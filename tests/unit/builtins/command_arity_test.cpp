#include "builtins/shell/command_arity.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using toold::builtins::commandPrefix;
using toold::builtins::savePattern;
using Words = std::vector<std::string>;

TEST_CASE("arity: two-word tools keep their subcommand", "[arity]") {
  CHECK(savePattern({"git", "checkout", "main"}) == "git checkout *");
  CHECK(savePattern({"git", "push"}) == "git push *");
  CHECK(savePattern({"python", "script.py"}) == "python script.py *");
  CHECK(savePattern({"git", "-C", "x", "status"}) == "git -C *");
  CHECK(savePattern({"cargo", "build", "--release"}) == "cargo build *");
  CHECK(savePattern({"kubectl", "get", "pods", "-A"}) == "kubectl get *");
}

TEST_CASE("arity: two-word keys of arity three win over their first word", "[arity]") {
  CHECK(savePattern({"npm", "run", "dev", "x"}) == "npm run dev *");
  CHECK(savePattern({"docker", "compose", "up", "svc"}) == "docker compose up *");
  CHECK(savePattern({"git", "stash", "pop"}) == "git stash pop *");
  CHECK(savePattern({"terraform", "workspace", "select", "prod"}) == "terraform workspace select *");
  CHECK(savePattern({"docker", "run", "-it", "ubuntu"}) == "docker run *");
  CHECK(savePattern({"gh", "pr", "create", "--fill"}) == "gh pr create *");
  CHECK(savePattern({"aws", "s3", "ls", "s3://bucket"}) == "aws s3 ls *");
}

TEST_CASE("arity: one-word tools and unknown commands keep the first word", "[arity]") {
  CHECK(savePattern({"ls", "-la"}) == "ls *");
  CHECK(savePattern({"rm", "-rf", "x"}) == "rm *");
  CHECK(savePattern({"cat"}) == "cat *");
  CHECK(savePattern({"frobnicate", "--all", "now"}) == "frobnicate *");
  CHECK(savePattern({"./build.sh", "release"}) == "./build.sh *");
}

TEST_CASE("arity: fewer words than the arity keep them all, none give nothing", "[arity]") {
  CHECK(commandPrefix({"git"}) == Words{"git"});
  CHECK(commandPrefix({"npm", "run"}) == Words{"npm", "run"});
  CHECK(savePattern({"npm", "run"}) == "npm run *");
  CHECK(commandPrefix({}).empty());
  CHECK(savePattern({}).empty());
  CHECK(commandPrefix({"docker", "compose", "up", "-d"}) == Words{"docker", "compose", "up"});
}
