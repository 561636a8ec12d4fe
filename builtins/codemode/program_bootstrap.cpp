#include "builtins/codemode/program_bootstrap.h"

namespace toold::codemode {

const char* const kProgramBootstrap = R"JS((function (host) {
  "use strict";
  const stringify = JSON.stringify, parse = JSON.parse, isArray = Array.isArray, keys = Object.keys;
  const freeze = Object.freeze, defineProperty = Object.defineProperty, reflectGet = Reflect.get;
  const deleteProperty = Reflect.deleteProperty, join = Array.prototype.join, concat = Array.prototype.concat;
  const ErrorType = Error, PromiseType = Promise, ProxyType = Proxy, MapType = Map, SetType = Set;
  const RegExpType = RegExp, DateType = Date, StringType = String;
  const toISOString = Date.prototype.toISOString, getTime = Date.prototype.getTime;
  const apply = Reflect.apply, isFiniteNumber = Number.isFinite;
  const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
  const testIdentifier = RegExp.prototype.test;
  const pending = new MapType();
  const mapGet = Map.prototype.get, mapSet = Map.prototype.set, mapDelete = Map.prototype.delete;
  const kMaxDepth = 32;

  function put(object, key, value) {
    defineProperty(object, key, {value, enumerable: true, writable: true, configurable: true});
  }
  function toolError(kind, message, suggestions) {
    const error = new ErrorType(message);
    defineProperty(error, "codemodeKind", {value: kind});
    if (suggestions) defineProperty(error, "codemodeSuggestions", {value: suggestions});
    return error;
  }
  function expression(segments) {
    let text = "tools";
    for (const segment of segments)
      text += apply(testIdentifier, identifier, [segment]) ? "." + segment : "[" + stringify(segment) + "]";
    return text;
  }
  // A value as JSON data: undefined and functions vanish from objects (null in arrays), Dates become
  // ISO strings, Map/Set/RegExp become {}, non-finite numbers null; deeper than 32 is an error.
  function toData(value, depth) {
    if (depth > kMaxDepth)
      throw toolError("InvalidDataValue", "Value is nested deeper than " + kMaxDepth + " levels (or is circular).");
    if (value === null || value === undefined) return value;
    switch (typeof value) {
      case "string": case "boolean": return value;
      case "number": return isFiniteNumber(value) ? value : null;
      case "bigint": throw toolError("InvalidDataValue", "A BigInt cannot cross the Code Mode boundary; convert it to a string or number.");
      case "function": case "symbol": return undefined;
    }
    if (value instanceof DateType) {
      const time = apply(getTime, value, []);
      return time === time ? apply(toISOString, value, []) : null;
    }
    if (value instanceof MapType || value instanceof SetType || value instanceof RegExpType) return {};
    if (isArray(value)) {
      const out = [];
      for (let i = 0; i < value.length; i++) {
        const item = toData(value[i], depth + 1);
        put(out, i, item === undefined ? null : item);
      }
      return out;
    }
    const out = {};
    for (const key of keys(value)) {
      const item = toData(value[key], depth + 1);
      if (item !== undefined) put(out, key, item);
    }
    return out;
  }
  function encode(value) {
    const data = toData(value, 0);
    return data === undefined ? "null" : stringify(data);
  }
  function describe(reason) {
    try {
      if (reason !== null && typeof reason === "object" && "message" in reason) {
        const kind = reason.codemodeKind;
        if (typeof kind === "string")
          return stringify({kind, message: StringType(reason.message), suggestions: reason.codemodeSuggestions || []});
        const name = StringType(reason.name || "Error");
        const line = typeof reason.lineNumber === "number" && reason.lineNumber > 0 ? reason.lineNumber : 0;
        const result = {kind: "ExecutionFailure", message: name + ": " + StringType(reason.message)};
        if (line) result.location = {line, column: (reason.columnNumber | 0)};
        return stringify(result);
      }
      const text = typeof reason === "string" ? reason : encode(reason);
      return stringify({kind: "ExecutionFailure", message: "Uncaught " + text});
    } catch (e) {
      return stringify({kind: "ExecutionFailure", message: "Uncaught exception (it could not be described)"});
    }
  }

  function callTool(dotted, segments, args) {
    if (args.length > 1)
      return PromiseType.reject(toolError("InvalidToolInput", "Tool '" + expression(segments) + "' expects at most one input object."));
    let input;
    try {
      input = encode(args.length === 0 || args[0] === undefined ? {} : args[0]);
    } catch (e) {
      return PromiseType.reject(e);
    }
    const id = host.call(dotted, input);
    if (id === 0)
      return PromiseType.reject(toolError("InvalidDataValue", "A string in the input of '" + expression(segments) +
        "' holds a lone UTF-16 surrogate (half of a character, such as '\\uD800' alone); tools take valid Unicode text only."));
    if (id < 0)
      return PromiseType.reject(toolError("ToolCallLimitExceeded", "The program made more tool calls than allowed (" + (-id) + ")."));
    return new PromiseType((resolve, reject) => apply(mapSet, pending, [id, {resolve, reject}]));
  }
  function complete(id, ok, text, raw) {
    const waiter = apply(mapGet, pending, [id]);
    if (!waiter) return;
    apply(mapDelete, pending, [id]);
    const value = raw ? text : parse(text);
    if (ok) waiter.resolve(value);
    else waiter.reject(toolError(value.kind, value.message, value.suggestions));
  }

  // The tree: every node is a function (callable when a tool sits there) behind a proxy that
  // answers its children, read-only, and an unknown name with UnknownTool instead of undefined.
  // A node is made when the program first reaches it: making all of them ahead cost about 25 us
  // a tool in the interpreter, 2-3 ms per program for a hundred tools. `data` is the node as
  // toolTreeJson writes it: [callable, [[segment, node], ...]].
  function makeNode(data, segments) {
    const callable = data[0] === 1, childData = data[1];
    let dotted;
    // Methods, unlike plain functions, have no own `prototype`; without their own `name` and
    // `length` either, every own key of a node is a child's.
    const fn = callable
      ? ({node(...args) {
          if (dotted === undefined) dotted = apply(join, segments, ["."]);
          return callTool(dotted, segments, args);
        }}).node
      : ({node() { return PromiseType.reject(toolError("UnknownTool",
          segments.length ? "Tool '" + expression(segments) + "' is not callable." : "`tools` is not callable: call a tool, e.g. tools.<path>(input).",
          ["Use search({query: \"...\"}) inside the program to find a tool's exact path."])); }}).node;
    deleteProperty(fn, "name");
    deleteProperty(fn, "length");
    let children = null; // segment -> {data, made}, filled on first use
    function entry(key) {
      if (typeof key !== "string") return undefined;
      if (children === null) {
        children = new MapType();
        for (let i = 0; i < childData.length; i++)
          apply(mapSet, children, [childData[i][0], {data: childData[i][1], made: undefined}]);
      }
      return apply(mapGet, children, [key]);
    }
    function child(key) {
      const found = entry(key);
      if (found === undefined) return undefined;
      if (found.made === undefined) found.made = makeNode(found.data, apply(concat, segments, [[key]]));
      return found.made;
    }
    return new ProxyType(fn, {
      get(target, key, receiver) {
        const made = child(key);
        if (made !== undefined) return made;
        if (typeof key === "symbol" || key in target || key === "then" || key === "toJSON") return reflectGet(target, key, receiver);
        throw toolError("UnknownTool", "Unknown tool '" + expression(apply(concat, segments, [[key]])) + "'.",
                        ["Use search({query: \"...\"}) inside the program to find a tool's exact path."]);
      },
      has(target, key) { return entry(key) !== undefined || key in target; },
      ownKeys() {
        const names = [];
        for (let i = 0; i < childData.length; i++) names[i] = childData[i][0];
        return names;
      },
      getOwnPropertyDescriptor(target, key) {
        const made = child(key);
        return made === undefined ? undefined : {value: made, writable: false, enumerable: true, configurable: true};
      },
      set() { return false; },
      defineProperty() { return false; },
      deleteProperty() { return false; },
      setPrototypeOf() { return false; },
      preventExtensions() { return false; },
    });
  }
  function makeTools(treeText) {
    return makeNode(parse(treeText), []);
  }

  function search(input) {
    let request;
    try {
      request = encode(input === undefined ? {} : input);
    } catch (e) {
      throw e;
    }
    const answer = parse(host.search(request));
    if (answer.error) throw toolError(answer.kind || "InvalidToolInput", answer.error);
    return answer.result;
  }

  function show(value) {
    if (typeof value === "string") return value;
    try {
      const text = encode(value);
      return text === undefined ? StringType(value) : text;
    } catch (e) {
      return StringType(value);
    }
  }
  function logger(level) {
    return function (...values) {
      let line = "";
      for (let i = 0; i < values.length; i++) line += (i ? " " : "") + show(values[i]);
      host.log(level, line);
    };
  }
  const console = freeze({
    log: logger("log"), info: logger("info"), warn: logger("warn"), error: logger("error"), debug: logger("debug"),
  });

  return {makeTools, search, console, complete, encode, describe};
}))JS";

} // namespace toold::codemode
