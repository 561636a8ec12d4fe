// `register`'s params read from their text a tool at a time. Read the long way (a tree of the
// whole record, then parseRegisterParams), a record of thousands of tools is built whole, taken
// apart, and freed in pieces between what registration keeps. Here each tool's spec is parsed and
// handed on, and its tree freed, before the next tool is read.
#pragma once

#include "protocol/tool_messages.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace toold::protocol {

/// The record's members as parseRegisterParams reads them from the tree: the last of duplicate
/// keys counts, other keys are ignored.
class RegisterParamsText {
public:
  /// Finds the record's members and reads its scope and options. Nothing when `text` is not one
  /// JSON object that parseJsonFast reads, its `tools` is not a non-empty object, or its scope or
  /// options are not as parseRegisterParams takes them: the record is then for the long way, whose
  /// refusals keep their words.
  static std::optional<RegisterParamsText> open(std::string_view text);

  const std::optional<std::string>& scope() const { return scope_; }
  const RegisterOptions& options() const { return options_; }

  /// Hands `each` every tool's authored name and spec, in the text's order (duplicates included:
  /// the tree keeps the last of them and sorts the names, which the caller does itself). Throws
  /// ParamsError for a spec parseRegisterParams refuses (perhaps with other words: the first
  /// refusal of the long way may be another tool's), and false when the tools cannot be read.
  bool forEachTool(const std::function<void(std::string&& name, ToolSpec&& spec)>& each) const;

private:
  std::string_view tools_;
  std::optional<std::string> scope_;
  RegisterOptions options_;
};

} // namespace toold::protocol
