#include "builtins/codemode/tool_path.h"

#include <nlohmann/json.hpp>

#include <unordered_map>

namespace toold::codemode {

namespace {

bool identifierStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'; }
bool identifierPart(char c) { return identifierStart(c) || (c >= '0' && c <= '9'); }

void splitDots(std::string_view text, ToolPath& out) {
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = text.find('.', start);
    out.emplace_back(text.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) return;
    start = dot + 1;
  }
}

} // namespace

ToolPath toolPath(std::string_view ns, std::string_view name) {
  ToolPath path;
  if (!ns.empty()) splitDots(ns, path);
  path.emplace_back(name);
  return path;
}

std::string dottedPath(const ToolPath& segments) {
  std::string out;
  for (const auto& segment : segments) out += (out.empty() ? "" : ".") + segment;
  return out;
}

bool isIdentifierSegment(std::string_view segment) {
  if (segment.empty() || !identifierStart(segment.front())) return false;
  for (char c : segment)
    if (!identifierPart(c)) return false;
  return true;
}

std::string pathExpression(const ToolPath& segments) {
  std::string out = "tools";
  for (const auto& segment : segments)
    out += isIdentifierSegment(segment) ? "." + segment : "[" + nlohmann::json(segment).dump() + "]";
  return out;
}

ToolPath parsePathExpression(std::string_view text) {
  ToolPath path;
  std::size_t i = 0;
  const std::size_t n = text.size();
  if (text.substr(0, 5) == "tools" && (n == 5 || text[5] == '.' || text[5] == '[')) i = 5;
  bool first = i == 0;
  while (i < n) {
    if (text[i] == '[') {
      // ["seg"] with the segment as a JSON string.
      const std::size_t close = text.find("\"]", i + 2);
      if (i + 1 >= n || text[i + 1] != '"' || close == std::string_view::npos) return {};
      try {
        path.push_back(nlohmann::json::parse(text.substr(i + 1, close - i)).get<std::string>());
      } catch (const std::exception&) {
        return {};
      }
      i = close + 2;
    } else {
      if (!first) {
        if (text[i] != '.') return {};
        ++i;
      }
      const std::size_t start = i;
      while (i < n && text[i] != '.' && text[i] != '[') ++i;
      if (i == start) return {};
      path.emplace_back(text.substr(start, i - start));
    }
    first = false;
  }
  return path;
}

namespace {

struct TreeNode {
  bool callable = false;
  std::vector<std::pair<std::string, TreeNode>> children; // in first-seen order
  std::unordered_map<std::string, std::size_t> index;       // segment -> position in children

  TreeNode& child(const std::string& segment) {
    const auto [it, added] = index.try_emplace(segment, children.size());
    if (added) children.emplace_back(segment, TreeNode{});
    return children[it->second].second;
  }

  nlohmann::json toJson() const {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& [name, node] : children) list.push_back(nlohmann::json::array({name, node.toJson()}));
    return nlohmann::json::array({callable ? 1 : 0, std::move(list)});
  }
};

} // namespace

std::string toolTreeJson(const std::vector<ToolPath>& paths) {
  TreeNode root;
  for (const auto& path : paths) {
    TreeNode* node = &root;
    for (const auto& segment : path) node = &node->child(segment);
    node->callable = true;
  }
  return root.toJson().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace toold::codemode
