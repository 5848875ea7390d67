#!/usr/bin/env bash
# Installs the prebuilt DuckDB shared library (libduckdb.so, DuckDB 1.5.6) into
# /usr/local/lib from the npm registry's node-bindings package, so the `duckdb` crate
# links against it without compiling DuckDB's C++ (idempotent).
set -euo pipefail
version="1.5.6-r.1"
lib_dir="${DUCKDB_LIB_DIR:-/usr/local/lib}"
stamp="$lib_dir/.libduckdb-$version"
if [ -f "$lib_dir/libduckdb.so" ] && [ -f "$stamp" ]; then
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "@duckdb/node-bindings-linux-x64@$version" >/dev/null)
tar -xzf "$work"/*.tgz -C "$work"
mkdir -p "$lib_dir"
install -m 0755 "$work/package/libduckdb.so" "$lib_dir/libduckdb.so"
touch "$stamp"
command -v ldconfig >/dev/null && ldconfig || true
echo "installed libduckdb.so $version into $lib_dir"
