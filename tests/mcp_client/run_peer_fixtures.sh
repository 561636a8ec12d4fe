#!/usr/bin/env bash
# Plays tests/mcp_client/peers/*.fixture against toold with the npm MCP servers
# @modelcontextprotocol/server-everything and server-filesystem as real peers. They are installed
# by scripts/mcp-peers into .bench/mcp-peers/; without node or without them the test is skipped
# (exit 77) with a note, and never reaches the network itself.
#   run_peer_fixtures.sh TOOLD_FIXTURE TOOLD SOURCE_ROOT
set -euo pipefail
runner=$1 toold=$2 root=$3
peers="$root/.bench/mcp-peers"
if ! command -v node >/dev/null; then
  echo "mcp peers: node is missing; skipped"; exit 77
fi
if [ ! -x "$peers/node_modules/.bin/mcp-server-everything" ] || [ ! -x "$peers/node_modules/.bin/mcp-server-filesystem" ]; then
  echo "mcp peers: the npm servers are not installed (run scripts/mcp-peers); skipped"; exit 77
fi
export TOOLD_MCP_PEERS="$peers"
exec "$runner" --toold "$toold" "$root"/tests/mcp_client/peers/*.fixture
