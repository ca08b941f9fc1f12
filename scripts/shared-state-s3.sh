#!/usr/bin/env bash
# One Pulumi state for a team, tried against a real S3-compatible server on this machine (not part
# of `npm test`): gofakes3 (MIT; github.com/johannesboyne/gofakes3, its bolt backend keeping the
# objects in files; see below) built from the Go module proxy into ~/.cache/pulumi-xcat, started on
# 127.0.0.1, with the lab (examples/lab) on an xcat-emulator. It shows, with times:
#   1. the merge job applies the lab; a pull-request job on another checkout with its own
#      PULUMI_HOME previews a change against the same state (only the change, the rest unchanged)
#      and saves the plan, which the merge job applies (examples/ci/review.sh preview / up);
#   2. a second `pulumi up` started while one runs gets Pulumi's lock message and changes
#      nothing; after the first finishes, the state holds everything and a preview is clean.
#
#   bash scripts/shared-state-s3.sh          (eval "$(npm run --silent shell-env)" first, or it does it)
#
# The Go caches live in a temporary folder inside the cache and are removed after the build, as
# tools/build-pulumi.sh does. Everything started here is stopped on exit, by its own pid.
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"
command -v pulumi >/dev/null 2>&1 || eval "$(npm run --silent shell-env)"

say() { printf '[shared-state] %s\n' "$*" >&2; }
now() { date +%s.%N; }
took() { printf '%.1f s' "$(echo "$(now) - $1" | bc)"; }

gofakes3_version=v1.2.0
cache_root="${PULUMI_XCAT_CACHE:-$HOME/.cache/pulumi-xcat}"
server_dir="$cache_root/gofakes3-$gofakes3_version"
server="$server_dir/gofakes3"

if [[ ! -x "$server" ]]; then
  command -v go >/dev/null 2>&1 || { say "Go is needed to build gofakes3 (apt-get install golang-go)"; exit 1; }
  mkdir -p "$server_dir"
  build_dir=$(mktemp -d "$server_dir/.build.XXXXXX")
  export GOMODCACHE="$build_dir/go-mod" GOCACHE="$build_dir/go-build" GOBIN="$build_dir/bin"
  trap 'go clean -modcache >/dev/null 2>&1; rm -rf "$build_dir"' EXIT
  start=$(now)
  say "building gofakes3 $gofakes3_version from the Go module proxy (a few minutes the first time)"
  nice -n 10 go install "github.com/johannesboyne/gofakes3/cmd/gofakes3@$gofakes3_version"
  mv "$GOBIN/gofakes3" "$server"
  go clean -modcache >/dev/null 2>&1 || true
  rm -rf "$build_dir"
  trap - EXIT
  unset GOMODCACHE GOCACHE GOBIN
  say "built in $(took "$start"): $server"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/pulumi-xcat-shared-state.XXXXXX")
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [[ -n "${KEEP:-}" ]] || rm -rf "$work"
}
trap cleanup EXIT

export AWS_ACCESS_KEY_ID=team-ci AWS_SECRET_ACCESS_KEY=team-ci-secret AWS_REGION=us-east-1
export PULUMI_CONFIG_PASSPHRASE=shared-state-demo PULUMI_SKIP_UPDATE_CHECK=1
export STACK=lab

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

# --- the S3 server: one bucket, objects as files under $work/s3 --------------------------------------
# gofakes3 v1.2.0's backends each miss something Pulumi's state needs: the bolt backend crashes on
# CopyObject (a SIGSEGV in CopyObject's ETag, backend.go:420; Pulumi copies the stack file to
# .bak on every save), the fs backend answers NoSuchBucket when a listed prefix holds no object
# yet (s3afero/multi.go getBucketWithFilePrefixLocked). The fs backend is used, with the folders
# the lab stack's listings name made first; a real S3 service or any complete S3 server needs none of it.
project=xcat-lab
for folder in "stacks/$project" "locks/organization/$project/$STACK" "history/$project/$STACK" "backups/$project/$STACK"; do
  mkdir -p "$work/s3/buckets/pulumi-state/.pulumi/$folder"
done
s3_port=$(free_port)
"$server" -host "127.0.0.1:$s3_port" -backend fs -fs.path "$work/s3" -quiet >"$work/s3.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do (echo >"/dev/tcp/127.0.0.1/$s3_port") 2>/dev/null && break; sleep 0.1; done
say "gofakes3 on 127.0.0.1:$s3_port (bucket pulumi-state, objects under $work/s3)"

# What both CI jobs set (examples/ci/README.md "One state for the team").
export PULUMI_BACKEND_URL="s3://pulumi-state?endpoint=http://127.0.0.1:$s3_port&s3ForcePathStyle=true&region=us-east-1"

# --- the management node: an emulator both jobs reach (XCAT_URL as a CI secret would give) -------
emulator_log="$work/emulator.log"
node dist/emulator/cli.js --port 0 --password scripted-s3-check --boot-seconds "${BOOT_SECONDS:-8}" >"$emulator_log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  XCAT_URL="$(sed -n 's/^xcat-emulator listening on //p' "$emulator_log")"
  [[ -n "$XCAT_URL" ]] && break
  sleep 0.1
done
export XCAT_URL XCAT_USERNAME=root XCAT_PASSWORD=scripted-s3-check
say "xcat-emulator at $XCAT_URL"

# --- two checkouts of the lab: the merge job's and the pull request's, each with its own PULUMI_HOME
checkout() {
  local dir="$work/$1"
  mkdir -p "$dir"
  cp -r examples/lab/. "$dir/"
  sed 's/^main: .*$/main: index.ts/' Pulumi.yaml >"$dir/Pulumi.yaml"
  ln -s "$repo_root/node_modules" "$dir/node_modules"
  cp examples/ci/review.sh "$dir/review.sh"
  mkdir -p "$dir/.pulumi-home"
}
checkout merge
checkout pr
in_job() { (cd "$work/$1" && PULUMI_HOME="$work/$1/.pulumi-home" "${@:2}"); }

configure() {
  in_job "$1" pulumi stack select --create --non-interactive "$STACK" >/dev/null
  in_job "$1" pulumi config set --secret bmcPassword bmc-demo >/dev/null
  in_job "$1" pulumi config set deployTimeout 5 >/dev/null
  in_job "$1" pulumi config set pollSeconds 1 >/dev/null
}

# 1. The merge job applies the lab; the state goes to the bucket.
configure merge
start=$(now)
in_job merge pulumi up --yes --skip-preview --non-interactive >"$work/merge-up.log" 2>&1
say "1. merge job: first up of the lab into the shared state: $(took "$start"), $(grep -Eo '\+ [0-9]+ created' "$work/merge-up.log")"

# The pull-request job, on its own checkout and PULUMI_HOME, changes the program (a third rack) and
# reviews it: the preview is against the state the merge job wrote.
# The stack's config file is in the repository (Pulumi.lab.yaml): the branch starts from main's.
cp "$work/merge/Pulumi.$STACK.yaml" "$work/pr/"
in_job pr pulumi stack select --non-interactive "$STACK"
in_job pr pulumi config set racks 3 >/dev/null
start=$(now)
in_job pr env REVIEW_DIR=.xcat-review bash review.sh preview >"$work/pr-review.txt" 2>"$work/pr-review.err"
say "   pull-request job: review.sh preview in $(took "$start"):"
sed 's/^/     /' "$work/pr-review.txt" | tail -n 4 >&2
# The plan travels as an artifact to the merge job, which applies it (the config is the stack's, in the state).
mkdir -p "$work/merge/.xcat-review"
cp "$work/pr/.xcat-review/plan.json" "$work/merge/.xcat-review/plan.json"
cp "$work/pr/Pulumi.$STACK.yaml" "$work/merge/" # the merge brings the branch's files
start=$(now)
in_job merge env REVIEW_DIR=.xcat-review bash review.sh up >"$work/merge-plan-up.log" 2>&1
say "   merge job: review.sh up with the pull request's plan in $(took "$start"): $(grep -Eo '\+ [0-9]+ created' "$work/merge-plan-up.log"), $(grep -Eo '[0-9]+ unchanged' "$work/merge-plan-up.log" | tail -n1)"

# 2. Two updates at once: the second meets the first's lock.
in_job pr pulumi config set racks 4 >/dev/null
in_job merge pulumi config set racks 4 >/dev/null
start=$(now)
in_job merge pulumi up --yes --skip-preview --non-interactive >"$work/first-up.log" 2>&1 &
first=$!
pids+=($first)
for _ in $(seq 600); do grep -q '^Updating (' "$work/first-up.log" 2>/dev/null && break; sleep 0.1; done
second_status=0
second_start=$(now)
in_job pr pulumi up --yes --skip-preview --non-interactive >"$work/second-up.log" 2>&1 || second_status=$?
say "2. a second up while the first runs: exit $second_status after $(took "$second_start"):"
grep -iE 'lock' "$work/second-up.log" | sed 's/^/     /' >&2
first_status=0
wait "$first" || first_status=$?
say "   the first up: exit $first_status in $(took "$start"), $(grep -Eo '\+ [0-9]+ created' "$work/first-up.log")"
count=$(in_job pr pulumi stack export | node -e 'const s = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log(s.deployment.resources.filter((r) => r.type.includes("dynamic/xcat:")).length)')
say "   the state now holds $count xcat resources (the lab at 4 racks of 16: 88)"
if in_job pr pulumi preview --expect-no-changes --non-interactive >"$work/after.log" 2>&1; then
  say "   pull-request checkout: pulumi preview --expect-no-changes passes: nothing lost"
else
  say "   pulumi preview found changes after both updates:"; tail -n 20 "$work/after.log" >&2; exit 1
fi
[[ "$second_status" -ne 0 ]] && grep -qi 'locked' "$work/second-up.log" || { say "the second up was not refused by the lock"; exit 1; }
say "done; the bucket holds $(find "$work/s3/buckets" -type f | wc -l) objects, $(du -sh "$work/s3/buckets" | cut -f1)"
