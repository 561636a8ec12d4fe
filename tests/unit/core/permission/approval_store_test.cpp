#include "core/permission/approval_store.h"
#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <sys/stat.h>

using namespace toold::core;
namespace fs = std::filesystem;

namespace {

struct TempDir : toold::testing::TempDir {
  TempDir() : toold::testing::TempDir("approval_store_test") {}
};

} // namespace

TEST_CASE("approval store: saved rules survive a new store, per directory", "[approval_store]") {
  TempDir data;
  {
    ApprovalStore store(data.path(), "/work/a");
    CHECK(store.rules().empty());
    CHECK(store.add({{"bash", "git log *", PermissionEffect::Allow, ""}}).empty());
    CHECK(store.add({{"bash", "git log *", PermissionEffect::Allow, ""}, {"read", "*", PermissionEffect::Allow, ""}})
              .empty());
    REQUIRE(store.rules().size() == 2); // the repeated rule is kept once
    struct stat info {};
    REQUIRE(::stat(store.file().c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0600);
  }
  ApprovalStore again(data.path(), "/work/a");
  REQUIRE(again.rules().size() == 2);
  CHECK(again.rules()[0] == PermissionRule{"bash", "git log *", PermissionEffect::Allow, "saved approval"});
  CHECK(again.rules()[1].action == "read");
  ApprovalStore other(data.path(), "/work/b");
  CHECK(other.rules().empty());
}

TEST_CASE("approval store: an unreadable file is moved aside, not overwritten", "[approval_store]") {
  TempDir data;
  fs::path file;
  {
    ApprovalStore store(data.path(), "/work/a");
    file = store.file();
  }
  fs::create_directories(file.parent_path());
  std::ofstream(file) << "{ not json";
  ApprovalStore store(data.path(), "/work/a");
  CHECK(store.rules().empty());
  auto aside = file;
  aside += ".unreadable";
  CHECK(fs::exists(aside));
  CHECK_FALSE(fs::exists(file));
  CHECK(store.add({{"edit", "*", PermissionEffect::Allow, ""}}).empty());
  CHECK(fs::exists(file));
  std::ifstream kept(aside);
  std::string text((std::istreambuf_iterator<char>(kept)), std::istreambuf_iterator<char>());
  CHECK(text == "{ not json");
}

TEST_CASE("approval store: a file of another directory is ignored", "[approval_store]") {
  TempDir data;
  fs::path file;
  {
    ApprovalStore store(data.path(), "/work/a");
    file = store.file();
  }
  fs::create_directories(file.parent_path());
  std::ofstream(file) << R"({"directory": "/work/other", "rules": [{"action": "bash", "resource": "*"}]})";
  ApprovalStore store(data.path(), "/work/a");
  CHECK(store.rules().empty());
}

TEST_CASE("approval store: a write that cannot happen is reported and the rules still apply", "[approval_store]") {
  TempDir data;
  std::ofstream(data.path() / "approvals") << "a file where the folder should be";
  ApprovalStore store(data.path(), "/work/a");
  CHECK_FALSE(store.add({{"bash", "*", PermissionEffect::Allow, ""}}).empty());
  CHECK(store.rules().size() == 1);
}

TEST_CASE("approval store: a removed rule is gone from the file too", "[approval_store]") {
  TempDir data;
  {
    ApprovalStore store(data.path(), "/work/a");
    CHECK(store.add({{"bash", "git log *", PermissionEffect::Allow, ""}, {"read", "*", PermissionEffect::Allow, ""}})
              .empty());
    auto removal = store.remove("bash", "git log *");
    CHECK(removal.removed);
    CHECK(removal.error.empty());
    CHECK_FALSE(store.remove("bash", "git log *").removed);
    CHECK_FALSE(store.remove("read", "src/*").removed); // only an exact rule is removed
  }
  ApprovalStore again(data.path(), "/work/a");
  REQUIRE(again.rules().size() == 1);
  CHECK(again.rules()[0].action == "read");
}

TEST_CASE("approval store: a literal rule stays literal across a restart", "[approval_store]") {
  TempDir data;
  {
    ApprovalStore store(data.path(), "/work/a");
    CHECK(store.add({{"bash", "echo 'x *", PermissionEffect::Allow, "", /*literal=*/true},
                     {"bash", "echo *", PermissionEffect::Allow, ""}})
              .empty());
  }
  ApprovalStore again(data.path(), "/work/a");
  REQUIRE(again.rules().size() == 2);
  CHECK(again.rules()[0] == PermissionRule{"bash", "echo 'x *", PermissionEffect::Allow, "saved approval", true});
  CHECK_FALSE(again.rules()[1].literal);
}
