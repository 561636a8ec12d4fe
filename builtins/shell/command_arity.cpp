#include "builtins/shell/command_arity.h"

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <unordered_map>

namespace toold::builtins {
namespace {

// opencode's permission/arity.ts: how many leading words name what a command does. Keys are one
// or two words; the longest key that is a prefix of the command wins.
const std::unordered_map<std::string_view, std::size_t>& arityTable() {
  static const std::unordered_map<std::string_view, std::size_t> table = [] {
    std::unordered_map<std::string_view, std::size_t> t;
    for (std::string_view key : {"cat", "cd", "chmod", "chown", "cp", "echo", "env", "export", "grep", "kill",
                                 "killall", "ln", "ls", "mkdir", "mv", "ps", "pwd", "rm", "rmdir", "sleep",
                                 "source", "tail", "touch", "unset", "which"})
      t.emplace(key, 1);
    for (std::string_view key :
         {"bazel",    "brew",     "bun",       "cargo",     "cdk",     "cf",       "cmake",    "composer",
          "consul",   "crictl",   "deno",      "docker",    "eksctl",  "firebase", "flyctl",   "git",
          "go",       "gradle",   "helm",      "heroku",    "hugo",    "ip",       "kind",     "kubectl",
          "kustomize", "make",    "mc",        "minikube",  "mongosh", "mysql",    "mvn",      "ng",
          "npm",      "nvm",      "nx",        "openssl",   "pip",     "pipenv",   "pnpm",     "poetry",
          "podman",   "psql",     "pulumi",    "pyenv",     "python",  "rake",     "rbenv",    "redis-cli",
          "rustup",   "serverless", "skaffold", "sls",      "sst",     "swift",    "systemctl", "terraform",
          "tmux",     "turbo",    "ufw",       "vault",     "vercel",  "volta",    "wp",       "yarn"})
      t.emplace(key, 2);
    for (std::string_view key :
         {"aws", "az", "doctl", "gcloud", "gh", "sfdx", "bun run", "bun x", "cargo add", "cargo run",
          "consul kv", "deno task", "docker builder", "docker compose", "docker container", "docker image",
          "docker network", "docker volume", "eksctl create", "git config", "git remote", "git stash",
          "ip addr", "ip link", "ip netns", "ip route", "kind create", "kubectl kustomize", "kubectl rollout",
          "mc admin", "npm exec", "npm init", "npm run", "npm view", "openssl req", "openssl x509", "pnpm dlx",
          "pnpm exec", "pnpm run", "podman container", "podman image", "pulumi stack", "terraform workspace",
          "vault auth", "vault kv", "yarn dlx", "yarn run"})
      t.emplace(key, 3);
    return t;
  }();
  return table;
}

constexpr std::size_t kLongestKeyWords = 2; // no key in the table has more words than this

} // namespace

std::vector<std::string> commandPrefix(const std::vector<std::string>& words) {
  if (words.empty()) return {};
  const auto& table = arityTable();
  std::size_t arity = 1;
  std::string key;
  for (std::size_t length = std::min(words.size(), kLongestKeyWords); length >= 1; --length) {
    key.clear();
    for (std::size_t i = 0; i < length; ++i) {
      if (i > 0) key += ' ';
      key += words[i];
    }
    if (auto found = table.find(key); found != table.end()) {
      arity = found->second;
      break;
    }
  }
  const std::size_t count = std::min(arity, words.size());
  return {words.begin(), words.begin() + static_cast<std::ptrdiff_t>(count)};
}

std::string savePattern(const std::vector<std::string>& words) {
  const auto prefix = commandPrefix(words);
  if (prefix.empty()) return {};
  std::string pattern;
  for (const auto& word : prefix) {
    pattern += word;
    pattern += ' ';
  }
  pattern += '*';
  return pattern;
}

} // namespace toold::builtins
