#!/usr/bin/env bash
# Generates the native provider's Python, Go and Node.js SDKs from its schema and checks them: the
# schema binds (validates), the Python byte-compiles (with examples/lab-python), the Go builds, and
# the Node.js SDK is the one committed in sdk/nodejs (which the package ships compiled as
# `pulumi-xcat/native`; `npm run build` compiles it).
#
#   bash tools/check-sdks.sh <schema.json> <out dir> [--update]
#
# --update writes the generated Node.js SDK into sdk/nodejs instead of failing on a difference
# (`npm run native-sdk` does that after a build).
#
# sdkgen (tools/sdkgen) is built once per version of its sources into the cache; the Go module
# and build caches of sdkgen and of the Go SDK's build are kept in the cache too
# (~/.cache/pulumi-xcat/native-sdk-go), so that after the first run (minutes) a check takes
# seconds. Go builds run niced: the machines are shared.
set -euo pipefail

schema=${1:?usage: check-sdks.sh <schema.json> <out dir> [--update]}
out_dir=${2:?usage: check-sdks.sh <schema.json> <out dir>}
update=${3:-}
tools_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(dirname "$tools_dir")
cache_root=${PULUMI_XCAT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-xcat}
go_cache="$cache_root/native-sdk-go"
export GOMODCACHE="$go_cache/mod" GOCACHE="$go_cache/build" GOFLAGS=-mod=mod

say() { printf '[check-sdks] %s\n' "$*" >&2; }
command -v go >/dev/null 2>&1 || { say "Go is needed to generate and build the SDKs"; exit 1; }
command -v python3 >/dev/null 2>&1 || { say "python3 is needed to byte-compile the Python SDK"; exit 1; }

sources_hash=$(cat "$tools_dir/sdkgen/go.mod" "$tools_dir/sdkgen/go.sum" "$tools_dir/sdkgen/main.go" | sha256sum | cut -c1-16)
sdkgen="$cache_root/sdkgen-$sources_hash/sdkgen"
if [ ! -x "$sdkgen" ]; then
  mkdir -p "$(dirname "$sdkgen")"
  exec 6>"$cache_root/.sdkgen-build.lock"
  command -v flock >/dev/null 2>&1 && flock 6
  if [ ! -x "$sdkgen" ]; then
    say "building sdkgen (pkg/v3 code generators; a few minutes the first time)"
    (cd "$tools_dir/sdkgen" && nice -n 10 go build -trimpath -o "$sdkgen.tmp" . && mv -f "$sdkgen.tmp" "$sdkgen")
  fi
  exec 6>&-
fi

rm -rf "$out_dir" && mkdir -p "$out_dir"
"$sdkgen" "$schema" "$out_dir"

# Byte-code goes below the output folder, not beside examples/lab-python.
PYTHONPYCACHEPREFIX="$out_dir/.pycache" python3 -m py_compile $(find "$out_dir/python" -name '*.py') "$repo_root/examples/lab-python/__main__.py"
say "python: $(find "$out_dir/python" -name '*.py' | wc -l) files byte-compile"

cp "$tools_dir/sdkgen/go-sdk/go.mod" "$tools_dir/sdkgen/go-sdk/go.sum" "$out_dir/go/"
(cd "$out_dir/go" && nice -n 10 go build ./...)
say "go: the SDK builds"

# The Node.js SDK is committed (sdk/nodejs), as Pulumi's providers keep sdk/: building the package
# needs no Go, and a change of the classes' docs or inputs shows as a diff of the public API.
committed="$repo_root/sdk/nodejs"
if [ "$update" = "--update" ]; then
  rm -rf "$committed" && mkdir -p "$committed" && cp -R "$out_dir/nodejs/." "$committed/"
  say "nodejs: sdk/nodejs written ($(find "$committed" -name '*.ts' | wc -l) files)"
elif diff -r "$committed" "$out_dir/nodejs" >"$out_dir/nodejs.diff" 2>&1; then
  say "nodejs: sdk/nodejs is what the schema generates"
else
  say "nodejs: sdk/nodejs differs from what the schema generates (below); run: npm run native-sdk"
  head -n 40 "$out_dir/nodejs.diff" >&2
  exit 1
fi
