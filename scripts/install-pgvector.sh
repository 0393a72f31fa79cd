#!/usr/bin/env bash
# Builds and installs the pgvector extension into every Debian PostgreSQL found under
# /usr/lib/postgresql, so the PostgreSQL tests and benches run with it (README, PostgreSQL).
# Debian 12's registry has no postgresql-15-pgvector package: the source comes through the Go
# module proxy (github.com/pgvector/pgvector is served there as a module) and is built with the
# server headers from postgresql-server-dev-<version>. Needs root (apt-get, make install) and Go.
set -euo pipefail

PGVECTOR_VERSION="${PGVECTOR_VERSION:-v0.8.0}"

for bin in /usr/lib/postgresql/*/bin; do
  version="$(basename "$(dirname "$bin")")"
  if [ -f "/usr/share/postgresql/$version/extension/vector.control" ]; then
    echo "[pgvector] already installed for PostgreSQL $version"
    continue
  fi
  if [ ! -x "$bin/pg_config" ] || [ ! -d "/usr/include/postgresql/$version/server" ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "postgresql-server-dev-$version" >/dev/null
  fi
  work="$(mktemp -d)"
  export GOPATH="$work/go" GOFLAGS=-modcacherw
  source_dir="$(cd "$work" && go mod download -json "github.com/pgvector/pgvector@$PGVECTOR_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  cp -r "$source_dir" "$work/src"
  # No -march=native (OPTFLAGS) so the build runs on any x86-64; no LLVM bitcode for the JIT.
  make -s -C "$work/src" PG_CONFIG="$bin/pg_config" OPTFLAGS="" with_llvm=no -j2 >/dev/null
  make -s -C "$work/src" PG_CONFIG="$bin/pg_config" with_llvm=no install >/dev/null
  rm -rf "$work"
  echo "[pgvector] $PGVECTOR_VERSION installed for PostgreSQL $version"
done
