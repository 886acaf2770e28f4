#!/usr/bin/env bash
# ======================================================================
#  TEST STAND-IN, NOT WAVES. A stand-in for `waves batch` while it is
#  being written, so that contrib/'s scheduler adapters (Slurm, Ray) can
#  be tried end to end. It does peaks items only, one at a time, by
#  calling `waves peaks --audio IN --dat|--json OUT`. Delete it once
#  `waves batch` has landed; nothing outside contrib/testing uses it.
# ======================================================================
#
#   fake-waves-batch.sh [batch] --manifest FILE|- [--shard K/N | --shard auto [--shards N]]
#                       [--jobs N] [--results FILE] [--progress bar|json|none] [--force]
#
# As waves batch: the manifest's items (JSON lines {"id","input","output",
# "kind",...options}) whose position mod N is K; --shard auto reads
# SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN of SLURM_ARRAY_TASK_COUNT,
# AWS_BATCH_JOB_ARRAY_INDEX of AWS_BATCH_JOB_ARRAY_SIZE (or --shards), or
# JOB_COMPLETION_INDEX of --shards. Each output is written to a temporary
# name and renamed; one newer than its input is skipped unless --force
# (the real command compares a fingerprint). Results: one JSON line per
# item {"id","input","output","status","reason","seconds","peak_rss_mb"}.
# Exit: 0 all ok or skipped, 65 some failed for good (waves peaks said 65
# or 66), 75 some failed otherwise (worth a retry), 64 usage.
# --jobs and --progress are accepted and ignored.
#
# The waves it calls: $FAKE_WAVES_BIN, else `waves` on PATH, else this
# checkout's .build/debug/waves.
set -uo pipefail

prog="fake-waves-batch (test stand-in)"
usage() { echo "$prog: $*" >&2; exit 64; }

[ "${1:-}" = batch ] && shift
manifest='' shard='' shards='' results='' force=0
while [ $# -gt 0 ]; do
  case $1 in
    --manifest) manifest=${2-}; shift 2 || usage "--manifest needs a value" ;;
    --shard) shard=${2-}; shift 2 || usage "--shard needs a value" ;;
    --shards) shards=${2-}; shift 2 || usage "--shards needs a value" ;;
    --jobs|--progress) shift 2 || usage "$1 needs a value" ;;
    --results) results=${2-}; shift 2 || usage "--results needs a value" ;;
    --force) force=1; shift ;;
    *) usage "unknown argument $1" ;;
  esac
done
[ -n "$manifest" ] || usage "--manifest FILE|- is required"

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
waves=${FAKE_WAVES_BIN:-$(command -v waves || echo "$here/../../.build/debug/waves")}
[ -x "$waves" ] || usage "no waves binary ($waves): set FAKE_WAVES_BIN"

# Which shard.
int() { case ${1:-} in ''|*[!0-9]*) return 1 ;; esac; }
if [ -z "$shard" ]; then
  [ -z "$shards" ] || usage "--shards only with --shard auto"
  index=0 count=1
elif [ "$shard" = auto ]; then
  if int "${SLURM_ARRAY_TASK_ID:-}" && int "${SLURM_ARRAY_TASK_COUNT:-}"; then
    index=$(( SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-0} )) count=$SLURM_ARRAY_TASK_COUNT
  elif int "${AWS_BATCH_JOB_ARRAY_INDEX:-}"; then
    index=$AWS_BATCH_JOB_ARRAY_INDEX count=${AWS_BATCH_JOB_ARRAY_SIZE:-$shards}
  elif int "${JOB_COMPLETION_INDEX:-}"; then
    index=$JOB_COMPLETION_INDEX count=$shards
  else
    usage "--shard auto: no scheduler array index in the environment"
  fi
  int "$count" || usage "--shard auto: no count (SLURM_ARRAY_TASK_COUNT, AWS_BATCH_JOB_ARRAY_SIZE or --shards N)"
else
  index=${shard%/*} count=${shard#*/}
  int "$index" && int "$count" || usage "--shard $shard: expected K/N or auto"
fi
[ "$count" -ge 1 ] && [ "$index" -lt "$count" ] || usage "shard $index of $count is out of range"

text=$(if [ "$manifest" = - ]; then cat; else cat -- "$manifest"; fi) || usage "cannot read manifest $manifest"

# The shard's items as tab-separated fields: id, input, output, kind, then the options as arguments.
items=$(python3 -c '
import json, sys
index, count = int(sys.argv[1]), int(sys.argv[2])
lines = [l for l in sys.stdin.read().splitlines() if l.strip()]
for pos, line in enumerate(lines):
    try:
        o = json.loads(line)
        assert isinstance(o, dict) and o.get("input") and o.get("output")
    except Exception:
        print(f"manifest item {pos + 1} is not an item", file=sys.stderr); sys.exit(65)
    if pos % count != index:
        continue
    args = []
    for k in sorted(o):
        if k in ("id", "input", "output", "kind"): continue
        v = o[k]
        if v is True: args.append("--" + k)
        elif v is False: pass
        else: args += ["--" + k, str(v)]
    print("\t".join([str(o.get("id", o["input"])), o["input"], o["output"], o.get("kind", "peaks")] + args))
' "$index" "$count" <<<"$text") || exit $?

result() { # id input output status reason seconds rss
  python3 -c 'import json, sys; a = sys.argv[1:]
print(json.dumps({"id": a[0], "input": a[1], "output": a[2], "status": a[3], "reason": a[4] or None,
                  "seconds": float(a[5]), "peak_rss_mb": float(a[6]) if a[6] else None}))' "$@"
}

out=/dev/null
if [ -n "$results" ]; then
  mkdir -p "$(dirname "$results")"
  : >"$results" || usage "cannot write $results"
  out=$results
fi

permanent=0 temporary=0
while IFS=$'\t' read -r -a f; do
  [ ${#f[@]} -ge 4 ] || continue
  id=${f[0]} input=${f[1]} output=${f[2]} kind=${f[3]} opts=("${f[@]:4}")
  start=$EPOCHREALTIME rss='' reason='' status=ok
  if [ "$kind" != peaks ]; then
    status=failed reason="the test stand-in does peaks items only (kind $kind)"; permanent=1
  elif [ $force = 0 ] && [ -f "$output" ] && [ "$output" -nt "$input" ]; then
    status=skipped reason="output newer than its input"
  else
    mkdir -p "$(dirname "$output")"
    case $output in *.json) flag=--json ;; *) flag=--dat ;; esac
    tmp="$(dirname "$output")/.partial.$$.$(basename "$output")"
    log=$(mktemp)
    if [ -x /usr/bin/time ]; then
      /usr/bin/time -f '%M' -o "$log.rss" "$waves" peaks --audio "$input" "$flag" "$tmp" "${opts[@]}" >/dev/null 2>"$log"
      rc=$?; rss=$(awk 'END { printf "%.1f", $1 / 1024 }' "$log.rss" 2>/dev/null); rm -f "$log.rss"
    else
      "$waves" peaks --audio "$input" "$flag" "$tmp" "${opts[@]}" >/dev/null 2>"$log"; rc=$?
    fi
    if [ $rc = 0 ] && mv -f "$tmp" "$output"; then
      :
    else
      rm -f "$tmp"
      reason=$(grep -m1 . "$log" || echo "waves peaks exited $rc")
      status=failed
      case $rc in 65|66) permanent=1 ;; *) temporary=1 ;; esac
    fi
    rm -f "$log"
  fi
  seconds=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
  result "$id" "$input" "$output" "$status" "$reason" "$seconds" "$rss" >>"$out"
  [ $status = failed ] && echo "$prog: $id: $reason" >&2
done <<<"$items"

[ $temporary = 1 ] && exit 75
[ $permanent = 1 ] && exit 65
exit 0
