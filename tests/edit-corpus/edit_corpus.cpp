// Runs the edit-matching corpus (tests/edit-corpus/edit/*.json, patch/*.json) through the real
// `edit` matcher and `apply_patch` chunk code, and prints per kind of mistake how many cases were
// applied correctly, refused, or applied wrongly. A wrong-block replacement (a change outside the
// block the case names, or any change where the case must be refused) fails the run; so does
// recall on the imperfect, non-decoy cases below `--min-recall`.
#include "builtins/edit/text_edits.h"
#include "builtins/patch/patch_application.h"
#include "builtins/patch/patch_parser.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using namespace toold::builtins;

struct Tally {
  int cases = 0;
  int decoys = 0;
  int correct = 0;
  int refused = 0;
  int wrongBlock = 0;
  int wrongText = 0; // applied at the right place, but not as expected
  int plainCases = 0;
  int plainCorrect = 0;
};

enum class Verdict { Correct, Refused, WrongBlock, WrongText };

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The lines of `before` that `after` changed, as a closed range [first, last] (an insertion is
// the line it follows and the one it precedes).
std::pair<std::size_t, std::size_t> changedRange(const std::vector<std::string>& before,
                                                 const std::vector<std::string>& after) {
  std::size_t prefix = 0;
  while (prefix < before.size() && prefix < after.size() && before[prefix] == after[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (suffix + prefix < before.size() && suffix + prefix < after.size() &&
         before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix]) {
    ++suffix;
  }
  const std::size_t end = before.size() - suffix; // exclusive
  const std::size_t first = prefix == 0 ? 0 : prefix - 1;
  return {first, std::max(end, prefix + 1)};
}

Verdict judge(const std::string& file, const std::optional<std::string>& result, const json& kase) {
  const bool mustRefuse = kase.value("refuse", false);
  if (!result) return mustRefuse ? Verdict::Correct : Verdict::Refused;
  if (mustRefuse) return Verdict::WrongBlock;
  const std::string expected = kase["expected"].get<std::string>();
  if (*result == expected) return Verdict::Correct;
  const auto original = splitLines(file);
  const auto got = changedRange(original, splitLines(*result));
  const auto want = changedRange(original, splitLines(expected));
  const bool overlaps = got.first <= want.second && want.first <= got.second;
  return overlaps ? Verdict::WrongText : Verdict::WrongBlock;
}

std::optional<std::string> runEdit(const json& kase, std::string& error, std::string& how) {
  const std::vector<TextEdit> edits{{kase["oldString"].get<std::string>(), kase["newString"].get<std::string>(), false}};
  auto applied = applyTextEdits(kase["file"].get<std::string>(), edits, "corpus-file", std::size_t{64} << 20);
  if (auto* message = std::get_if<std::string>(&applied)) {
    error = *message;
    return std::nullopt;
  }
  how = std::get<AppliedEdits>(applied).results.dump();
  return std::get<AppliedEdits>(applied).bytes;
}

// Applies a patch to an in-memory tree of files, the way apply_patch plans one (LF files, the
// final newline kept as the file had it). nullopt with `error` when it does not apply.
std::optional<std::map<std::string, std::string>> runPatch(const json& kase, std::string& error) {
  std::map<std::string, std::string> files;
  for (const auto& [path, content] : kase["files"].items()) files[path] = content.get<std::string>();
  auto parsed = parsePatch(kase["patch"].get<std::string>());
  if (auto* parseError = std::get_if<PatchParseError>(&parsed)) {
    error = parseError->message;
    return std::nullopt;
  }
  for (const PatchFileOp& op : std::get<ParsedPatch>(parsed).operations) {
    switch (op.kind) {
    case PatchFileOp::Kind::Add: files[op.path] = op.contents; break;
    case PatchFileOp::Kind::Delete: files.erase(op.path); break;
    case PatchFileOp::Kind::Update: {
      const auto found = files.find(op.path);
      if (found == files.end()) {
        error = "no file " + op.path;
        return std::nullopt;
      }
      const std::string text = found->second;
      std::vector<std::string> lines;
      for (std::size_t start = 0; start < text.size();) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        lines.emplace_back(text.substr(start, end - start));
        start = end + 1;
      }
      auto applied = applyChunks(lines, op.chunks, op.path);
      if (auto* chunkError = std::get_if<ChunkError>(&applied)) {
        error = chunkError->message;
        return std::nullopt;
      }
      std::string out;
      for (const auto& line : std::get<std::vector<std::string>>(applied)) out += line + "\n";
      if (!text.empty() && !text.ends_with('\n') && !out.empty()) out.pop_back();
      files.erase(found);
      files[op.movePath.value_or(op.path)] = std::move(out);
      break;
    }
    }
  }
  return files;
}

Verdict judgePatch(const json& kase, const std::optional<std::map<std::string, std::string>>& result) {
  const bool mustRefuse = kase.value("refuse", false);
  if (!result) return mustRefuse ? Verdict::Correct : Verdict::Refused;
  if (mustRefuse) return Verdict::WrongBlock;
  Verdict verdict = Verdict::Correct;
  for (const auto& [path, content] : kase["expected"].items()) {
    const auto found = result->find(path);
    if (content.is_null()) {
      if (found != result->end()) return Verdict::WrongBlock;
      continue;
    }
    if (found == result->end()) return Verdict::WrongBlock;
    if (found->second == content.get<std::string>()) continue;
    // Changed at the place the case names but not as expected, or somewhere else.
    const auto original = kase["files"].find(path);
    if (original == kase["files"].end()) return Verdict::WrongBlock;
    const auto before = splitLines(original->get<std::string>());
    const auto got = changedRange(before, splitLines(found->second));
    const auto want = changedRange(before, splitLines(content.get<std::string>()));
    if (got.first > want.second || want.first > got.second) return Verdict::WrongBlock;
    verdict = Verdict::WrongText;
  }
  return verdict;
}

void count(Tally& tally, const json& kase, Verdict verdict) {
  const bool decoy = kase.value("decoy", false);
  ++tally.cases;
  tally.decoys += decoy ? 1 : 0;
  switch (verdict) {
  case Verdict::Correct: ++tally.correct; break;
  case Verdict::Refused: ++tally.refused; break;
  case Verdict::WrongBlock: ++tally.wrongBlock; break;
  case Verdict::WrongText: ++tally.wrongText; break;
  }
  if (!decoy) {
    ++tally.plainCases;
    tally.plainCorrect += verdict == Verdict::Correct ? 1 : 0;
  }
}

const char* verdictName(Verdict verdict) {
  switch (verdict) {
  case Verdict::Correct: return "correct";
  case Verdict::Refused: return "refused";
  case Verdict::WrongBlock: return "WRONG BLOCK";
  case Verdict::WrongText: return "wrong text";
  }
  return "?";
}

json load(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return json::parse(in);
}

void printRow(const std::string& name, const Tally& t) {
  std::printf("%-22s %5d %6d %8d %8d %6d %6d   %3d/%-3d\n", name.c_str(), t.cases, t.decoys, t.correct, t.refused,
              t.wrongBlock, t.wrongText, t.plainCorrect, t.plainCases);
}

void add(Tally& into, const Tally& t) {
  into.cases += t.cases;
  into.decoys += t.decoys;
  into.correct += t.correct;
  into.refused += t.refused;
  into.wrongBlock += t.wrongBlock;
  into.wrongText += t.wrongText;
  into.plainCases += t.plainCases;
  into.plainCorrect += t.plainCorrect;
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: edit_corpus <corpus dir> [--min-recall R] [--verbose] [--show <case id>]\n";
    return 2;
  }
  const fs::path root = argv[1];
  double minRecall = 0;
  bool verbose = false;
  std::string show; // a case whose result to print whole
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--min-recall" && i + 1 < argc) minRecall = std::stod(argv[++i]);
    if (arg == "--verbose") verbose = true;
    if (arg == "--show" && i + 1 < argc) show = argv[++i];
  }
  std::map<std::string, Tally> edits;
  std::map<std::string, Tally> patches;
  std::vector<fs::path> editFiles;
  for (const auto& entry : fs::directory_iterator(root / "edit"))
    if (entry.path().extension() == ".json") editFiles.push_back(entry.path());
  std::sort(editFiles.begin(), editFiles.end());
  for (const auto& path : editFiles) {
    for (const json& kase : load(path)) {
      std::string error;
      std::string how;
      const auto result = runEdit(kase, error, how);
      if (kase["id"] == show) std::printf("%s\n%s\n%s\n", how.c_str(), error.c_str(), result.value_or("").c_str());
      const Verdict verdict = judge(kase["file"].get<std::string>(), result, kase);
      count(edits[kase["kind"].get<std::string>()], kase, verdict);
      if (verbose || verdict == Verdict::WrongBlock || (verbose && verdict != Verdict::Correct))
        std::printf("edit %-14s %-12s %s%s\n", kase["id"].get<std::string>().c_str(), verdictName(verdict),
                    kase["mistake"].get<std::string>().c_str(), error.empty() ? "" : (" | " + error.substr(0, error.find('\n'))).c_str());
    }
  }
  for (const json& kase : load(root / "patch" / "patch_cases.json")) {
    std::string error;
    const auto result = runPatch(kase, error);
    if (kase["id"] == show && result)
      for (const auto& [path, content] : *result) std::printf("%s:\n%s\n", path.c_str(), content.c_str());
    const Verdict verdict = judgePatch(kase, result);
    count(patches[kase["kind"].get<std::string>()], kase, verdict);
    if (verbose || verdict == Verdict::WrongBlock)
      std::printf("patch %-13s %-12s %s%s\n", kase["id"].get<std::string>().c_str(), verdictName(verdict),
                  kase["mistake"].get<std::string>().c_str(), error.empty() ? "" : (" | " + error.substr(0, error.find('\n'))).c_str());
  }
  const auto header = [](const char* first) {
    std::printf("%-22s %5s %6s %8s %8s %6s %6s   %s\n", first, "cases", "decoys", "correct", "refused", "WRONG", "w-text",
                "non-decoy applied");
  };
  Tally editTotal;
  Tally patchTotal;
  std::printf("\nedit cases\n");
  header("kind of mistake");
  for (const auto& [kind, tally] : edits) {
    printRow(kind, tally);
    add(editTotal, tally);
  }
  printRow("all edit cases", editTotal);
  std::printf("\napply_patch cases\n");
  header("kind");
  for (const auto& [kind, tally] : patches) {
    printRow(kind, tally);
    add(patchTotal, tally);
  }
  printRow("all patch cases", patchTotal);
  const double recall = editTotal.plainCases == 0 ? 1.0 : static_cast<double>(editTotal.plainCorrect) / editTotal.plainCases;
  std::printf("\nedit recall on imperfect non-decoy cases: %.3f (floor %.3f)\n", recall, minRecall);
  int status = 0;
  if (editTotal.wrongBlock + patchTotal.wrongBlock > 0) {
    std::printf("FAIL: %d wrong-block replacements\n", editTotal.wrongBlock + patchTotal.wrongBlock);
    status = 1;
  }
  if (recall < minRecall) {
    std::printf("FAIL: recall below the floor\n");
    status = 1;
  }
  return status;
}
