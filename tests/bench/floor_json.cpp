// toold-bench-floor-json: the cheapest stdio JSON-RPC responder that does what any conforming
// server must do per frame, with the parser toold is built on: parse the frame into a DOM
// (nlohmann::json), check it is a request, build the response object and serialise it. One thread,
// blocking reads, writes batched per read, NDJSON only. The yardstick bench-rpc sets toold's start
// (spawn to initialize answered, start-up CPU, idle memory) and pings against: a fairer one than
// toold-bench-floor (which only scans for the id) for a daemon that must parse.
#include <nlohmann/json.hpp>

#include <string>
#include <unistd.h>

int main() {
  static char buf[1 << 16];
  std::string in, out;
  for (;;) {
    const ssize_t k = read(0, buf, sizeof buf);
    if (k <= 0) return 0;
    in.append(buf, static_cast<std::size_t>(k));
    std::size_t start = 0, nl;
    while ((nl = in.find('\n', start)) != std::string::npos) {
      auto msg = nlohmann::json::parse(in.begin() + static_cast<long>(start), in.begin() + static_cast<long>(nl), nullptr, false);
      start = nl + 1;
      if (msg.is_discarded() || !msg.is_object() || !msg.contains("method") || !msg.contains("id")) continue;
      nlohmann::json reply = {{"jsonrpc", "2.0"}, {"id", msg["id"]}, {"result", nlohmann::json::object()}};
      out += reply.dump();
      out += '\n';
    }
    in.erase(0, start);
    if (!out.empty()) {
      (void)!write(1, out.data(), out.size());
      out.clear();
    }
  }
}
