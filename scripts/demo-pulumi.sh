#!/usr/bin/env bash
# `npm run pulumi -- <args>`: runs pulumi on the demo stack (the local backend in .pulumi-state
# that `npm run demo` uses), e.g. `npm run pulumi -- stack output` or `npm run pulumi -- destroy`.
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export PULUMI_BACKEND_URL="file://$repo_root/.pulumi-state"
export PULUMI_CONFIG_PASSPHRASE=${PULUMI_CONFIG_PASSPHRASE:-pulumi-xcat-demo}
cd "$repo_root"
exec pulumi "$@"
