#!/usr/bin/env bash
# Builds the Pulumi CLI and the Node.js language host from Go modules into a directory.
#
#   bash tools/build-pulumi.sh <version without v> <output bin dir>
#
# Why from Go modules: machines here reach only the npm registry, Debian's packages and the Go
# module proxy, so Pulumi's own installer is out of reach. Two small modules pin
# what is built (see tools/README.md for why there are two):
#   tools/pulumi-cli               github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
#   tools/pulumi-language-nodejs   the Node.js language host
# Go's module and build caches (about 3.5 GB for this build) are kept under the output's cache
# root, not in ~/go and ~/.cache/go-build, and removed once the binaries are built: nothing else
# needs them, and a later build (a new Pulumi version) fetches what it needs again.
set -euo pipefail

version=${1:?usage: build-pulumi.sh <version> <bin dir>}
out_dir=${2:?usage: build-pulumi.sh <version> <bin dir>}
tools_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

say() { printf '[build-pulumi] %s\n' "$*" >&2; }

command -v go >/dev/null 2>&1 || {
  say "Go is needed to build the Pulumi CLI (apt-get install golang-go, or put a pulumi v$version on PATH)"
  exit 1
}

mkdir -p "$out_dir"
tmp_dir=$(mktemp -d "$out_dir/.build.XXXXXX")
# The caches live inside the build's own temporary directory, so every exit path removes them.
# `go clean -modcache` first: the module cache's files are read-only, which a plain rm -rf
# cannot remove as a non-root user.
export GOMODCACHE="$tmp_dir/go-mod" GOCACHE="$tmp_dir/go-build"
trap 'go clean -modcache >/dev/null 2>&1; rm -rf "$tmp_dir"' EXIT

pinned=$(cd "$tools_dir/pulumi-cli" && go list -m -f '{{.Version}}' github.com/pulumi/pulumi/pkg/v3)
if [ "$pinned" != "v$version" ]; then
  say "tools/pulumi-cli pins pkg/v3 $pinned but the @pulumi/pulumi dependency is $version;"
  say "update tools/pulumi-cli/go.mod (go get github.com/pulumi/pulumi/pkg/v3@v$version) or the npm pin so they match"
  exit 1
fi


# The flags Pulumi's own release build uses (.goreleaser.yml): no cgo user lookups, no gRPC tracing.
flags=(-trimpath -tags osusergo,grpcnotrace)
ldflags="-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version"

start=$(date +%s)
say "building pulumi v$version (first build on a machine takes several minutes)"
(cd "$tools_dir/pulumi-cli" &&
  go build "${flags[@]}" -ldflags "$ldflags" -o "$tmp_dir/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi)

say "building pulumi-language-nodejs"
(cd "$tools_dir/pulumi-language-nodejs" &&
  go build "${flags[@]}" -o "$tmp_dir/pulumi-language-nodejs" github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs)

mv -f "$tmp_dir/pulumi" "$tmp_dir/pulumi-language-nodejs" "$out_dir/"
say "done in $(($(date +%s) - start))s: $("$out_dir/pulumi" version) in $out_dir"
