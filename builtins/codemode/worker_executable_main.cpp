// toold-codemode: the Code Mode worker. toold starts it (worker_pool) and speaks the line protocol
// of worker_protocol.h on its stdin and stdout; this executable alone links the JavaScript engine.
#include "builtins/codemode/worker_protocol.h"

#include <cstdio>

int main(int argc, char** argv) {
  using namespace toold::codemode;
  WorkerSettings settings;
  if (!parseWorkerArguments(argc - 1, argv + 1, settings)) {
    std::fprintf(stderr, "%s: bad arguments; usage: %s [--memory-mb N] [--heap-mb N] [--resident-mb N] "
                         "(started by toold, which speaks to it on stdin and stdout)\n",
                 kWorkerExecutableName, kWorkerExecutableName);
    return 2;
  }
  return runWorker(settings);
}
