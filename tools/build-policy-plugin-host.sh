#!/usr/bin/env bash
# Builds tools/policy-plugin-host (the Node.js language host with RunPlugin for policy packs and
# GenerateProgram for `pulumi import`, see README.md here) from Go modules into a directory, as pulumi-language-nodejs,
# and its GenerateProgram generator as libexec/generate-program beside it (a program of its own, so
# that the host every engine command starts twice does not link Pulumi's codegen).
#
#   bash tools/build-policy-plugin-host.sh <output dir>
set -euo pipefail

out_dir=${1:?usage: build-policy-plugin-host.sh <output dir>}
tools_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# Go's module and build caches are those of tools/sdkgen (check-sdks.sh): both build pkg/v3's code
# generators at the same version, so the second of them to build compiles little.
cache_root=${PULUMI_XCAT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-xcat}
export GOMODCACHE="$cache_root/native-sdk-go/mod" GOCACHE="$cache_root/native-sdk-go/build" GOFLAGS=-mod=mod

say() { printf '[build-policy-plugin-host] %s\n' "$*" >&2; }

command -v go >/dev/null 2>&1 || {
  say "Go is needed to build the policy plugin host (apt-get install golang-go)"
  exit 1
}
mkdir -p "$out_dir"
tmp_dir=$(mktemp -d "$out_dir/.build.XXXXXX")
trap 'rm -rf "$tmp_dir"' EXIT
start=$(date +%s)
say "building the policy plugin host (pulumi-language-nodejs with RunPlugin for policy packs)"
(cd "$tools_dir/policy-plugin-host" && nice -n 10 go build -trimpath -o "$tmp_dir/pulumi-language-nodejs" . &&
  nice -n 10 go build -trimpath -o "$tmp_dir/generate-program" ./generate-program)
mkdir -p "$out_dir/libexec"
# The generator first: with-toolchain.sh takes a folder whose host is in place as built.
mv -f "$tmp_dir/generate-program" "$out_dir/libexec/"
mv -f "$tmp_dir/pulumi-language-nodejs" "$out_dir/"
say "done in $(($(date +%s) - start))s: $out_dir/pulumi-language-nodejs"
