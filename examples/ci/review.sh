#!/usr/bin/env bash
# The commands a CI job runs on an xCAT cluster program: the same for GitHub Actions
# (github-workflow.yml), GitLab CI (gitlab-ci.yml) and the project's own e2e tests
# (test/e2e/review-ci.test.ts, test/e2e/policy-and-plan.test.ts), so what the tests run is what CI runs.
#
#   review.sh preview   pulumi preview --refresh --json --save-plan, then pulumi-xcat review: the
#                       summary in text on standard output and in $REVIEW_DIR/review.txt, in markdown
#                       (for the pull request comment) in $REVIEW_DIR/review.md, and the update plan
#                       that was reviewed in $REVIEW_DIR/plan.json with the values xCAT holds for every
#                       node attribute it changes in $REVIEW_DIR/pins.json (carry both to the merge
#                       job). The refresh reads the cluster first (in memory: a preview writes no
#                       state), so the review lists what was changed or deleted by hand since the last
#                       apply and the change will put back, marked "(changed by hand)"
#   review.sh up        pulumi-xcat pins check, a refresh of exactly the objects the review showed
#                       as changed by hand (pulumi refresh --target), then pulumi up --plan
#                       $REVIEW_DIR/plan.json (after the merge): applies what was reviewed, and stops before anything else when
#                       the program or the cluster has changed so that the plan no longer holds, or
#                       an attribute the plan changes was edited on xCAT since the review (exit 4:
#                       run the review again)
#   review.sh base      pulumi up without a plan, on the emulator only (no XCAT_URL): brings the
#                       emulator to the target branch before a pull request is reviewed
#   review.sh drift     pulumi-xcat drift (the nightly job): what was changed on the management
#                       node by hand and what no resource manages, in text on standard output and
#                       $REVIEW_DIR/drift.txt, in markdown in $REVIEW_DIR/drift.md (for the issue
#                       or note the job keeps); exit 3 when there is drift. Needs a real
#                       management node (XCAT_URL) and the team's shared state (PULUMI_BACKEND_URL
#                       or PULUMI_ACCESS_TOKEN): a job's own state would know no resource.
#
# The policy pack shipped with pulumi-xcat (node_modules/pulumi-xcat/policy-pack: unique addresses,
# nodes in declared networks, declared images, one Deployment and one PowerState per node) runs in
# preview and up when it is installed; POLICY_CONFIG names a policy config file for it.
#
# Run it in the Pulumi project's directory, with pulumi-xcat installed in its node_modules.
# Environment:
#   XCAT_URL, XCAT_USERNAME, XCAT_PASSWORD (XCAT_CA_CERT …)  the management node, from CI secrets.
#       Without XCAT_URL the script starts xcat-emulator, keeping its data in
#       $REVIEW_DIR/xcat-emulator.sqlite between calls (and the Pulumi state in $REVIEW_DIR/state
#       unless PULUMI_BACKEND_URL is set): `base` on the target branch, then `preview` on the pull
#       request shows exactly what the pull request changes.
#   STACK         the stack, created if missing (default: the selected one)
#   PULUMI_BACKEND_URL, PULUMI_ACCESS_TOKEN, PULUMI_CONFIG_PASSPHRASE  as for any pulumi command
#   FAIL_ON       kinds for `pulumi-xcat review --fail-on` (e.g. delete,replace): exit 3 when one
#                 is planned; the summary files and the plan are written first
#   POLICY_CONFIG a policy config file (JSON) for the policy pack: rules' enforcement levels, and
#                 deployment-image-declared's externalImages
#   APPROVED_BY   who approved the plan (review.sh up): written with the plan's checksum and the
#                 reviewed commit into the update's message in the stack's history
#                 (`pulumi stack history`), so the history says which review each apply applied
#   REVIEW_DIR    where the files go (default .xcat-review)
#   XCAT_EMULATOR_BOOT_SECONDS  how long an emulated node takes to boot (default 5)
set -euo pipefail

mode="${1:-}"
if [[ "$mode" != preview && "$mode" != up && "$mode" != base && "$mode" != drift ]]; then
  echo "usage: $0 preview|up|base|drift" >&2
  exit 2
fi
if [[ "$mode" == drift && ( -z "${XCAT_URL:-}" || ( -z "${PULUMI_BACKEND_URL:-}" && -z "${PULUMI_ACCESS_TOKEN:-}" ) ) ]]; then
  echo "review.sh drift compares the team's state with a real management node: set XCAT_URL (and its account)" >&2
  echo "and the shared backend (PULUMI_BACKEND_URL, or PULUMI_ACCESS_TOKEN for Pulumi Cloud) the merge job applies to." >&2
  exit 2
fi
if [[ "$mode" == base && -n "${XCAT_URL:-}" ]]; then
  echo "review.sh base applies the program without a reviewed plan, which is only for the emulator." >&2
  echo "On a management node, run review.sh preview (the review) and then review.sh up, which applies the reviewed plan." >&2
  exit 2
fi
review_dir="${REVIEW_DIR:-.xcat-review}"
mkdir -p "$review_dir"
# The project's root as `npm prefix` finds it: the closest directory up from here with a
# package.json or a node_modules, else this one. Found once, without starting npm (a third of a
# second of CPU each time).
project_root="$PWD"
dir="$PWD"
while true; do
  if [[ -e "$dir/package.json" || -d "$dir/node_modules" ]]; then project_root="${dir:-/}"; break; fi
  [[ -z "$dir" || "$dir" == / ]] && break
  dir="${dir%/*}"
done
# The project's own pulumi-xcat and xcat-emulator, called directly so the emulator's pid is its own.
PATH="$project_root/node_modules/.bin:$PATH"
if [[ -z "${XCAT_URL:-}" ]]; then
  log="$review_dir/xcat-emulator.log"
  # The emulator keeps its port from one call to the next (a free one the first time): the
  # stack's resources record the server they were made on, and a TypeScript resource refuses a
  # stack URL that names another one (src/provider/stack-server.ts).
  port_file="$review_dir/xcat-emulator.port"
  port="$(cat "$port_file" 2>/dev/null || echo 0)"
  # Emptied here, not only by the redirection below: that one is opened by the background job,
  # which may run after the first read of the loop below (no file yet, or the last call's URL).
  : >"$log"
  xcat-emulator --port "$port" --data "$review_dir/xcat-emulator.sqlite" \
    --boot-seconds "${XCAT_EMULATOR_BOOT_SECONDS:-5}" >"$log" 2>&1 &
  emulator_pid=$!
  trap 'kill "$emulator_pid" 2>/dev/null; wait "$emulator_pid" 2>/dev/null || true' EXIT
  for _ in $(seq 600); do
    XCAT_URL="$(sed -n 's/^xcat-emulator listening on //p' "$log")"
    [[ -n "$XCAT_URL" ]] && break
    if ! kill -0 "$emulator_pid" 2>/dev/null; then
      echo "xcat-emulator did not start:" >&2
      cat "$log" >&2
      if [[ "$port" != 0 ]]; then
        echo "It was asked for port $port, the one the earlier calls used ($port_file): the stack's resources" >&2
        echo "were made on the emulator at that port. Free the port, or remove $review_dir to start the emulator afresh." >&2
      fi
      exit 1
    fi
    sleep 0.1
  done
  [[ -n "$XCAT_URL" ]] || { echo "xcat-emulator printed no URL in 60 s" >&2; exit 1; }
  [[ -f "$port_file" ]] || sed -n 's|^.*://[^:/]*:\([0-9]*\)/.*$|\1|p' <<<"$XCAT_URL" >"$port_file"
  # The emulator started here has its default account, which it prints as "account: USER / PASSWORD".
  XCAT_USERNAME="$(sed -n 's|^account: \([^ ]*\) / .*|\1|p' "$log")"
  XCAT_PASSWORD="$(sed -n 's|^account: [^ ]* / ||p' "$log")"
  export XCAT_URL XCAT_USERNAME XCAT_PASSWORD
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
# The stack's name as `pulumi stack --show-name` prints it. With STACK, selected (created if
# missing) just above: the last part of its name ([org/][project/]stack), without a pulumi process.
selected_stack_name() {
  if [[ -n "${STACK:-}" ]]; then
    echo "${STACK##*/}"
  else
    pulumi stack --show-name --non-interactive
  fi
}

plan="$review_dir/plan.json"

# The policy pack, when the installed pulumi-xcat ships one, in every preview and update.
policy_args=()
policy_pack="$project_root/node_modules/pulumi-xcat/policy-pack"
if [[ -f "$policy_pack/PulumiPolicy.yaml" ]]; then
  policy_args=(--policy-pack "$policy_pack")
  [[ -n "${POLICY_CONFIG:-}" ]] && policy_args+=(--policy-pack-config "$POLICY_CONFIG")
fi

if [[ "$mode" == drift ]]; then
  rm -f "$review_dir/drift.md" "$review_dir/drift.txt"
  status=0
  pulumi-xcat drift "${stack_args[@]}" --markdown "$review_dir/drift.md" >"$review_dir/drift.txt" || status=$?
  cat "$review_dir/drift.txt"
  # Exit 2: the refresh or the listing failed (said on standard error); there is no report to keep.
  [[ "$status" -eq 0 || "$status" -eq 3 ]] || rm -f "$review_dir/drift.md" "$review_dir/drift.txt"
  exit "$status"
fi

if [[ "$mode" == base ]]; then
  pulumi up --yes --skip-preview --non-interactive "${stack_args[@]}" "${policy_args[@]}"
  exit 0
fi

if [[ "$mode" == up ]]; then
  if [[ ! -f "$plan" ]]; then
    echo "No reviewed plan at $plan: run review.sh preview first (the pull request's review saves it there)," >&2
    echo "or bring the review job's artifact into $review_dir. Nothing was applied." >&2
    exit 4
  fi
  # A plan names its stack and project in every URN; one from another stack would be refused
  # resource by resource, so say what is wrong before the engine starts.
  planned_for=$(node -e '
    const plan = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const urn = Object.keys(plan.resourcePlans ?? {})[0] ?? "";
    const [, stack = "", project = ""] = /^urn:pulumi:([^:]*)::([^:]*)::/.exec(urn) ?? [];
    process.stdout.write(`${stack} ${project}`);' "$plan")
  current="$(selected_stack_name) $(sed -n 's/^name: *//p' Pulumi.yaml | head -n 1 | tr -d "\"'")"
  if [[ "$planned_for" != "$current" ]]; then
    echo "$plan was saved for stack '${planned_for% *}' of project '${planned_for#* }', but this update is for stack '${current% *}' of project '${current#* }'." >&2
    echo "Review the change on this stack (STACK=${current% *} review.sh preview) and apply the plan that review saves. Nothing was applied." >&2
    exit 4
  fi
  # The values the review read for every node attribute the plan changes (pulumi-xcat pins): a
  # plan pins the program's inputs, not what xCAT holds, so a hand edit of such an attribute since
  # the review would be overwritten unseen. Read them again before anything is written.
  pins="$review_dir/pins.json"
  if [[ ! -f "$pins" ]]; then
    echo "No pins at $pins: the values the review read travel with the plan (review.sh preview writes both;" >&2
    echo "carry both in the review job's artifact). Nothing was applied." >&2
    exit 4
  fi
  status=0
  pulumi-xcat pins check "$pins" --plan "$plan" || status=$?
  if [[ "$status" -ne 0 ]]; then
    echo "Run the review again (review.sh preview on the current cluster), have it approved, and apply the new plan." >&2
    [[ "$status" -eq 4 ]] && exit 4
    echo "The values the review read could not be read again, so nothing was applied." >&2
    exit "$status"
  fi
  # The objects the review showed as changed or deleted by hand: the plan (made after a refresh)
  # expects them as the cluster holds them, the state still records them as they were. Refresh
  # those, and only those: an edit made after the review to any other object stays out of the
  # apply, as no review showed it (and the pins above cover every attribute of the nodes refreshed).
  mapfile -t hand_edited < <(pulumi-xcat pins targets "$pins" --plan "$plan")
  if [[ "${#hand_edited[@]}" -gt 0 ]]; then
    echo "Refreshing the ${#hand_edited[@]} object(s) the review showed as changed or deleted by hand:"
    targets=()
    for urn in "${hand_edited[@]}"; do targets+=(--target "$urn"); done
    pulumi refresh --yes --non-interactive --skip-preview "${targets[@]}" "${stack_args[@]}"
  fi
  # Not --skip-preview: the engine first previews against the plan, so a plan that no longer holds
  # is refused before any resource is touched.
  log="$review_dir/up.log"
  # The stack's history records which review this apply applied and who approved it: the plan's
  # checksum and the commit are the ones the review comment ends with.
  reviewed_commit="$(grep -o 'Commit `[^`]*`' "$review_dir/review.md" 2>/dev/null | head -n 1 | tr -d '`' | cut -d' ' -f2 || true)"
  message="review.sh up: plan sha256 $(sha256sum "$plan" | cut -d' ' -f1)"
  message+=", reviewed at commit ${reviewed_commit:-unknown (no review.md with the plan)}"
  message+=", approved by ${APPROVED_BY:-nobody named (APPROVED_BY not set)}"
  status=0
  # --diff: the job's log (the merge's record) shows each value the apply writes, old and new,
  # secrets as [secret], not only which inputs changed.
  pulumi up --yes --non-interactive --diff --plan "$plan" --message "$message" "${stack_args[@]}" "${policy_args[@]}" 2>&1 |
    tee "$log" || status=${PIPESTATUS[0]}
  # Says why the apply stopped: $1 when the update had begun (its steps so far were applied), $2
  # when it stopped in the engine's preview (nothing was), then what to do.
  stopped() {
    echo >&2
    if grep -q '^Updating (' "$log"; then echo "$1" >&2; else echo "$2" >&2; fi
    echo "Run the review again (review.sh preview on the current program and cluster), have it approved, and apply the new plan." >&2
  }
  if [[ "$status" -ne 0 ]] && grep -qE 'violates plan|not allowed by the plan|no plan for resource|Expected a new resource plan' "$log"; then
    stopped "The update stopped where it left the reviewed plan (see above): the steps before it were in the plan and were applied; nothing outside the plan was." \
      "The reviewed plan no longer holds: the program or the cluster changed since the review (see above). Nothing was applied."
    exit 4
  fi
  if [[ "$status" -ne 0 ]] && ! grep -qiE '(^|[[:space:]])error:' "$log"; then
    # Pulumi stops a planned update without a word when the stack's outputs differ from the ones
    # the plan recorded (pulumi/pulumi#16670; see the second preview below).
    stopped "pulumi up stopped during the update without saying why (exit $status). Pulumi does that when the stack's outputs differ from the ones the reviewed plan recorded (pulumi/pulumi#16670): the steps shown above were applied." \
      "pulumi up stopped in its preview without saying why (exit $status). Pulumi does that when the stack's outputs differ from the ones the reviewed plan recorded (pulumi/pulumi#16670), e.g. an output that reads the cluster changed since the review. Nothing was applied."
  fi
  exit "$status"
fi

# A new review replaces the last one whole: never leave a plan behind that this review did not make.
rm -f "$plan" "$review_dir/pins.json" "$review_dir/preview.json" "$review_dir/review.md" "$review_dir/review.txt"
status=0
pulumi preview --refresh --json --non-interactive --save-plan "$plan" "${stack_args[@]}" "${policy_args[@]}" \
  >"$review_dir/preview.json" || status=$?
if [[ "$status" -ne 0 ]]; then
  # `preview --json` reports a failure as "preview failed" alone, without the errors or the policy
  # violations behind it: preview once more in text, which shows them.
  echo "pulumi preview failed; the same preview in text, to show why:" >&2
  pulumi preview --refresh --non-interactive "${stack_args[@]}" "${policy_args[@]}" >"$review_dir/preview-failed.txt" 2>&1 || true
  cat "$review_dir/preview-failed.txt" >&2
  rm -f "$plan"
  # The comment says why there is nothing to approve: the errors and policy violations (each names
  # its rule, e.g. "[mandatory] unique-node-ip"), as the preview printed them.
  {
    echo "### pulumi-xcat review: the preview failed, nothing to approve"
    echo
    echo "No plan was saved. The preview's errors and policy violations (each violation names its rule):"
    echo
    echo '```text'
    sed -n '1,80p' "$review_dir/preview-failed.txt"
    echo '```'
  } >"$review_dir/review.md"
  rm -f "$review_dir/preview-failed.txt"
  echo "pulumi preview failed (reasons above), so there is nothing to review and no plan was saved:" >&2
  echo "fix the program (or the policy violations) and run review.sh preview again." >&2
  exit 1
fi
# Without drift, the plan is saved again from a preview that does not refresh. A plan records the
# stack's outputs too, and `pulumi up --plan` checks them (pkg/resource/deploy/step_executor.go,
# ExecuteRegisterResourceOutputs, at v3.259.0): outputs read from the cluster (a node's
# allAttributes, a Deployment's node states) hold the refresh's values in the refreshing preview's
# plan and the state's in the apply, which does not refresh; Pulumi then stops after its preview
# with exit 1 and no message (pulumi/pulumi#16670; test/e2e/policy-and-plan.test.ts's lab, whose
# exports read both). Refreshing everything at the apply instead would write back edits made after
# the review that no review showed. With drift, the refreshing preview's plan is kept and review.sh
# up refreshes exactly the objects the review showed as changed by hand
# (test/e2e/review-signoff.test.ts).
drift_status=0
pulumi-xcat review "$review_dir/preview.json" --offline --fail-on drift >/dev/null 2>&1 || drift_status=$?
if [[ "$drift_status" -ne 3 ]]; then
  status=0
  pulumi preview --json --non-interactive --save-plan "$plan" "${stack_args[@]}" "${policy_args[@]}" \
    >"$review_dir/preview.json" || status=$?
  if [[ "$status" -ne 0 ]]; then
    rm -f "$plan"
    echo "pulumi preview failed the second time (without --refresh): see above; no plan was saved." >&2
    exit 1
  fi
fi
# What xCAT holds now for every node attribute the plan changes, pinned with the plan: review.sh up
# refuses when one of them moved before the apply.
pinned="$review_dir/pinned.txt"
if ! pulumi-xcat pins save "$review_dir/preview.json" --plan "$plan" --out "$review_dir/pins.json" >"$pinned"; then
  rm -f "$plan" "$review_dir/pins.json"
  echo "The values the plan changes could not be read from the management node, so no plan was saved." >&2
  exit 1
fi
# What the comment is of, so an approval can be tied to it: the commit, the stack, the management
# node and the checksum of the plan the merge job will apply.
commit="${GITHUB_SHA:-${CI_COMMIT_SHA:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}}"
stack_name="$(selected_stack_name)"
management_node="$(pulumi config get xcat:url "${stack_args[@]}" 2>/dev/null || echo "${XCAT_URL:-unknown}")"
plan_sha="$(sha256sum "$plan" | cut -d' ' -f1)"
{
  pulumi-xcat review "$review_dir/preview.json" --format markdown
  echo
  echo "Commit \`$commit\`, stack \`$stack_name\`, management node \`$management_node\`, plan sha256 \`$plan_sha\`"
} >"$review_dir/review.md"
status=0
pulumi-xcat review "$review_dir/preview.json" ${FAIL_ON:+--fail-on "$FAIL_ON"} >"$review_dir/review.txt" \
  2>"$review_dir/review.err" || status=$?
cat "$review_dir/review.err" >&2
if [[ "$status" -eq 3 ]]; then
  {
    echo
    echo "**Review check failed**: FAIL_ON=$FAIL_ON: $(sed 's/^pulumi-xcat review: //' "$review_dir/review.err")"
  } >>"$review_dir/review.md"
fi
rm -f "$review_dir/review.err"
if [[ -s "$pinned" ]]; then
  {
    echo "Pinned for the apply (xCAT's values now; review.sh up refuses if one moves):"
    sed 's/^/  /' "$pinned"
  } >>"$review_dir/review.txt"
  {
    echo
    echo "**Pinned for the apply** (xCAT's values now; the apply refuses if one moves)"
    echo
    sed 's/^/- /' "$pinned"
  } >>"$review_dir/review.md"
fi
rm -f "$pinned"
cat "$review_dir/review.txt"
exit "$status"
