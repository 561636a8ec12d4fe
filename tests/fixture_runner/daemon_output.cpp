// The protocol library's own decoder splits the output, so the runner and toold agree on framing.
#include "daemon_output.h"

#include "json_error.h"

namespace toold::fixture {
namespace {

// toold's replies are far below this; the limit only keeps a runaway daemon from eating memory.
constexpr std::size_t kMaxOutputFrame = std::size_t{1} << 30;
constexpr std::size_t kShownBytes = 300;

} // namespace

DaemonOutput::DaemonOutput(DaemonProcess& process, protocol::Framing framing)
    : process_(process), decoder_(framing, kMaxOutputFrame) {}

DaemonOutput::Status DaemonOutput::next(Received& out, Clock::time_point deadline) {
  const protocol::FrameDecoder::Sink sink = [this](protocol::DecodedFrame&& frame) {
    Received received;
    if (frame.error) {
      received.garbage = "output that is not a frame: " + frame.error->message;
    } else {
      try {
        received.message = nlohmann::json::parse(frame.body);
      } catch (const nlohmann::json::exception& e) { // parse_error, and out_of_range for 1e999
        std::string shown = frame.body.substr(0, kShownBytes);
        if (frame.body.size() > kShownBytes) shown += "...";
        received.garbage = "a frame that is not JSON (" + jsonErrorText(e) + "): " + shown;
      }
    }
    queue_.push_back(std::move(received));
  };
  while (queue_.empty() && !eof_) {
    std::string bytes;
    const auto status = process_.readStdout(bytes, deadline);
    if (status == DaemonProcess::ReadStatus::Timeout) return Status::Timeout;
    if (status == DaemonProcess::ReadStatus::Eof) {
      decoder_.finish(sink);
      eof_ = true;
    } else {
      decoder_.feed(bytes, sink);
    }
  }
  if (queue_.empty()) return Status::Eof;
  out = std::move(queue_.front());
  queue_.pop_front();
  return Status::Received;
}

} // namespace toold::fixture
