// A base header reaching up into the tools room: the check must refuse it.
#pragma once
#include "core/tools/tool.h"
