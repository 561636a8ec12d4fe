#include "builtins/codemode/js_engine.h"

#include "builtins/codemode/implicit_return.h"
#include "builtins/codemode/program_bootstrap.h"
#include "builtins/codemode/program_watchdog.h"
#include "builtins/codemode/type_blanker.h"
#include "builtins/codemode/worker_call_lines.h"

#include <jsapi.h>
#include <jsfriendapi.h>
#include <js/CallAndConstruct.h>
#include <js/CompilationAndEvaluation.h>
#include <js/ContextOptions.h>
#include <js/ErrorReport.h>
#include <js/Exception.h>
#include <js/Initialization.h>
#include <js/Interrupt.h>
#include <js/Promise.h>
#include <js/Realm.h>
#include <js/PropertyAndElement.h>
#include <js/SourceText.h>
#include <js/Stack.h>
#include <js/String.h>
#include <js/experimental/JSStencil.h>

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include <atomic>
#include <set>
#include <stdexcept>
#include <thread>

namespace toold::codemode {

using json = nlohmann::json;

namespace {

JSClass kGlobalClass = {"global", JSCLASS_GLOBAL_FLAGS, &JS::DefaultGlobalClassOps, nullptr, nullptr, nullptr};

// eval, indirect eval, new Function and every constructor reached through .constructor ask this
// first; the answer is always no.
bool refuseRuntimeCode(JSContext*, JS::RuntimeCode, JS::HandleString) { return false; }
const JSSecurityCallbacks kSecurity = {refuseRuntimeCode, nullptr};

// The engine's recursion limit, within the thread's stack: the smaller of 4 MiB and half of it.
std::size_t nativeStackQuota() {
  rlimit limit{};
  std::size_t stack = 8u << 20;
  if (getrlimit(RLIMIT_STACK, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) stack = limit.rlim_cur;
  return std::min<std::size_t>(4u << 20, stack / 2);
}

std::string toUtf8(JSContext* cx, JS::HandleValue value) {
  if (!value.isString()) return {};
  JS::RootedString string(cx, value.toString());
  JS::UniqueChars chars = JS_EncodeStringToUTF8(cx, string);
  return chars ? std::string(chars.get()) : std::string();
}

JSString* newString(JSContext* cx, const std::string& text) {
  return JS_NewStringCopyUTF8N(cx, JS::UTF8Chars(text.data(), text.size()));
}

/// Whether every byte of `text` is ASCII (no early exit, so that the loop is vectorised).
bool isAscii(std::string_view text) {
  unsigned char any = 0;
  for (const char c : text) any |= static_cast<unsigned char>(c);
  return any < 0x80;
}

/// A tool's UTF-8 text as a JavaScript string in one copy: ASCII is Latin-1, stored as it is.
JSString* newTextString(JSContext* cx, const std::string& text) {
  if (isAscii(text)) return JS_NewStringCopyN(cx, text.data(), text.size());
  return newString(cx, text);
}

Diagnostic diagnostic(const char* kind, std::string message, std::vector<std::string> suggestions = {}) {
  return Diagnostic{kind, std::move(message), std::move(suggestions), std::nullopt};
}

} // namespace

struct JsEngine::Impl {
  JSContext* cx = nullptr;
  std::atomic<bool> stop{false};
  std::uint64_t nextId = 0; ///< unique for the engine's life: a late answer of an old program is recognised
  std::atomic<bool> timedOut{false};
  std::atomic<bool> outOfMemory{false};
  std::atomic<bool> cancelled{false};
  CompletionSource* completions = nullptr;
  ProgramWatchdog watchdog;

  // One program's state; touched only on the engine's thread.
  struct Run {
    ProgramHost* host = nullptr;
    const ProgramLimits* limits = nullptr;
    std::size_t calls = 0;
    std::set<std::uint64_t> running; ///< started, not answered
    std::size_t inFlight = 0;
    std::deque<std::tuple<std::uint64_t, std::string, std::string>> waiting; ///< over the in-flight cap
    std::size_t logBytes = 0;
    bool logsCut = false;
    std::vector<std::string> logs;
    std::vector<std::unique_ptr<JS::PersistentRootedObject>> unhandled; ///< rejected, no handler yet
  };
  Run* run = nullptr;

  static Impl& of(JSContext* cx) { return *static_cast<Impl*>(JS_GetContextPrivate(cx)); }

  static bool onInterrupt(JSContext* cx) { return !of(cx).stop.load(); }

  static void trackRejection(JSContext*, bool, JS::HandleObject promise, JS::PromiseRejectionHandlingState state,
                             void* data) {
    auto* self = static_cast<Impl*>(data);
    if (self->run == nullptr) return;
    auto& list = self->run->unhandled;
    if (state == JS::PromiseRejectionHandlingState::Unhandled) {
      list.push_back(std::make_unique<JS::PersistentRootedObject>(self->cx, promise));
      return;
    }
    for (auto it = list.begin(); it != list.end(); ++it)
      if ((*it)->get() == promise.get()) {
        list.erase(it);
        return;
      }
  }

  // host.call(path, inputJson) -> id, -cap when the program used up its calls, or 0 when the input
  // is not Unicode text (a lone surrogate): refused in the program, not counted.
  static bool nativeCall(JSContext* cx, unsigned argc, JS::Value* vp) {
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    Run& run = *of(cx).run;
    if (run.calls >= run.limits->maxToolCalls) {
      args.rval().setNumber(-static_cast<double>(run.limits->maxToolCalls));
      return true;
    }
    std::string input = toUtf8(cx, args.get(1));
    if (hasLoneSurrogate(input)) {
      args.rval().setNumber(0);
      return true;
    }
    ++run.calls;
    const std::uint64_t id = ++of(cx).nextId;
    std::string path = toUtf8(cx, args.get(0));
    if (run.inFlight < run.limits->maxInFlight) {
      ++run.inFlight;
      run.running.insert(id);
      run.host->startCall(id, path, input);
    } else {
      run.waiting.emplace_back(id, std::move(path), std::move(input));
    }
    args.rval().setNumber(static_cast<double>(id));
    return true;
  }

  static bool nativeSearch(JSContext* cx, unsigned argc, JS::Value* vp) {
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    Run& run = *of(cx).run;
    std::string answer;
    if (run.calls >= run.limits->maxToolCalls) {
      answer = json{{"error", "The program made more tool calls than allowed (" + std::to_string(run.limits->maxToolCalls) + ")."},
                    {"kind", "ToolCallLimitExceeded"}}.dump();
    } else {
      ++run.calls;
      answer = run.host->search(toUtf8(cx, args.get(0)));
    }
    JSString* string = newString(cx, answer);
    if (string == nullptr) return false;
    args.rval().setString(string);
    return true;
  }

  static bool nativeLog(JSContext* cx, unsigned argc, JS::Value* vp) {
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    Run& run = *of(cx).run;
    const std::string level = toUtf8(cx, args.get(0));
    std::string line = toUtf8(cx, args.get(1));
    if (level == "warn" || level == "error") line = level + ": " + line;
    if (run.logBytes + line.size() > run.limits->maxLogBytes) {
      run.logsCut = true;
    } else {
      run.logBytes += line.size() + 1;
      run.logs.push_back(std::move(line));
    }
    args.rval().setUndefined();
    return true;
  }

  // Why the last engine call failed, as a diagnostic; clears the pending exception.
  Diagnostic failure(JS::HandleObject bootstrap) {
    if (timedOut) return diagnostic(diagnostic_kind::kTimeoutExceeded, "The program ran out of time.");
    if (outOfMemory)
      return diagnostic(diagnostic_kind::kMemoryLimitExceeded, "The program used more memory than allowed.",
                        {"Process data in smaller pieces, or return less."});
    if (cancelled) return diagnostic(diagnostic_kind::kExecutionFailure, "The program was cancelled.");
    if (!JS_IsExceptionPending(cx))
      return diagnostic(diagnostic_kind::kMemoryLimitExceeded, "The program ran out of memory.",
                        {"Process data in smaller pieces, or return less."});
    JS::RootedValue exception(cx);
    if (!JS_GetPendingException(cx, &exception)) return diagnostic(diagnostic_kind::kExecutionFailure, "Unknown failure.");
    JS_ClearPendingException(cx);
    if (exception.isString()) {
      std::string text = toUtf8(cx, exception);
      if (text.find("out of memory") != std::string::npos)
        return diagnostic(diagnostic_kind::kMemoryLimitExceeded, "The program ran out of memory.",
                          {"Process data in smaller pieces, or return less."});
    }
    if (!bootstrap) {
      // Before the bootstrap exists there is nothing to describe with: the engine's own report.
      JS_SetPendingException(cx, exception);
      return syntaxError(diagnostic_kind::kExecutionFailure);
    }
    return describe(bootstrap, exception);
  }

  Diagnostic describe(JS::HandleObject bootstrap, JS::HandleValue reason) {
    JS::RootedValue out(cx);
    JS::RootedValueArray<1> argv(cx);
    argv[0].set(reason);
    if (!JS_CallFunctionName(cx, bootstrap, "describe", argv, &out)) {
      JS_ClearPendingException(cx);
      return diagnostic(diagnostic_kind::kExecutionFailure, "The program failed, and its error could not be read.");
    }
    try {
      Diagnostic d = diagnosticFromJson(json::parse(toUtf8(cx, out)));
      if (d.message.find("out of memory") != std::string::npos) d.kind = diagnostic_kind::kMemoryLimitExceeded;
      return d;
    } catch (const std::exception&) {
      return diagnostic(diagnostic_kind::kExecutionFailure, "The program failed, and its error could not be read.");
    }
  }

  // The bootstrap, compiled once: each program's global instantiates it (compiling its 8 KB again
  // for every program was a third of an execute's own time).
  RefPtr<JS::Stencil> bootstrapStencil;

  bool evaluateBootstrap(JS::MutableHandleValue out) {
    JS::CompileOptions options(cx);
    options.setFileAndLine("codemode-bootstrap.js", 1);
    // Every function compiled now: left lazy, each program's first call of each re-parsed it (a
    // third of a trivial execute).
    options.setForceFullParse();
    if (!bootstrapStencil) {
      JS::SourceText<mozilla::Utf8Unit> source;
      if (!source.init(cx, kProgramBootstrap, std::strlen(kProgramBootstrap), JS::SourceOwnership::Borrowed)) return false;
      bootstrapStencil = JS::CompileGlobalScriptToStencil(cx, options, source);
      if (!bootstrapStencil) return false;
    }
    JS::InstantiateOptions instantiate(options);
    JS::RootedScript script(cx, JS::InstantiateGlobalStencil(cx, instantiate, bootstrapStencil));
    return script && JS_ExecuteScript(cx, script, out);
  }

  bool evaluate(const std::string& text, const char* file, unsigned line, JS::MutableHandleValue out) {
    JS::CompileOptions options(cx);
    options.setFileAndLine(file, line);
    JS::SourceText<mozilla::Utf8Unit> source;
    if (!source.init(cx, text.data(), text.size(), JS::SourceOwnership::Borrowed)) return false;
    return JS::Evaluate(cx, options, source, out);
  }

  // The syntax error of `wrapped` (the pending exception), as "message (line L, column C)".
  Diagnostic syntaxError(const char* kind) {
    JS::ExceptionStack stack(cx);
    if (!JS::StealPendingExceptionStack(cx, &stack)) return diagnostic(kind, "The program could not be compiled.");
    JS::ErrorReportBuilder report(cx);
    if (!report.init(cx, stack, JS::ErrorReportBuilder::WithSideEffects) || report.report() == nullptr)
      return diagnostic(kind, "The program could not be compiled.");
    const JSErrorReport* error = report.report();
    const char* message = error->message() ? error->message().c_str() : "syntax error";
    Diagnostic d = diagnostic(kind, std::string(message) + " (line " + std::to_string(error->lineno) + ", column " +
                                        std::to_string(error->column + 1) + ")");
    d.location = json{{"line", error->lineno}, {"column", error->column + 1}};
    return d;
  }

  // A program's world: its global with every standard class made (SpiderMonkey makes them on
  // first use) and the bootstrap's functions — all but the tools tree, which needs the program's
  // paths. prepare() makes the next one while the worker is idle; it serves one program.
  struct World {
    std::unique_ptr<JS::PersistentRootedObject> global, bootstrap;
  };
  std::optional<World> nextWorld;

  // False with the engine's exception pending when the world cannot be made.
  bool makeWorld(World& world) {
    JS::RealmOptions options;
    JS::RootedObject global(cx, JS_NewGlobalObject(cx, &kGlobalClass, nullptr, JS::FireOnNewGlobalHook, options));
    if (!global) return false;
    JSAutoRealm realm(cx, global);
    JS::RootedObject host(cx, JS_NewPlainObject(cx));
    JS::RootedValue factory(cx), made(cx);
    if (!host || !JS::InitRealmStandardClasses(cx) || !JS_DefineFunction(cx, host, "call", nativeCall, 2, 0) ||
        !JS_DefineFunction(cx, host, "search", nativeSearch, 1, 0) || !JS_DefineFunction(cx, host, "log", nativeLog, 2, 0) ||
        !evaluateBootstrap(&factory))
      return false;
    JS::RootedValueArray<1> factoryArgs(cx);
    factoryArgs[0].setObject(*host);
    if (!JS_CallFunctionValue(cx, nullptr, factory, factoryArgs, &made) || !made.isObject()) return false;
    JS::RootedObject bootstrap(cx, &made.toObject());
    for (const char* name : {"search", "console"}) {
      JS::RootedValue value(cx);
      if (!JS_GetProperty(cx, bootstrap, name, &value) ||
          !JS_DefineProperty(cx, global, name, value, JSPROP_READONLY | JSPROP_PERMANENT))
        return false;
    }
    // WebAssembly would be a way around the interpreter-only engine; it is not part of the subset.
    JS::ObjectOpResult deletion;
    if (!JS_DeleteProperty(cx, global, "WebAssembly", deletion)) return false;
    world.global = std::make_unique<JS::PersistentRootedObject>(cx, global);
    world.bootstrap = std::make_unique<JS::PersistentRootedObject>(cx, bootstrap);
    return true;
  }

  // The program with `return ` before its last top-level expression (implicit_return.h), or as it
  // is. The parser's global is made once and kept: programs never see it, nor it them.
  std::unique_ptr<JS::PersistentRootedObject> parser;

  std::string withImplicitReturn(const std::string& text) {
    if (!parser) {
      JS::RealmOptions options;
      JS::RootedObject global(cx, JS_NewGlobalObject(cx, &kGlobalClass, nullptr, JS::FireOnNewGlobalHook, options));
      if (!global) {
        JS_ClearPendingException(cx);
        return text;
      }
      JSAutoRealm realm(cx, global);
      JS::RootedValue function(cx);
      if (!JS_InitReflectParse(cx, global) || !evaluate(kImplicitReturn, "codemode-implicit-return.js", 1, &function) ||
          !JS_DefineProperty(cx, global, "implicitReturn", function, JSPROP_READONLY)) {
        JS_ClearPendingException(cx);
        return text;
      }
      parser = std::make_unique<JS::PersistentRootedObject>(cx, global);
    }
    JS::RootedObject global(cx, parser->get());
    JSAutoRealm realm(cx, global);
    JSString* string = newString(cx, text);
    JS::RootedValueArray<1> args(cx);
    JS::RootedValue out(cx);
    if (string != nullptr) args[0].setString(string);
    if (string == nullptr || !JS_CallFunctionName(cx, global, "implicitReturn", args, &out)) {
      JS_ClearPendingException(cx); // compiling the text as it is reports what went wrong
      return text;
    }
    return out.isString() ? toUtf8(cx, out) : text;
  }

  // Compiles the program into `function`, erasing TypeScript first; a failure is a ParseError of
  // what the model wrote.
  std::optional<Diagnostic> compile(const std::string& source, JS::MutableHandleValue function) {
    const BlankedProgram blanked = blankTypes(source);
    if (!blanked.unsupported.empty())
      return diagnostic(diagnostic_kind::kUnsupportedSyntax,
                        "TypeScript `" + blanked.unsupported.front() + "` cannot run in Code Mode.",
                        {"Write plain JavaScript: use an object of constants instead of an enum, and plain objects "
                         "or functions instead of a namespace."});
    // Line 1 of the program is line 1 of the wrapper's body.
    const std::string text = endsWithReturnStatement(blanked.text) ? blanked.text : withImplicitReturn(blanked.text);
    if (evaluate("(async () => {\n" + text + "\n})", "program.js", 0, function)) return std::nullopt;
    if (timedOut || cancelled || !JS_IsExceptionPending(cx)) return failure(nullptr);
    if (blanked.text == source) return syntaxError(diagnostic_kind::kParseError);
    JS_ClearPendingException(cx);
    JS::RootedValue ignored(cx);
    if (evaluate("(async () => {\n" + source + "\n})", "program.js", 0, &ignored))
      return diagnostic(diagnostic_kind::kParseError, "The program could not be compiled.");
    Diagnostic d = syntaxError(diagnostic_kind::kParseError);
    d.suggestions.push_back("Code Mode runs JavaScript: remove TypeScript-only syntax the program still has.");
    return d;
  }

  void startWaiting() {
    while (!run->waiting.empty() && run->inFlight < run->limits->maxInFlight) {
      auto [id, path, input] = std::move(run->waiting.front());
      run->waiting.pop_front();
      ++run->inFlight;
      run->running.insert(id);
      run->host->startCall(id, path, input);
    }
  }

  ProgramResult execute(const std::string& source, const std::vector<ToolPath>& tools, JS::HandleObject global,
                        JS::HandleObject bootstrap) {
    ProgramResult result;
    auto fail = [&](Diagnostic d) {
      result.ok = false;
      result.error = std::move(d);
      return result;
    };
    // The tools tree, the one part of the world that needs the program.
    JSString* pathsString = newString(cx, toolTreeJson(tools));
    if (pathsString == nullptr) return fail(failure(bootstrap));
    JS::RootedValueArray<1> pathsArgs(cx);
    pathsArgs[0].setString(pathsString);
    JS::RootedValue tree(cx);
    if (!JS_CallFunctionName(cx, bootstrap, "makeTools", pathsArgs, &tree) ||
        !JS_DefineProperty(cx, global, "tools", tree, JSPROP_READONLY | JSPROP_PERMANENT))
      return fail(failure(bootstrap));

    JS::RootedValue function(cx);
    if (auto error = compile(source, &function)) return fail(std::move(*error));
    JS::RootedValue returned(cx);
    if (!JS::Call(cx, JS::UndefinedHandleValue, function, JS::HandleValueArray::empty(), &returned) ||
        !returned.isObject())
      return fail(failure(bootstrap));
    JS::RootedObject promise(cx, &returned.toObject());
    js::RunJobs(cx);

    const auto deadline = std::chrono::steady_clock::now() + run->limits->timeout;
    std::vector<ToolCompletion> done;
    while (JS::GetPromiseState(promise) == JS::PromiseState::Pending) {
      if (stop) {
        result.interrupted = true;
        return fail(failure(bootstrap));
      }
      if (run->inFlight == 0 && run->waiting.empty())
        return fail(diagnostic(diagnostic_kind::kExecutionFailure,
                               "The program is waiting for a promise that nothing will settle.",
                               {"Await tool calls and promises that settle; a `new Promise` must call resolve or reject."}));
      done.clear();
      completions->wait(deadline, done);
      if (std::chrono::steady_clock::now() >= deadline && done.empty()) {
        timedOut = true;
        stop = true;
        continue;
      }
      for (const auto& completion : done) {
        if (run->running.erase(completion.id) == 0) continue; // an earlier program's
        --run->inFlight;
        JS::RootedValueArray<4> args(cx);
        args[0].setNumber(static_cast<double>(completion.id));
        args[1].setBoolean(completion.ok);
        JSString* text = completion.text ? newTextString(cx, completion.json) : newString(cx, completion.json);
        if (text == nullptr) return fail(failure(bootstrap));
        args[2].setString(text);
        args[3].setBoolean(completion.text); // the value itself, not its JSON
        JS::RootedValue ignored(cx);
        if (!JS_CallFunctionName(cx, bootstrap, "complete", args, &ignored)) {
          if (stop || !JS_IsExceptionPending(cx)) {
            result.interrupted = true;
            return fail(failure(bootstrap));
          }
          JS_ClearPendingException(cx);
        }
      }
      startWaiting();
      js::RunJobs(cx);
    }
    if (stop) {
      result.interrupted = true;
      return fail(failure(bootstrap));
    }
    JS::RootedValue settled(cx, JS::GetPromiseResult(promise));
    if (JS::GetPromiseState(promise) == JS::PromiseState::Rejected) {
      fail(describe(bootstrap, settled));
    } else {
      JS::RootedValue encoded(cx);
      JS::RootedValueArray<1> args(cx);
      args[0].set(settled);
      if (!JS_CallFunctionName(cx, bootstrap, "encode", args, &encoded)) {
        fail(failure(bootstrap));
      } else {
        try {
          result.value = json::parse(toUtf8(cx, encoded));
          result.ok = true;
        } catch (const std::exception&) {
          fail(diagnostic(diagnostic_kind::kInvalidDataValue, "The program's value is not JSON data."));
        }
      }
    }
    // Rejections nobody handled become warnings, not failures; past the cap they are counted.
    std::size_t unlisted = 0;
    for (const auto& rejected : run->unhandled) {
      if (rejected->get() == promise.get()) continue;
      if (result.warnings.size() >= run->limits->maxWarnings) {
        ++unlisted;
        continue;
      }
      JS::RootedObject p(cx, rejected->get());
      JS::RootedValue reason(cx, JS::GetPromiseResult(p));
      result.warnings.push_back(describe(bootstrap, reason));
    }
    if (unlisted > 0)
      result.warnings.push_back(diagnostic(diagnostic_kind::kTruncated, std::to_string(unlisted) +
                                                                            " more rejected promises nobody awaited."));
    const std::size_t left = run->inFlight + run->waiting.size();
    if (left > 0)
      result.warnings.push_back(diagnostic(diagnostic_kind::kToolFailure,
                                           std::to_string(left) + " tool call(s) were still running when the program "
                                           "returned; they were cancelled. Await every call whose result matters."));
    return result;
  }
};

bool JsEngine::initializeProcess() {
  JS::DisableJitBackend(); // no executable memory at all, WebAssembly included
  return JS_Init();
}

void JsEngine::shutdownProcess() { JS_ShutDown(); }

JsEngine::JsEngine(const EngineOptions& options) : impl_(std::make_unique<Impl>()) {
  JSContext* cx = JS_NewContext(static_cast<std::uint32_t>(std::min<std::size_t>(options.gcHeapBytes, 0xffffffffu)));
  if (cx == nullptr) throw std::runtime_error("cannot create a JavaScript context");
  impl_->cx = cx;
  JS_SetContextPrivate(cx, impl_.get());
  if (!js::UseInternalJobQueues(cx) || !JS::InitSelfHostedCode(cx)) {
    JS_DestroyContext(cx);
    throw std::runtime_error("cannot start the JavaScript engine's self-hosted code");
  }
  JS_SetNativeStackQuota(cx, nativeStackQuota());
  JS_AddInterruptCallback(cx, &Impl::onInterrupt);
  JS_SetSecurityCallbacks(cx, &kSecurity);
  JS::SetPromiseRejectionTrackerCallback(cx, &Impl::trackRejection, impl_.get());
}

JsEngine::~JsEngine() {
  impl_->parser.reset(); // a root must go before its context
  impl_->nextWorld.reset();
  impl_->bootstrapStencil = nullptr;
  JS_DestroyContext(impl_->cx);
}

ProgramResult JsEngine::run(const std::string& source, const std::vector<ToolPath>& tools, const ProgramLimits& limits,
                            ProgramHost& host, CompletionSource& completions) {
  Impl& impl = *impl_;
  impl.stop = false;
  impl.timedOut = false;
  impl.outOfMemory = false;
  impl.cancelled = false;
  impl.completions = &completions;
  Impl::Run run;
  run.host = &host;
  run.limits = &limits;
  impl.run = &run;

  // The wall clock also stops a program that never yields (the interrupt callback ends it), and
  // the resident size one that allocates outside the GC heap.
  impl.watchdog.arm(std::chrono::steady_clock::now() + limits.timeout, limits.maxResidentBytes,
                    [&impl, &completions](ProgramWatchdog::Reason reason) {
                      (reason == ProgramWatchdog::Reason::kTimeout ? impl.timedOut : impl.outOfMemory) = true;
                      impl.stop = true;
                      JS_RequestInterruptCallback(impl.cx);
                      completions.wake();
                    });

  ProgramResult result;
  {
    Impl::World world;
    if (impl.nextWorld) {
      world = std::move(*impl.nextWorld);
      impl.nextWorld.reset();
    }
    if (!world.global && !impl.makeWorld(world)) {
      result.error = impl.failure(nullptr);
      JS_ClearPendingException(impl.cx);
    } else {
      JS::RootedObject global(impl.cx, world.global->get()), bootstrap(impl.cx, world.bootstrap->get());
      JSAutoRealm realm(impl.cx, global);
      result = impl.execute(source, tools, global, bootstrap);
      JS_ClearPendingException(impl.cx);
    }
  }
  impl.watchdog.disarm();
  result.interrupted = result.interrupted || impl.stop;
  if (run.logsCut)
    result.warnings.push_back(diagnostic(diagnostic_kind::kTruncated, "Console output was cut at " +
                                                                          std::to_string(limits.maxLogBytes) + " bytes."));
  result.logs = std::move(run.logs);
  run.unhandled.clear(); // drop the roots before the global can go
  impl.run = nullptr;
  JS_MaybeGC(impl.cx);
  return result;
}

void JsEngine::prepare() {
  Impl& impl = *impl_;
  if (impl.nextWorld) return;
  Impl::World world;
  if (!impl.makeWorld(world)) return JS_ClearPendingException(impl.cx);
  impl.nextWorld = std::move(world);
}

void JsEngine::collect() { JS_GC(impl_->cx, JS::GCReason::API); }

void JsEngine::cancel() {
  impl_->cancelled = true;
  impl_->stop = true;
  JS_RequestInterruptCallback(impl_->cx);
  if (impl_->completions != nullptr) impl_->completions->wake();
}

} // namespace toold::codemode
