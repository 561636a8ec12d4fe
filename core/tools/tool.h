// The Tool model: what a tool is (description, schemas, flags, one execute function), the context
// a call runs with, and the three ways it can finish. Every tool — built-in, command, client-hosted
// — is this one structural value; the registry names it, the pipeline runs it.
#pragma once

#include "core/base/cancellation.h"
#include "core/base/location.h"
#include "core/output/output_bounding.h"
#include "core/permission/permission_ask.h"
#include "core/tools/catalog_view.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace toold::core {

using json = nlohmann::json;

class CallRecorder; // core/checkpoint/call_recorder.h
struct Snapshot;
struct ToolResult;
struct ToolFailure;
struct ToolDefect;
struct ToolDeclined;
using ToolCompletion = std::variant<ToolResult, ToolFailure, ToolDefect, ToolDeclined>;
/// How a permission assertion ends: nothing when granted, else how the call must end (a
/// ToolFailure or a ToolDeclined), to be passed to `done` as it is.
using PermissionContinuation = std::function<void(std::optional<ToolCompletion> refusal)>;

/// What a running call knows besides its input: the durable identity the runner supplied, a way to
/// report progress, its cancellation, its Location, and the permission assertion.
struct ToolContext {
  std::string sessionID;
  std::string agent;
  std::string messageID;
  std::string callID;
  /// Sends one progress update to the client at once (in order, before the call's answer).
  std::function<void(json update)> progress;
  CancellationToken cancellation;
  std::shared_ptr<const Location> location;
  /// Asserts a permission for this call (the ask's source is the call itself). The continuation
  /// runs exactly once, where the tool's `execute` runs (a worker for Workers tools), possibly
  /// after the person answered; a verdict the rules give at once runs it inside this call.
  std::function<void(PermissionAsk, PermissionContinuation)> assertPermission;
  /// The snapshot the call came through, as its tools saw it when it was taken (agents, rules,
  /// the client's capabilities); null for a call made outside a snapshot.
  std::shared_ptr<const CatalogView> catalog;
  /// The snapshot the call runs through (Code Mode's `execute` runs its inner calls in it).
  std::shared_ptr<const Snapshot> snapshot;
  /// Runs `work` on the worker pool: an Inline tool hands over there what turns out to take long
  /// (a large file, a folder to list). Empty outside the pipeline: the tool then runs it itself.
  std::function<void(std::function<void()> work)> offload;
  /// How long the caller can wait for this call's answer (a host that gives up on a call after a
  /// fixed time); nullopt: as long as it takes. A tool that may run longer hands its work over
  /// (bash moves the command to the background) rather than be cut off with nothing said.
  std::optional<std::chrono::milliseconds> foregroundLimit{};
  /// How much text the client may be shown of this call's answer, everything included: a tool
  /// that bounds its own output (sets metadata.truncated) fits its pages into it, wrapper and
  /// footer too, since the pipeline does not bound such output again. The face the call came
  /// through sets it (CallIo::limits).
  BoundingLimits budget = {};
  /// Where a tool that changes files tells each change (old and new version, from memory) for the
  /// call's checkpoint; null when checkpoints are off or the tool is read-only.
  std::shared_ptr<CallRecorder> checkpoint = nullptr;
};

/// A finished call. `output` only with an output schema; `content` a string or an array of items;
/// `metadata` a JSON object for the UI, never shown to the model.
struct ToolResult {
  std::optional<json> output;
  std::optional<json> content;
  std::optional<json> metadata;
};

/// An expected, model-visible failure ("file not found"): the call completes as an error outcome.
struct ToolFailure {
  std::string message;
  std::optional<json> metadata;
};

/// A bug: not the model's business. Answered -32603 and logged with its cause; the daemon keeps
/// serving. An exception thrown by `execute` is a defect too.
struct ToolDefect {
  std::string message;
};

/// The person declined a permission ask without a message: not a tool result at all. Answered with
/// JSON-RPC error -32001, so the runner stops the turn rather than feeding the model.
struct ToolDeclined {
  std::string message;
};

/// Called exactly once per call, from any thread. After cancellation it may still be called; the
/// pipeline then drops the result (the call was already answered as interrupted).
using ToolDone = std::function<void(ToolCompletion)>;
using ToolExecute = std::function<void(json input, ToolContext context, ToolDone done)>;

/// Where `execute` is called. Tools that block (file I/O, walks) run on the worker pool; tools that
/// only start asynchronous work (a request to the client, a child process) run inline on the
/// session's queue, which saves a thread hand-off per call. One byte: it sits beside the flags of
/// every registration.
enum class ToolThreading : std::uint8_t { Workers, Inline };

struct Tool {
  std::string description;
  json inputSchema = json::object();
  /// The input schema as constant JSON text, taken instead of `inputSchema` when not empty (the
  /// built-ins', builtins/constant_json.h): the registry takes it as it is, without a tree. So it
  /// must be an object schema written as nlohmann writes it (compact, keys sorted) that
  /// compilesForCertain() accepts, as a test checks for every built-in. It must outlive the
  /// registration: a string literal's, or a constant's.
  std::string_view inputSchemaText;
  std::optional<json> outputSchema;
  bool codemode = true;
  /// Why a wildcard of `codemode.tools` (`{"*": true}`) leaves this tool direct — it needs the
  /// person or the runner, which a program cannot stand in for; empty: a wildcard moves it too.
  /// Only its exact name moves it in.
  std::string codemodeDirectReason;
  /// A direct tool that Code Mode also offers inside `execute` when the config names no
  /// `codemode.tools` (the read-only built-ins): so `"codemode": true` gives programs something
  /// to combine without taking a direct tool away.
  bool codemodeAlsoByDefault = false;
  /// For MCP hosts: a human title and behaviour hints ({readOnlyHint, …}); empty: none given.
  std::string title;
  json annotations = json::object();
  /// The permission action that guards it and filters it from catalogs; empty: its effective name.
  std::string permission;
  bool mutates = false;
  /// Polls state that changes by itself (a job's output, the job list): repeating such a call is
  /// no loop, so the doom-loop check never holds it.
  bool polls = false;
  ToolThreading threading = ToolThreading::Workers;
  ToolExecute execute;
  /// When set, called as each snapshot is taken: the description that snapshot advertises (built
  /// from the agents, skills or rules it has), or nothing to leave the tool out of it (a tool
  /// that needs a client capability the client did not declare). Unset: `description` always.
  std::function<std::optional<std::string>(const CatalogView&)> describe;
};

} // namespace toold::core
