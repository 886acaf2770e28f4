#!/usr/bin/env bash
# Submits contrib/slurm/waves-array.sbatch as an N-task array, waits for it
# (polling squeue every quarter second: `sbatch --wait` polls far more
# slowly, about 10 s for a 2 s array), merges the tasks' results files into
# one, and exits with one status for the whole array. For scripts and tests;
# by hand, plain sbatch does the same.
#
#   contrib/slurm/run-array.sh [--tasks N] [--parallel P] [--results FILE]
#                              [--timeout S] MANIFEST [WAVES-BATCH-OPTIONS...]
#
#   --tasks N      array tasks, shards 0..N-1 (default 4)
#   --parallel P   at most P tasks at once (default: all)
#   --results FILE the merged results, JSON lines in task order (default
#                  results.jsonl); the tasks' own files are
#                  results-<task>.jsonl beside it (old ones there are removed
#                  first), and their logs waves-batch-<job>_<task>.out
#   --timeout S    give up (and scancel the array) after S seconds (default 600)
# The environment reaches the tasks (WAVES, WAVES_MAX_REQUEUE: see
# waves-array.sbatch), and SLURM_CONF says which cluster. Stdout: the array's
# job id. Stderr: each task's end, and a summary line.
#
# Exit status, from the tasks' exit codes (scontrol's ExitCode): 0 all 0;
# 64 some task said usage; else 75 some task ended 75 after its requeues, or
# was killed, cancelled or timed out (retry can help); else 65 some items
# failed for good; else the highest other status a task exited with (73:
# waves could not create the results file, say); 1 this script could not
# submit or wait (one line says why), 2 its own usage.
set -uo pipefail

prog=run-array
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tasks=4 parallel='' results=results.jsonl timeout=600

usage() { echo "$prog: $*" >&2; exit 2; }
fail() { echo "$prog: $*" >&2; exit 1; }
int() { case ${1:-} in ''|*[!0-9]*) return 1 ;; esac; }

while [ $# -gt 0 ]; do
  case $1 in
    --tasks) int "${2:-}" && [ "$2" -ge 1 ] || usage "--tasks needs a count of 1 or more"; tasks=$2; shift 2 ;;
    --parallel) int "${2:-}" && [ "$2" -ge 1 ] || usage "--parallel needs a count of 1 or more"; parallel=$2; shift 2 ;;
    --results) [ -n "${2:-}" ] || usage "--results needs a file"; results=$2; shift 2 ;;
    --timeout) int "${2:-}" || usage "--timeout needs seconds"; timeout=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//' >&2; exit 0 ;;
    --) shift; break ;;
    -*) usage "unknown option $1 (the manifest comes before waves batch's options)" ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || usage "no manifest (usage: $prog [--tasks N] [--parallel P] [--results FILE] [--timeout S] MANIFEST [OPTIONS...])"
manifest=$1; shift
[ -r "$manifest" ] || fail "cannot read manifest $manifest"
command -v sbatch >/dev/null || fail "sbatch not found: run 'make cluster-deps' and contrib/slurm/start-local-slurm.sh"

results_dir=$(dirname "$results")
mkdir -p "$results_dir" || fail "cannot make $results_dir"
rm -f "$results_dir"/results-[0-9]*.jsonl

array="0-$((tasks - 1))${parallel:+%$parallel}"
job=$(WAVES_RESULTS_DIR=$results_dir sbatch --parsable --array="$array" \
        --output="$results_dir/waves-batch-%A_%a.out" "$here/waves-array.sbatch" "$manifest" "$@" 2>&1) ||
  fail "sbatch failed: $job"
job=${job%%;*}
echo "$job"

deadline=$(( ${EPOCHREALTIME%.*} + timeout ))
while [ -n "$(squeue -h -r -j "$job" -o %i 2>/dev/null)" ]; do
  if [ "${EPOCHREALTIME%.*}" -ge "$deadline" ]; then
    scancel "$job" 2>/dev/null
    fail "array $job not done after $timeout s: cancelled"
  fi
  sleep 0.25
done

usage_seen=0 temporary=0 permanent=0 other=0
for ((t = 0; t < tasks; t++)); do
  info=$(scontrol -o show job "${job}_$t" 2>/dev/null) || { echo "$prog: task $t: no record" >&2; temporary=1; continue; }
  state=$(sed -n 's/.* JobState=\([^ ]*\).*/\1/p' <<<"$info")
  code=$(sed -n 's/.* ExitCode=\([0-9]*\):\([0-9]*\).*/\1 \2/p' <<<"$info")
  restarts=$(sed -n 's/.* Restarts=\([0-9]*\).*/\1/p' <<<"$info")
  read -r status signal <<<"$code"
  echo "$prog: task $t: $state, exit ${status:-?}$([ "${signal:-0}" = 0 ] || echo " (signal $signal)"), requeued ${restarts:-0} times" >&2
  [ "${signal:-0}" = 0 ] || temporary=1
  case $state in COMPLETED|FAILED) ;; *) temporary=1 ;; esac
  case ${status:-} in
    0) ;;
    64) usage_seen=1 ;;
    65) permanent=1 ;;
    75|'') temporary=1 ;;
    *) [ "$status" -gt "$other" ] && other=$status ;;
  esac
done

# The tasks' results, in task order, as one file (written whole, then renamed).
tmp="$results.partial.$$"
: >"$tmp"
for ((t = 0; t < tasks; t++)); do
  [ -f "$results_dir/results-$t.jsonl" ] && cat "$results_dir/results-$t.jsonl" >>"$tmp"
done
mv -f "$tmp" "$results"
echo "$prog: array $job: $tasks tasks, $(grep -c . "$results") results in $results" >&2

[ $usage_seen = 1 ] && exit 64
[ $temporary = 1 ] && exit 75
[ $permanent = 1 ] && exit 65
exit "$other"
