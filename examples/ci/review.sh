#!/usr/bin/env bash
# The commands a CI job runs on an xCAT cluster program: the same for GitHub Actions
# (github-workflow.yml), GitLab CI (gitlab-ci.yml) and the project's own e2e test
# (test/e2e/review-ci.test.ts), so what the tests run is what CI runs.
#
#   review.sh preview   pulumi preview --json, then pulumi-xcat review: the summary in text on
#                       standard output and in $REVIEW_DIR/review.txt, in markdown (for the pull
#                       request comment) in $REVIEW_DIR/review.md
#   review.sh up        pulumi up (after a merge)
#
# Run it in the Pulumi project's directory, with pulumi-xcat installed in its node_modules.
# Environment:
#   XCAT_URL, XCAT_USERNAME, XCAT_PASSWORD (XCAT_CA_CERT …)  the management node, from CI secrets.
#       Without XCAT_URL the script starts xcat-emulator, keeping its data in
#       $REVIEW_DIR/xcat-emulator.sqlite between calls (and the Pulumi state in $REVIEW_DIR/state
#       unless PULUMI_BACKEND_URL is set): `up` on the target branch, then `preview` on the pull
#       request shows exactly what the pull request changes.
#   STACK         the stack, created if missing (default: the selected one)
#   PULUMI_BACKEND_URL, PULUMI_ACCESS_TOKEN, PULUMI_CONFIG_PASSPHRASE  as for any pulumi command
#   FAIL_ON       kinds for `pulumi-xcat review --fail-on` (e.g. delete,replace): exit 3 when one
#                 is planned; the summary files are written first
#   REVIEW_DIR    where the files go (default .xcat-review)
#   XCAT_EMULATOR_BOOT_SECONDS  how long an emulated node takes to boot (default 5)
set -euo pipefail

mode="${1:-}"
if [[ "$mode" != preview && "$mode" != up ]]; then
  echo "usage: $0 preview|up" >&2
  exit 2
fi
review_dir="${REVIEW_DIR:-.xcat-review}"
mkdir -p "$review_dir"
# The project's own pulumi-xcat and xcat-emulator, called directly so the emulator's pid is its own.
PATH="$(npm prefix)/node_modules/.bin:$PATH"
if [[ -z "${XCAT_URL:-}" ]]; then
  log="$review_dir/xcat-emulator.log"
  xcat-emulator --port 0 --data "$review_dir/xcat-emulator.sqlite" \
    --boot-seconds "${XCAT_EMULATOR_BOOT_SECONDS:-5}" >"$log" 2>&1 &
  emulator_pid=$!
  trap 'kill "$emulator_pid" 2>/dev/null; wait "$emulator_pid" 2>/dev/null || true' EXIT
  for _ in $(seq 100); do
    XCAT_URL="$(sed -n 's/^xcat-emulator listening on //p' "$log")"
    [[ -n "$XCAT_URL" ]] && break
    if ! kill -0 "$emulator_pid" 2>/dev/null; then
      echo "xcat-emulator did not start:" >&2
      cat "$log" >&2
      exit 1
    fi
    sleep 0.1
  done
  [[ -n "$XCAT_URL" ]] || { echo "xcat-emulator printed no URL in 10 s" >&2; exit 1; }
  export XCAT_URL XCAT_USERNAME="${XCAT_USERNAME:-root}" XCAT_PASSWORD="${XCAT_PASSWORD:-cluster}"
  echo "Using xcat-emulator at $XCAT_URL (no XCAT_URL given)" >&2
  if [[ -z "${PULUMI_BACKEND_URL:-}" ]]; then
    mkdir -p "$review_dir/state"
    export PULUMI_BACKEND_URL="file://$(cd "$review_dir/state" && pwd)"
  fi
fi

stack_args=()
if [[ -n "${STACK:-}" ]]; then
  pulumi stack select --create --non-interactive "$STACK"
  stack_args=(--stack "$STACK")
fi

if [[ "$mode" == up ]]; then
  # The plan was reviewed on the pull request: no second preview here.
  pulumi up --yes --skip-preview --non-interactive "${stack_args[@]}"
  exit 0
fi

pulumi preview --json --non-interactive "${stack_args[@]}" >"$review_dir/preview.json"
pulumi-xcat review "$review_dir/preview.json" --format markdown >"$review_dir/review.md"
status=0
pulumi-xcat review "$review_dir/preview.json" ${FAIL_ON:+--fail-on "$FAIL_ON"} >"$review_dir/review.txt" || status=$?
cat "$review_dir/review.txt"
exit "$status"
