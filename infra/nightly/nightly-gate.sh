#!/usr/bin/env bash
# The nightly gate (docs/history.md, "A nightly gate"): one run recorded into the team's history, the gate on
# regressions, then the trend page. infra/nightly/github-actions.yml runs it on a self-hosted runner; an IT
# (NightlyGateIT) runs it end to end against a real PostgreSQL server.
#
#   infra/nightly/nightly-gate.sh [RUN ARGS...]        the run's command and options (default: matrix --quick)
#
# From the environment, so that nothing secret is on a command line (ps shows those):
#   CPBENCH_HISTORY   the team's store (required), e.g. jdbc:postgresql://db.lab:5432/cpbench?user=bench; its password
#                     comes from PGPASSWORD or ~/.pgpass (cp-bench refuses a URL with password= in it)
#   NIGHTLY_LABEL     the label every nightly run carries, and the only runs the gate and the page read
#                     (default: env=nightly)
#   NIGHTLY_FAIL_ON   the smallest change for the worse that fails the gate (default: 5%)
#   NIGHTLY_OUT       where the run's results and the trend page go (default: results/nightly)
#   CPBENCH           the cpbench command (default: this repository's ./cpbench, which builds it when needed)
#
# Exit codes: 0 the run was OK and no regression; 1 a regression newer than the last acknowledged one in its series,
# or a run that did not end OK; 2 the run refused its input, or the store or the page could not be read or written;
# 130 interrupted. The last line says which, in words. After looking at a regression, a person acknowledges it
# ('cpbench history ack RUN --reason TEXT', RUN as the regression's line names it) and the next night is green again.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cpbench="${CPBENCH:-$root/cpbench}"
label="${NIGHTLY_LABEL:-env=nightly}"
fail_on="${NIGHTLY_FAIL_ON:-5%}"
out="${NIGHTLY_OUT:-results/nightly}"

say() { echo "nightly: $*"; }
if [[ -z "${CPBENCH_HISTORY:-}" ]]; then
  say "FAILED: CPBENCH_HISTORY is not set; give the team's store, e.g. jdbc:postgresql://db.lab:5432/cpbench?user=bench (its password in PGPASSWORD or ~/.pgpass)" >&2
  exit 2
fi
if [[ "$label" != *=* ]]; then
  say "FAILED: NIGHTLY_LABEL must be KEY=VALUE, was '$label'" >&2
  exit 2
fi
(($#)) || set -- matrix --quick
mkdir -p "$out" || { say "FAILED: cannot create $out" >&2; exit 2; }

say "1/3 cpbench $* --label $label --out $out/runs (recorded in the history)"
"$cpbench" "$@" --label "$label" --out "$out/runs"
run_rc=$?
if ((run_rc == 130 || run_rc == 143)); then
  say "INTERRUPTED: the run was stopped (exit $run_rc); what it measured is in $out/runs, marked INCOMPLETE" >&2
  exit 130
fi

say "2/3 cpbench history regressions --fail-on $fail_on --label $label"
"$cpbench" history regressions --fail-on "$fail_on" --label "$label"
regressions_rc=$?

say "3/3 cpbench history report --html $out/trend.html --label $label"
"$cpbench" history report --html "$out/trend.html" --label "$label"
page_rc=$?

problems=()
verdict=0
if ((run_rc == 2)); then
  problems+=("the run refused its input (exit 2)"); verdict=2
elif ((run_rc != 0)); then
  problems+=("the run did not end OK (exit $run_rc)"); verdict=1
fi
if ((regressions_rc == 1)); then
  problems+=("a regression of $fail_on or more (listed above; once looked at: cpbench history ack RUN --reason TEXT)")
  ((verdict == 0)) && verdict=1
elif ((regressions_rc != 0)); then
  problems+=("the regressions could not be read (exit $regressions_rc)"); verdict=2
fi
if ((page_rc != 0)); then
  problems+=("the trend page was not written (exit $page_rc)"); verdict=2
fi
if ((verdict == 0)); then
  say "OK: the run was OK and no regression of $fail_on or more; trend page $out/trend.html"
else
  joined=$(printf '%s; ' "${problems[@]}")
  say "FAILED: ${joined%; }" >&2
fi
exit "$verdict"
