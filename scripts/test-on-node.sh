#!/usr/bin/env bash
# Checks that a fresh copy of this checkout installs, builds, starts and serves the SDK on another
# supported Node.js major (the suite itself runs on the newest LTS):
#   bash scripts/test-on-node.sh 22
# The copy holds the tracked and new files, none of the installed ones, so the native addons are
# built or chosen for that Node.js as a user's install would.
set -euo pipefail
major="${1:?usage: test-on-node.sh <major>}"
root="$(cd "$(dirname "$0")/.." && pwd)"
prefix="$(bash "$root/scripts/install-node.sh" "$major")"
export PATH="$prefix/bin:$PATH" npm_config_nodedir="$prefix"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Run as root, the start-up tests start the server as `nobody`, which must be able to read the copy.
chmod 755 "$work"
(cd "$root" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar -cf - 2>/dev/null) | tar -xf - -C "$work"
# The Python SDK's virtualenv does not depend on Node.js: reuse the suite's instead of a second pip install.
if [ -d "$root/server/tests/sdk/.venv" ]; then ln -s "$root/server/tests/sdk/.venv" "$work/server/tests/sdk/.venv"; fi

cd "$work"
echo "=== Node.js $(node --version): install ==="
npm install --no-audit --no-fund
echo "=== Node.js $(node --version): build ==="
npm run build
echo "=== Node.js $(node --version): start, runtime and SDK tests ==="
(cd server && npx vitest run test/compiled-server.test.ts test/startup.test.ts test/runtime src/bootstrap)
npm run test:sdk -w @scholia/server
