#include "builtins/webfetch.h"

#include "builtins/constant_json.h"
#include "builtins/text/base64.h"
#include "builtins/tool_support.h"
#include "builtins/web/html_conversion.h"
#include "core/net/address_class.h"
#include "core/net/http_exchange.h"
#include "core/net/url.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>

namespace toold::builtins {

namespace {

using core::json;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kMaxBytes = 5 * 1024 * 1024;
constexpr int kMaxRedirects = 10;
constexpr double kDefaultTimeout = 30;
constexpr double kMaxTimeout = 120;

// What a browser sends, so that sites answer as they would to a person (opencode's choice).
constexpr const char* kBrowserAgent =
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/143.0.0.0 Safari/537.36";
constexpr const char* kHonestAgent = "opencode";

const char* kDescription = R"(- Fetches content from a specified URL
- Takes a URL and optional format as input
- Fetches the URL content, converts to requested format (markdown by default)
- Returns the content in the specified format
- Use this tool when you need to retrieve and analyze web content

Usage notes:
  - IMPORTANT: if another tool is present that offers better web fetching capabilities, is more targeted to the task, or has fewer restrictions, prefer using that tool instead of this one.
  - The URL must be a fully-formed valid URL
  - HTTP URLs are not upgraded: give https:// when you mean it
  - Format options: "markdown" (default), "text", or "html"
  - This tool is read-only and does not modify any files
  - Results may be summarized if the content is very large)";

constexpr auto kInputSchema = compactJson(R"json(
{
  "properties": {
    "format": {
      "default": "markdown",
      "description": "The format to return the content in (text, markdown, or html). Defaults to markdown.",
      "enum": ["text", "markdown", "html"],
      "type": "string"
    },
    "timeout": {
      "description": "Optional timeout in seconds (max 120)",
      "exclusiveMinimum": 0,
      "type": "number"
    },
    "url": {
      "description": "The URL to fetch content from",
      "type": "string"
    }
  },
  "required": ["url"],
  "type": "object"
})json");

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string mimeOf(const std::string& contentType) {
  std::string mime = lower(contentType.substr(0, contentType.find(';')));
  while (!mime.empty() && mime.back() == ' ') mime.pop_back();
  while (!mime.empty() && mime.front() == ' ') mime.erase(0, 1);
  return mime;
}

bool isRedirect(int status) { return status == 301 || status == 302 || status == 303 || status == 307 || status == 308; }

// One call's fetch: its state across the permission asks of redirect targets.
struct Fetch : std::enable_shared_from_this<Fetch> {
  WebfetchOptions options;
  core::ToolContext context;
  core::ToolDone done;
  std::string format;
  double timeoutSeconds = kDefaultTimeout;
  json timeoutGiven; ///< the model's `timeout` as it sent it (null when absent), for the ask
  Clock::time_point deadline;
  int redirects = 0;
  std::string firstUrl;

  void start(const core::Url& url) {
    const std::string text = url.text();
    context.assertPermission(
        core::PermissionAsk{"webfetch", {text}, {"*"}, json{{"url", text}, {"format", format}, {"timeout", timeoutGiven}}},
        [self = shared_from_this(), url](std::optional<core::ToolCompletion> refusal) {
          if (refusal) return self->done(std::move(*refusal));
          self->fetch(url);
        });
  }

  core::HttpOptions httpOptions() const {
    core::HttpOptions http;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    http.timeout = std::max(left, std::chrono::milliseconds(1));
    http.max_header_bytes = kMaxBytes;
    http.max_body_bytes = kMaxBytes;
    if (!options.allowPrivateAddresses) http.refuse_address = core::refusePrivateAddress;
    return http;
  }

  core::HttpResponse exchange(const core::Url& url, const char* agent) const {
    core::HttpRequest request;
    request.url = url;
    request.headers = {{"User-Agent", agent},
                       {"Accept", webfetchAccept(format)},
                       {"Accept-Language", "en-US,en;q=0.9"}};
    return core::httpFetch(request, httpOptions(), context.cancellation);
  }

  void fetch(const core::Url& url) {
    if (Clock::now() >= deadline) return timedOut();
    auto response = exchange(url, kBrowserAgent);
    // Cloudflare's bot challenge answers a browser's agent that runs no script; it lets an honest
    // agent through (opencode retries once the same way).
    if (response.outcome.ok() && response.outcome.head->status == 403 &&
        lower(response.outcome.head->header("cf-mitigated").value_or("")) == "challenge")
      response = exchange(url, kHonestAgent);
    const auto& outcome = response.outcome;
    if (!outcome.ok()) return failed(url, outcome);
    const auto& head = *outcome.head;
    if (isRedirect(head.status)) return redirect(url, head);
    if (head.status < 200 || head.status > 299)
      return done(failure("Request failed with status code: " + std::to_string(head.status)));
    answer(url, head, std::move(response.body));
  }

  void redirect(const core::Url& from, const core::HttpResponseHead& head) {
    const auto location = head.header("location");
    if (!location) return done(failure("Request failed with status code: " + std::to_string(head.status)));
    if (++redirects > kMaxRedirects)
      return done(failure("Too many redirects (more than " + std::to_string(kMaxRedirects) + ") starting at " + firstUrl));
    std::string error;
    auto target = core::resolveReference(from, *location, &error);
    if (!target) return done(failure("The redirect to \"" + *location + "\" cannot be followed: " + error));
    // A new target is a new fetch: asked about like the first one.
    start(*target);
  }

  void timedOut() {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", timeoutSeconds);
    done(failure(std::string("The request timed out after ") + seconds + " s"));
  }

  void failed(const core::Url& url, const core::HttpOutcome& outcome) {
    using core::HttpFailure;
    switch (outcome.failure) {
    case HttpFailure::too_large: return done(failure("Response too large (exceeds 5MB limit)"));
    case HttpFailure::timeout: return timedOut();
    case HttpFailure::cancelled: return done(failure("The request was cancelled."));
    case HttpFailure::refused_address:
      return done(failure("Cannot fetch " + url.text() + ": " + outcome.error +
                          ", which toold fetches only when toold.json allows it (webfetch.allowPrivateAddresses)."));
    default: return done(failure("Cannot fetch " + url.text() + ": " + outcome.error));
    }
  }

  void answer(const core::Url& url, const core::HttpResponseHead& head, std::string body) {
    const std::string contentType = head.header("content-type").value_or("");
    const std::string mime = mimeOf(contentType);
    json metadata{{"title", url.text() + " (" + contentType + ")"}, {"url", url.text()}, {"status", head.status}};
    if (redirects > 0) metadata["redirects"] = redirects;
    if (mime.starts_with("image/") && mime != "image/svg+xml" && mime != "image/vnd.fastbidsheet") {
      json content = json::array({json{{"type", "text"}, {"text", "Image fetched successfully"}},
                                  json{{"type", "file"}, {"uri", "data:" + mime + ";base64," + base64Encode(body)}, {"mime", mime}}});
      return done(core::ToolResult{std::nullopt, std::move(content), std::move(metadata)});
    }
    const bool html = mime == "text/html" || mime == "application/xhtml+xml";
    std::string text = std::move(body);
    if (html && format != "html") {
      auto converted = format == "markdown" ? htmlToMarkdown(text) : htmlToText(text);
      if (!converted)
        return done(failure("The page at " + url.text() +
                            " is nested too deeply to be converted; fetch it with format \"html\" for the raw page."));
      text = std::move(*converted);
    }
    done(core::ToolResult{std::nullopt, json(std::move(text)), std::move(metadata)});
  }
};

} // namespace

std::string webfetchAccept(std::string_view format) {
  if (format == "markdown") return "text/markdown;q=1.0, text/x-markdown;q=0.9, text/plain;q=0.8, text/html;q=0.7, */*;q=0.1";
  if (format == "text") return "text/plain;q=1.0, text/markdown;q=0.9, text/html;q=0.8, */*;q=0.1";
  if (format == "html")
    return "text/html;q=1.0, application/xhtml+xml;q=0.9, text/plain;q=0.8, text/markdown;q=0.7, */*;q=0.1";
  return "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8";
}

core::Tool makeWebfetchTool(std::function<WebfetchOptions()> options) {
  auto execute = [options = std::move(options)](json input, core::ToolContext context, core::ToolDone done) {
    const std::string given = input.value("url", std::string());
    if (!given.starts_with("http://") && !given.starts_with("https://"))
      return done(failure("URL must start with http:// or https://"));
    std::string error;
    auto url = core::parseUrl(given, &error);
    if (!url) return done(failure("Invalid URL \"" + given + "\": " + error));
    auto fetch = std::make_shared<Fetch>();
    fetch->options = options();
    fetch->context = std::move(context);
    fetch->done = std::move(done);
    fetch->format = input.value("format", std::string("markdown"));
    if (input.contains("timeout")) {
      fetch->timeoutGiven = input["timeout"];
      fetch->timeoutSeconds = std::min(input["timeout"].get<double>(), kMaxTimeout);
    }
    fetch->deadline = Clock::now() + std::chrono::milliseconds(static_cast<long long>(fetch->timeoutSeconds * 1000));
    fetch->firstUrl = url->text();
    fetch->start(*url);
  };
  return workerTool(kDescription, kInputSchema.view(), "webfetch", false, std::move(execute));
}

} // namespace toold::builtins
