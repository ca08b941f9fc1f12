#!/usr/bin/env bash
# Which commit of the main branch the cluster was last brought to, kept on the stack itself (the
# stack tag xcat:applied-commit, in the team's shared state), so that no merge's change is left
# unapplied without someone being told.
#
# Why: CI services do not run every push. GitHub keeps one pending run per concurrency group and
# cancels it when a newer one queues; a merge job can also fail or be refused (its reviewed plan no
# longer holds, exit 4). The next merge's job then applies its own reviewed plan on a cluster that
# lacks the earlier merge, which that plan never showed anyone. So each merge job first checks that
# the cluster is at the commit just before its own, and stops, naming the merges in between, when
# it is not; the "review and apply main" job (github-workflow.yml's workflow_dispatch, gitlab-ci.yml's
# manual jobs) then reviews the whole of main and applies it.
#
#   applied.sh check    exit 0 when the stack's applied commit is HEAD's first parent (this merge is
#                       the next one); exit 5, naming the merges not applied, otherwise (also when
#                       nothing was recorded yet)
#   applied.sh record   sets the stack's applied commit to HEAD (after review.sh up succeeded)
#   applied.sh show     prints the applied commit, if any
#
# Run it in the Pulumi project's directory, inside its git checkout (full history for `check`:
# fetch-depth 0 on GitHub, GIT_DEPTH 0 on GitLab), with the same STACK and PULUMI_* variables as
# review.sh. On the emulator without PULUMI_BACKEND_URL it uses review.sh's state in $REVIEW_DIR/state.
set -euo pipefail

mode="${1:-}"
if [[ "$mode" != check && "$mode" != record && "$mode" != show ]]; then
  echo "usage: $0 check|record|show" >&2
  exit 2
fi
tag="xcat:applied-commit"
review_dir="${REVIEW_DIR:-.xcat-review}"
if [[ -z "${PULUMI_BACKEND_URL:-}" && -z "${PULUMI_ACCESS_TOKEN:-}" && -d "$review_dir/state" ]]; then
  export PULUMI_BACKEND_URL="file://$(cd "$review_dir/state" && pwd)"
fi
stack_args=()
[[ -n "${STACK:-}" ]] && stack_args=(--stack "$STACK")
stack_name="$(pulumi stack --show-name --non-interactive "${stack_args[@]}")"

applied="$(pulumi stack tag get "$tag" --non-interactive "${stack_args[@]}" 2>/dev/null || true)"
head="$(git rev-parse HEAD)"

case "$mode" in
show)
  [[ -n "$applied" ]] && echo "$applied"
  exit 0
  ;;
record)
  pulumi stack tag set "$tag" "$head" --non-interactive "${stack_args[@]}"
  echo "Stack $stack_name: main applied up to $(git log -1 --format='%h %s' "$head")"
  exit 0
  ;;
esac

parent="$(git rev-parse --verify --quiet "HEAD^1" || true)"
if [[ -n "$applied" && "$applied" == "$parent" ]]; then
  echo "Stack $stack_name was last brought to $(git log -1 --format=%h "$parent"), this merge's parent: applying this merge's reviewed plan."
  exit 0
fi
if [[ "$applied" == "$head" ]]; then
  echo "Stack $stack_name is already at $(git log -1 --format=%h "$head") (applied by a review and apply of main)."
  exit 0
fi
{
  if [[ -z "$applied" ]]; then
    echo "Stack $stack_name records no applied commit of main yet, so whether earlier merges were applied is not known."
  elif ! git merge-base --is-ancestor "$applied" HEAD 2>/dev/null; then
    echo "Stack $stack_name was last brought to $applied, which is not in this branch's history (fetch the full history, or main was rewritten)."
  else
    echo "Stack $stack_name was last brought to $(git log -1 --format='%h %s' "$applied")."
    echo "These merges to main came after it and were not applied (their job was cancelled, failed or refused):"
    git log --first-parent --format='  %h %s' "$applied..$parent"
  fi
  echo "This merge's plan was reviewed without them, so it is not applied either. Nothing was changed."
  echo "Run \"review and apply main\" (GitHub: Actions > xcat > Run workflow, task apply-main; GitLab: the"
  echo "manual jobs review-main, then apply-main on the default branch): it reviews all of main and applies it."
} >&2
exit 5
