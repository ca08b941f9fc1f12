#!/usr/bin/env bash
# Brings a headless Chromium for the view's browser test and `pulumi-xcat view --snapshot x.png`:
# Debian's own chromium-headless-shell package and the libraries it needs that this machine lacks,
# fetched with `apt-get download` (no root, nothing installed system-wide) and unpacked with
# `dpkg -x` into the cache, as the toolchain brings Node and Pulumi. Idempotent: a second run finds
# the binary starting and does nothing.
#
#   bash scripts/fetch-chromium.sh <cache dir>     # prints the path of <cache dir>/chromium on stdout
#
# <cache dir>/chromium is a wrapper that puts the unpacked libraries on LD_LIBRARY_PATH and runs
# the binary; the .deb files are deleted once unpacked (a marker per package remains).
#
# Needs apt-get and dpkg (Debian or a derivative, as the project's CI machines are); elsewhere it
# fails with a sentence, and the browser test fails with it (it never skips).
set -euo pipefail

dest=${1:?usage: fetch-chromium.sh <cache dir>}
say() { printf '[toolchain] %s\n' "$*" >&2; }
die() { printf '[toolchain] error: %s\n' "$*" >&2; exit 1; }

root="$dest/root"
binary="$root/usr/lib/chromium/chromium-headless-shell"
libs="$root/usr/lib/x86_64-linux-gnu:$root/lib/x86_64-linux-gnu:$root/usr/lib/x86_64-linux-gnu/pulseaudio"

missing_libs() { LD_LIBRARY_PATH="$libs" ldd "$binary" 2>/dev/null | awk '/not found/ { print $1 }'; }
wrapper="$dest/chromium"
works() { [ -x "$binary" ] && [ -x "$wrapper" ] && [ -f "$dest/.complete" ] && [ -z "$(missing_libs)" ]; }

if works; then echo "$wrapper"; exit 0; fi
command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1 ||
  die "no apt-get/dpkg here to fetch Debian's chromium-headless-shell; install Chromium and set PULUMI_XCAT_CHROMIUM to its binary"

mkdir -p "$dest/debs" "$root"
exec 6>"$dest/.fetch.lock"
command -v flock >/dev/null 2>&1 && flock 6
if works; then echo "$wrapper"; exit 0; fi

# Packages are fetched by name; a package whose libraries the system already has is left out.
fetch() {
  local package
  for package in "$@"; do
    [ -f "$dest/debs/$package.unpacked" ] && continue
    (cd "$dest/debs" && apt-get download "$package" >/dev/null 2>&1) || die "apt-get download $package failed"
    dpkg -x "$dest/debs/${package}"_*.deb "$root"
    rm -f "$dest/debs/${package}"_*.deb
    touch "$dest/debs/$package.unpacked"
  done
}
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
not_installed_depends() {
  apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances "$@" 2>/dev/null |
    awk '/Depends:/ { print $2 }' | tr -d '<>' | sort -u | while read -r package; do
      installed "$package" || echo "$package"
    done
}

say "fetching Debian's chromium-headless-shell into $dest (once)"
fetch chromium-headless-shell chromium-common
wanted=$(not_installed_depends chromium-headless-shell)
# Libraries pull in libraries: three rounds reach the bottom on Debian 12.
for _round in 1 2 3; do
  [ -n "$wanted" ] || break
  # shellcheck disable=SC2086
  fetch $wanted
  # shellcheck disable=SC2086
  wanted=$(not_installed_depends $wanted | while read -r package; do
    [ -f "$dest/debs/$package.unpacked" ] || echo "$package"
  done)
done
left=$(missing_libs)
[ -z "$left" ] || die "chromium-headless-shell still lacks: $(echo $left)"
printf '#!/bin/sh\nLD_LIBRARY_PATH="%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "%s" "$@"\n' "$libs" "$binary" >"$wrapper"
chmod 0755 "$wrapper"
touch "$dest/.complete"
echo "$wrapper"
