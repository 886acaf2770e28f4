#!/usr/bin/env bash
# Stops what contrib/slurm/start-local-slurm.sh started and removes its folder:
# cancels the cluster's jobs, stops slurmd and slurmctld, stops munged only
# if the start script started it (a munged that was already running stays),
# and removes the folder.
#
#   contrib/slurm/stop-local-slurm.sh          # WAVES_SLURM_DIR as for start
#   WAVES_SLURM_KEEP=1 contrib/slurm/stop-local-slurm.sh   # keep the folder (logs)
#
# Exit status: 0 stopped (or nothing was running); 1 a daemon would not stop,
# or the folder is not the start script's (one line on stderr says which).
set -euo pipefail

prog="stop-local-slurm"
dir=${WAVES_SLURM_DIR:-${TMPDIR:-/tmp}/waves-slurm}
conf=$dir/slurm.conf

fail() { echo "$prog: $*" >&2; exit 1; }

if [ ! -e "$dir" ]; then
  echo "$prog: nothing to stop ($dir does not exist)" >&2
  exit 0
fi
[ -f "$dir/.waves-local-slurm" ] || fail "$dir is not start-local-slurm.sh's folder (no .waves-local-slurm in it): not touching it"

pid_of() { [ -s "$dir/$1.pid" ] && cat "$dir/$1.pid"; }
alive() { local pid; pid=$(pid_of "$1") && kill -0 "$pid" 2>/dev/null; }

# Stops one daemon by the pid in its file: TERM, then KILL after 10 s.
stop() {
  local name=$1 pid
  alive "$name" || return 0
  pid=$(pid_of "$name")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -9 "$pid" 2>/dev/null || true
  sleep 0.2
  ! kill -0 "$pid" 2>/dev/null || fail "$name (pid $pid) does not stop"
}

# The jobs first, while slurmctld and slurmd are there to end their steps.
if [ -f "$conf" ] && alive slurmctld; then
  jobs=$(SLURM_CONF=$conf squeue -h -o %A 2>/dev/null | sort -u | tr '\n' ' ' || true)
  if [ -n "${jobs// }" ]; then
    # shellcheck disable=SC2086
    SLURM_CONF=$conf scancel $jobs 2>/dev/null || true
    for _ in $(seq 100); do
      [ -z "$(SLURM_CONF=$conf squeue -h -o %A 2>/dev/null || true)" ] && break
      sleep 0.1
    done
  fi
fi

stop slurmd
stop slurmctld
stop munged

if [ "${WAVES_SLURM_KEEP:-0}" = 1 ]; then
  echo "$prog: stopped; kept $dir" >&2
else
  rm -rf "$dir"
  echo "$prog: stopped; removed $dir" >&2
fi
