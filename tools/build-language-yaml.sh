#!/usr/bin/env bash
# Builds Pulumi's YAML language host, pulumi-language-yaml, from the Go module proxy into a
# directory, for the YAML programs of the native provider (examples/lab-yaml, test/e2e).
#
#   bash tools/build-language-yaml.sh <output bin dir>
#
# The version is pinned by tools/pulumi-language-yaml/go.mod (github.com/pulumi/pulumi-yaml). As
# in build-pulumi.sh, Go's module and build caches are kept inside the build's own temporary
# directory and removed with it.
set -euo pipefail

out_dir=${1:?usage: build-language-yaml.sh <bin dir>}
tools_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

say() { printf '[build-language-yaml] %s\n' "$*" >&2; }

command -v go >/dev/null 2>&1 || {
  say "Go is needed to build pulumi-language-yaml (apt-get install golang-go, or put pulumi-language-yaml on PATH)"
  exit 1
}

mkdir -p "$out_dir"
tmp_dir=$(mktemp -d "$out_dir/.build.XXXXXX")
export GOMODCACHE="$tmp_dir/go-mod" GOCACHE="$tmp_dir/go-build"
trap 'go clean -modcache >/dev/null 2>&1; rm -rf "$tmp_dir"' EXIT

version=$(cd "$tools_dir/pulumi-language-yaml" && go list -m -f '{{.Version}}' github.com/pulumi/pulumi-yaml)
start=$(date +%s)
say "building pulumi-language-yaml $version (a few minutes the first time)"
(cd "$tools_dir/pulumi-language-yaml" &&
  nice -n 10 go build -trimpath -ldflags "-X github.com/pulumi/pulumi-yaml/pkg/version.Version=$version" \
    -o "$tmp_dir/pulumi-language-yaml" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml)
mv -f "$tmp_dir/pulumi-language-yaml" "$out_dir/"
say "done in $(($(date +%s) - start))s: $out_dir/pulumi-language-yaml"
