// The $/test/ methods: slow, failing and misbehaving requests, bound only with --test-methods,
// so fixtures and benchmarks can exercise cancellation, defects and client round trips.
#pragma once

namespace toold::daemon {

class Server;

void bindTestMethods(Server& server);

} // namespace toold::daemon
