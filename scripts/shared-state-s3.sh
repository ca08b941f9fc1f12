#!/usr/bin/env bash
# One Pulumi state for a team, tried against a real S3-compatible server on this machine (not part
# of `npm test`): SeaweedFS (see below) built from the Go module proxy into ~/.cache/pulumi-xcat,
# started on 127.0.0.1, with the lab (examples/lab) on an xcat-emulator. It shows, with times:
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

# SeaweedFS (Apache-2.0; github.com/seaweedfs/seaweedfs), a complete object store with an S3 API,
# not a test double. The Go module proxy serves it only as a pseudo-version, and its go.mod has a
# replace directive, so `go install pkg@version` refuses it: the module is downloaded and built
# from its own folder. The first build takes 15-50 minutes on 2 cores (233 MB binary).
seaweedfs_version=v0.0.0-20261109003541-7506e5f91cd6
cache_root="${PULUMI_XCAT_CACHE:-$HOME/.cache/pulumi-xcat}"
server_dir="$cache_root/seaweedfs-$seaweedfs_version"
server="$server_dir/weed"

if [[ ! -x "$server" ]]; then
  command -v go >/dev/null 2>&1 || { say "Go is needed to build SeaweedFS (apt-get install golang-go)"; exit 1; }
  mkdir -p "$server_dir"
  build_dir=$(mktemp -d "$server_dir/.build.XXXXXX")
  export GOMODCACHE="$build_dir/go-mod" GOCACHE="$build_dir/go-build" GOFLAGS=-modcacherw
  trap 'rm -rf "$build_dir"' EXIT
  start=$(now)
  say "building SeaweedFS $seaweedfs_version from the Go module proxy (15-50 minutes the first time)"
  source_dir=$(go mod download -json "github.com/seaweedfs/seaweedfs@$seaweedfs_version" |
    node -e 'let t="";process.stdin.on("data",(d)=>(t+=d)).on("end",()=>console.log(JSON.parse(t).Dir))')
  (cd "$source_dir" && nice -n 10 go build -o "$build_dir/weed" ./weed)
  mv "$build_dir/weed" "$server"
  rm -rf "$build_dir"
  trap - EXIT
  unset GOMODCACHE GOCACHE GOFLAGS
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

# --- the S3 server: SeaweedFS's all-in-one `mini` on loopback, the bucket made at start ----------
# Credentials given at its first start become its 'mini' user (weed mini -h); the AWS SDK's
# response-checksum warnings are for checksums SeaweedFS does not send, so they are asked for only
# where required.
export AWS_RESPONSE_CHECKSUM_VALIDATION=when_required
s3_port=$(free_port)
mkdir -p "$work/s3"
"$server" mini -dir="$work/s3" -ip=127.0.0.1 -ip.bind=127.0.0.1 -s3.port="$s3_port" -bucket=pulumi-state \
  -admin.ui=false >"$work/s3.log" 2>&1 &
pids+=($!)
for _ in $(seq 600); do grep -q "S3 *ready" "$work/s3.log" 2>/dev/null && break; sleep 0.1; done
grep -q "S3 *ready" "$work/s3.log" || { say "SeaweedFS did not start (see $work/s3.log)"; exit 1; }
say "SeaweedFS on 127.0.0.1:$s3_port (bucket pulumi-state, data under $work/s3)"

# What both CI jobs set (examples/ci/README.md "One state for the team").
export PULUMI_BACKEND_URL="s3://pulumi-state?endpoint=http://127.0.0.1:$s3_port&s3ForcePathStyle=true&region=us-east-1"

# --- the management node: an emulator both jobs reach (XCAT_URL as a CI secret would give) -------
emulator_log="$work/emulator.log"
: >"$emulator_log" # made before the background job opens it: the loop below may read first
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
# The artifact is the review folder's plan, the values it pinned and the comment (examples/ci).
for file in plan.json pins.json review.md; do cp "$work/pr/.xcat-review/$file" "$work/merge/.xcat-review/$file"; done
cp "$work/pr/Pulumi.$STACK.yaml" "$work/merge/" # the merge brings the branch's files
start=$(now)
in_job merge env REVIEW_DIR=.xcat-review APPROVED_BY=shared-state-script bash review.sh up >"$work/merge-plan-up.log" 2>&1 ||
  { say "review.sh up failed:"; tail -n 20 "$work/merge-plan-up.log" >&2; exit 1; }
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
say "done; SeaweedFS's data folder holds $(du -sh "$work/s3" | cut -f1)"
