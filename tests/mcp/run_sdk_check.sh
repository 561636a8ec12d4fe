#!/usr/bin/env bash
# Runs one check script (sdk_client.mjs by default) against toold with the official MCP TypeScript
# SDK, installed (pinned) from the npm registry into the build tree on first use. Exits 77 (CTest:
# skipped) without node/npm.
#   run_sdk_check.sh TOOLD BUILD_DIR [SCRIPT]
set -euo pipefail
toold=$1
build_dir=$2
script=${3:-sdk_client.mjs}
sdk_version=1.32.2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "mcp-sdk: node or npm is missing; skipped"
  exit 77
fi
sdk_dir="$build_dir/mcp-sdk"
installed=$(node -p "require('$sdk_dir/node_modules/@modelcontextprotocol/sdk/package.json').version" 2>/dev/null || true)
if [ "$installed" != "$sdk_version" ]; then
  mkdir -p "$sdk_dir"
  [ -f "$sdk_dir/package.json" ] || echo '{"private": true, "type": "module"}' >"$sdk_dir/package.json"
  (cd "$sdk_dir" && npm install --no-audit --no-fund --silent "@modelcontextprotocol/sdk@$sdk_version")
fi
# Node resolves bare imports from the script's folder upward, so run a copy beside node_modules.
cp "$here/$script" "$sdk_dir/$script"
workspace=$(mktemp -d)
data_dir=$(mktemp -d)
trap 'rm -rf "$workspace" "$data_dir"' EXIT
node "$sdk_dir/$script" "$toold" "$workspace" "$data_dir"

