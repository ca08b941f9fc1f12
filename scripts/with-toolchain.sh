#!/usr/bin/env bash
# Runs a command with the project's toolchain on PATH, setting up whatever is missing first.
#
#   bash scripts/with-toolchain.sh <command> [args...]
#   bash scripts/with-toolchain.sh --print-env     # export lines for a shell of your own
#
# `npm test` and `npm run demo` are started by whatever npm is on the machine, possibly under a
# Node that is too old for our dependencies, before anything is installed. So this script only
# needs bash, and provides:
#   1. Node >= 22.19: the `node` on PATH when new enough, otherwise Node 24 from the npm package
#      `node@24`, installed once into the cache.
#   2. The npm dependencies: `npm ci` when node_modules does not match package-lock.json.
#   3. The Pulumi CLI at the version of the @pulumi/pulumi dependency, with the Node.js language
#      host and the dynamic-provider plugin: a matching `pulumi` on PATH is used as it is;
#      otherwise they are built from the Go tools modules in tools/ into the cache (minutes the
#      first time on a new machine, seconds afterwards).
#
# The cache lives in ${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-xcat and survives between runs.
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache_root=${PULUMI_XCAT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-xcat}
min_node=22.19.0

say() { printf '[toolchain] %s\n' "$*" >&2; }
die() { printf '[toolchain] error: %s\n' "$*" >&2; exit 1; }

# version_ge A B: true when version A >= version B (numeric, dot-separated).
version_ge() {
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]
}

mkdir -p "$cache_root"

# --- 1. Node --------------------------------------------------------------------------------
node_ok() {
  local v
  v=$("$1" -p 'process.versions.node' 2>/dev/null) || return 1
  version_ge "$v" "$min_node"
}

node_bin_dir=""
if command -v node >/dev/null 2>&1 && node_ok node; then
  node_bin_dir=$(dirname "$(command -v node)")
else
  node_home="$cache_root/node-24"
  if ! node_ok "$node_home/node_modules/node/bin/node" 2>/dev/null; then
    command -v npm >/dev/null 2>&1 || die "neither Node >= $min_node nor npm is available; install Node.js $min_node or newer"
    say "system Node is $(node --version 2>/dev/null || echo missing); installing Node 24 from the npm package node@24 into $node_home"
    rm -rf "$node_home" && mkdir -p "$node_home"
    (cd "$node_home" && echo '{"private":true}' >package.json &&
      npm install --no-audit --no-fund --loglevel=error node@24 >&2) ||
      die "could not install node@24 from the npm registry"
    node_ok "$node_home/node_modules/node/bin/node" || die "node@24 installed but $node_home/node_modules/node/bin/node does not run"
  fi
  node_bin_dir="$node_home/node_modules/node/bin"
fi
export PATH="$node_bin_dir:$PATH"

# --- 2. npm dependencies --------------------------------------------------------------------
# npm ci runs our `prepare` script, so the package is built afterwards.
lock_sum=$(sha256sum "$repo_root/package-lock.json" | cut -d' ' -f1)
stamp="$repo_root/node_modules/.pulumi-xcat-deps"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_sum" ]; then
  say "installing npm dependencies (npm ci) with Node $(node --version)"
  (cd "$repo_root" && npm ci --no-audit --no-fund --loglevel=error >&2) || die "npm ci failed"
  echo "$lock_sum" >"$stamp"
elif [ ! -f "$repo_root/dist/index.js" ]; then
  say "building the package (dist/ is missing)"
  (cd "$repo_root" && npm run --silent build >&2) || die "build failed"
fi

# The build links this checkout into node_modules as an install would (scripts/link-self.mjs);
# checkouts built before that script existed get the links here.
node "$repo_root/scripts/link-self.mjs"

# --- 3. Pulumi CLI ----------------------------------------------------------------------------
sdk_version=$(node -p 'require(process.argv[1]).version' "$repo_root/node_modules/@pulumi/pulumi/package.json")
dynamic_plugin="$repo_root/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"

pulumi_on_path_matches() {
  command -v pulumi >/dev/null 2>&1 || return 1
  [ "$(pulumi version 2>/dev/null)" = "v$sdk_version" ] || return 1
  command -v pulumi-language-nodejs >/dev/null 2>&1
}

if [ "${PULUMI_XCAT_BUILD_CLI:-}" != "1" ] && pulumi_on_path_matches; then
  pulumi_bin_dir=$(dirname "$(command -v pulumi)")
else
  pulumi_bin_dir="$cache_root/pulumi-v$sdk_version/bin"
  cli_built() {
    [ -x "$pulumi_bin_dir/pulumi" ] && [ "$("$pulumi_bin_dir/pulumi" version 2>/dev/null)" = "v$sdk_version" ] &&
      [ -x "$pulumi_bin_dir/pulumi-language-nodejs" ]
  }
  if ! cli_built; then
    # One build at a time per cache: `npm test` in two checkouts (or a test and the demo) started
    # together on a new machine would otherwise each spend minutes of every core on the same build.
    # The lock is held on a descriptor of this shell and released when it exits or execs.
    mkdir -p "$(dirname "$pulumi_bin_dir")"
    exec 9>"$(dirname "$pulumi_bin_dir")/.build.lock"
    if command -v flock >/dev/null 2>&1 && ! flock -n 9; then
      say "another run is building the Pulumi CLI v$sdk_version; waiting for it"
      flock 9
    fi
    if ! cli_built; then
      bash "$repo_root/tools/build-pulumi.sh" "$sdk_version" "$pulumi_bin_dir" >&2 ||
        die "building the Pulumi CLI v$sdk_version from Go modules failed (see the output above)"
    fi
    exec 9>&-
  fi
fi
# The dynamic-provider plugin is a shell script shipped inside @pulumi/pulumi; the engine finds it
# next to `pulumi` or on PATH. Keep a copy beside our CLI so it always matches the installed SDK.
if [ ! -x "$pulumi_bin_dir/pulumi-resource-pulumi-nodejs" ] && [ -w "$pulumi_bin_dir" ]; then
  install -m 0755 "$dynamic_plugin" "$pulumi_bin_dir/pulumi-resource-pulumi-nodejs"
fi
# Policy packs and `pulumi import`: the CLI starts a Node.js pack through its language host's
# RunPlugin call and asks it for the code `pulumi import` prints (GenerateProgram), both of which
# the v3.68.0 host built here lacks; tools/policy-plugin-host stands in front of it and provides them
# (tools/README.md). The CLI prefers the plugins next to its own binary, so the directory put on
# PATH holds links to `pulumi` and the dynamic-provider plugin beside the stand-in, and the real
# host stays out of PATH. The directory is named by the hash of the stand-in's sources, so a
# changed stand-in is built anew (a shell that already has an older one on PATH gets the new one).
# An official installation (a matching `pulumi` on PATH) needs none of it.
case "$pulumi_bin_dir" in
  "$cache_root/pulumi-v$sdk_version/bin-with-policy-host"*) pulumi_bin_dir="$cache_root/pulumi-v$sdk_version/bin" ;;
esac
if [ "$pulumi_bin_dir" = "$cache_root/pulumi-v$sdk_version/bin" ]; then
  # Every source of the stand-in and of its GenerateProgram generator (generate-program/), and the
  # build script, which decides where each lands.
  host_hash=$(cat "$repo_root/tools/build-policy-plugin-host.sh" "$repo_root/tools/policy-plugin-host/go.mod" \
    "$repo_root/tools/policy-plugin-host/go.sum" "$repo_root"/tools/policy-plugin-host/*.go \
    "$repo_root"/tools/policy-plugin-host/generate-program/*.go | sha256sum | cut -c1-12)
  policy_bin_dir="$cache_root/pulumi-v$sdk_version/bin-with-policy-host-$host_hash"
  policy_host_built() {
    [ -x "$policy_bin_dir/pulumi-language-nodejs" ] && [ -x "$policy_bin_dir/libexec/generate-program" ] &&
      [ -x "$policy_bin_dir/pulumi" ]
  }
  if ! policy_host_built; then
    exec 8>"$cache_root/pulumi-v$sdk_version/.policy-host.lock"
    command -v flock >/dev/null 2>&1 && flock 8
    if ! policy_host_built; then
      bash "$repo_root/tools/build-policy-plugin-host.sh" "$policy_bin_dir" >&2 ||
        die "building the policy plugin host from Go modules failed (see the output above)"
      for file in pulumi pulumi-resource-pulumi-nodejs; do
        ln -f "$pulumi_bin_dir/$file" "$policy_bin_dir/$file" 2>/dev/null || cp -f "$pulumi_bin_dir/$file" "$policy_bin_dir/$file"
      done
    fi
    exec 8>&-
  fi
  export PULUMI_XCAT_LANGUAGE_HOST="$pulumi_bin_dir/pulumi-language-nodejs"
  pulumi_bin_dir="$policy_bin_dir"
fi
# --- 4. Pulumi's YAML language host ------------------------------------------------------------
# YAML programs (the native provider's examples/lab-yaml and its e2e tests) need
# pulumi-language-yaml, a plugin of its own since the CLI does not bundle it; built like the CLI
# from the version tools/pulumi-language-yaml/go.mod pins, unless one is on PATH.
yaml_version=$(grep -o 'github.com/pulumi/pulumi-yaml v[0-9.]*' "$repo_root/tools/pulumi-language-yaml/go.mod" | head -n 1 | cut -d' ' -f2)
yaml_bin_dir=""
if ! command -v pulumi-language-yaml >/dev/null 2>&1; then
  yaml_bin_dir="$cache_root/pulumi-language-yaml-$yaml_version/bin"
  if [ ! -x "$yaml_bin_dir/pulumi-language-yaml" ]; then
    mkdir -p "$(dirname "$yaml_bin_dir")"
    exec 7>"$(dirname "$yaml_bin_dir")/.build.lock"
    if command -v flock >/dev/null 2>&1 && ! flock -n 7; then
      say "another run is building pulumi-language-yaml $yaml_version; waiting for it"
      flock 7
    fi
    if [ ! -x "$yaml_bin_dir/pulumi-language-yaml" ]; then
      bash "$repo_root/tools/build-language-yaml.sh" "$yaml_bin_dir" >&2 ||
        die "building pulumi-language-yaml $yaml_version from Go modules failed (see the output above)"
    fi
    exec 7>&-
  fi
  pulumi_bin_dir="$pulumi_bin_dir:$yaml_bin_dir"
fi

export PATH="$pulumi_bin_dir:$repo_root/node_modules/.bin:$PATH"
command -v pulumi-resource-pulumi-nodejs >/dev/null 2>&1 || export PATH="$PATH:$(dirname "$dynamic_plugin")"

export PULUMI_SKIP_UPDATE_CHECK=true
export PULUMI_XCAT_TOOLCHAIN=1

[ $# -gt 0 ] || { say "node $(node --version), pulumi $(pulumi version) in $pulumi_bin_dir"; exit 0; }

# --print-env: the lines that give a shell of the user's own the same toolchain
# (`eval "$(npm run --silent shell-env)"`): node, pulumi, pulumi-xcat and xcat-emulator on PATH.
if [ "$1" = "--print-env" ]; then
  quoted_path=$(printf '%q' "$node_bin_dir:$pulumi_bin_dir:$repo_root/node_modules/.bin")
  printf 'export PATH=%s:"$PATH"\n' "$quoted_path"
  printf 'export PULUMI_SKIP_UPDATE_CHECK=true\n'
  [ -z "${PULUMI_XCAT_LANGUAGE_HOST:-}" ] || printf 'export PULUMI_XCAT_LANGUAGE_HOST=%q\n' "$PULUMI_XCAT_LANGUAGE_HOST"
  say "node $(node --version), pulumi $(pulumi version), pulumi-xcat and xcat-emulator are on PATH in this shell"
  exit 0
fi
exec "$@"
