// Fuzz target for the apply_patch grammar: whatever the bytes, parsing must finish without crashing;
// a refusal says why and names a line of the text (or none); an accepted patch has at least one
// operation, each with a path, Add contents made of whole lines, and chunks whose context lines
// are the same on both sides. Each Update's chunks are then applied to a file made of their own old
// lines, which must end in a result or an error, never a crash.
#include "builtins/patch/patch_application.h"
#include "builtins/patch/patch_parser.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace toold::builtins;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto parsed = parsePatch(input);
  if (const auto* error = std::get_if<PatchParseError>(&parsed)) {
    const auto lines = static_cast<int>(std::count(input.begin(), input.end(), '\n')) + 1;
    if (error->message.empty() || error->line < 0 || error->line > lines) std::abort();
    return 0;
  }
  const auto& patch = std::get<ParsedPatch>(parsed);
  if (patch.operations.empty()) std::abort();
  for (const auto& operation : patch.operations) {
    if (operation.path.empty() || operation.line < 1) std::abort();
    if (operation.kind == PatchFileOp::Kind::Add && !operation.contents.empty() && operation.contents.back() != '\n')
      std::abort();
    if (operation.kind != PatchFileOp::Kind::Update) continue;
    std::vector<std::string> file;
    for (const auto& chunk : operation.chunks) {
      if (chunk.contextOf.size() != chunk.newLines.size()) std::abort();
      for (std::size_t i = 0; i < chunk.contextOf.size(); ++i) {
        const int old = chunk.contextOf[i];
        if (old < -1 || old >= static_cast<int>(chunk.oldLines.size())) std::abort();
        if (old >= 0 && chunk.oldLines[static_cast<std::size_t>(old)] != chunk.newLines[i]) std::abort();
      }
      file.insert(file.end(), chunk.contexts.begin(), chunk.contexts.end());
      file.insert(file.end(), chunk.oldLines.begin(), chunk.oldLines.end());
    }
    (void)applyChunks(file, operation.chunks, operation.path);
  }
  return 0;
}
