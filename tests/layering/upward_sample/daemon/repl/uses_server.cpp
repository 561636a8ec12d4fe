// The REPL reaching into the server: the check must refuse it.
#include "daemon/server.h"
#include "protocol/framing.h"
