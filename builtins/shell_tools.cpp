#include "builtins/shell_tools.h"

namespace toold::builtins {

std::string noSuchJob(const ShellJobs& jobs, const std::string& sessionID, const std::string& id) {
  const auto known = jobs.ids(sessionID);
  if (known.empty()) return "No background job \"" + id + "\": this session has none.";
  std::string list;
  for (const auto& other : known) list += (list.empty() ? "" : ", ") + other;
  return "No background job \"" + id + "\" in this session; its jobs are: " + list + ".";
}

std::string jobStatus(const JobView& job) {
  // Read as a sentence: "shell-1 has exited", not "shell-1 is exited".
  std::string verb = "is ";
  if (job.state == JobState::Exited) verb = "has ";
  else if (job.state == JobState::Killed) verb = "was ";
  else if (job.state != JobState::Running) verb.clear(); // "timed out", "failed"
  std::string text = job.id + " " + verb + std::string(jobStateName(job.state));
  if (job.state == JobState::Running) return text;
  if (job.exitCode) text += " (exit code " + std::to_string(*job.exitCode) + ")";
  if (job.signal) text += " (" + core::ExitStatus::killedBy(*job.signal).describe() + ")";
  if (!job.error.empty()) text += ": " + job.error;
  return text;
}

} // namespace toold::builtins
