#!/usr/bin/env bash
# A real one-node Slurm on this machine, for trying and testing
# contrib/slurm/waves-array.sbatch: munged, slurmctld and slurmd, with their
# configuration, state, spool and logs in one folder.
#
#   export "$(contrib/slurm/start-local-slurm.sh)"   # prints SLURM_CONF=<folder>/slurm.conf
#   sbatch --wait --array=0-3%2 contrib/slurm/waves-array.sbatch manifest.jsonl
#   contrib/slurm/stop-local-slurm.sh
#
# Installs nothing: `make cluster-deps` installs Debian's slurm-wlm (22.05)
# and munge. Runs as root (slurmd starts jobs as their users, munged runs as
# the munge user). Settings, from the environment:
#   WAVES_SLURM_DIR      the folder ($TMPDIR or /tmp, then waves-slurm)
#   WAVES_SLURM_PORT     slurmctld's port (6817); slurmd takes the next one
#   WAVES_SLURM_TIMEOUT  seconds to wait for the node to be idle (60)
#
# Stdout is the one line SLURM_CONF=...; progress and failures are on stderr,
# a failure in one line that starts with "start-local-slurm:". Exit status:
# 0 the node is idle and takes jobs (or the cluster this folder holds was
# already up); 1 it could not be started (what this run started is stopped
# again; the logs stay in the folder); 2 usage (an unknown argument);
# 69 it cannot run here: Slurm or munge is not installed, or not root (a
# test may skip on 69).
# Rerunning is safe: a cluster that is up is left as it is, a folder whose
# daemons died is cleared and started again.
set -euo pipefail

prog="start-local-slurm"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${WAVES_SLURM_DIR:-${TMPDIR:-/tmp}/waves-slurm}
port=${WAVES_SLURM_PORT:-6817}
timeout=${WAVES_SLURM_TIMEOUT:-60}
conf=$dir/slurm.conf

say() { echo "$prog: $*" >&2; }
fail() { echo "$prog: $*" >&2; exit 1; }

case ${1:-} in
  "") ;;
  -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//' >&2; exit 0 ;;
  *) echo "$prog: unknown argument $1 (it takes none; settings are WAVES_SLURM_DIR, WAVES_SLURM_PORT, WAVES_SLURM_TIMEOUT)" >&2; exit 2 ;;
esac

unavailable() { echo "$prog: $*" >&2; exit 69; }
[ "$(id -u)" = 0 ] || unavailable "must run as root (slurmd starts jobs as their users, munged runs as munge); try: sudo $0"
for c in slurmctld slurmd sinfo scontrol munged munge unmunge runuser; do
  command -v "$c" >/dev/null || unavailable "$c not found: run 'make cluster-deps' (Debian's slurm-wlm and munge)"
done
case $port in ''|*[!0-9]*) fail "WAVES_SLURM_PORT=$port is not a port number" ;; esac
case $timeout in ''|*[!0-9]*) fail "WAVES_SLURM_TIMEOUT=$timeout is not a whole number of seconds" ;; esac

alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
# A daemon's first error line (or its last line): why it stopped.
why() { { grep -h fatal "$@" 2>/dev/null || grep -h error "$@" 2>/dev/null | tail -n1 || tail -qn1 "$@" 2>/dev/null; } | head -n1; }
node_state() { SLURM_CONF=$conf sinfo -h -N -o %t 2>/dev/null | head -n1 || true; }

# Already up? Then leave it as it is.
if [ -f "$conf" ] && alive "$dir/slurmctld.pid" && alive "$dir/slurmd.pid"; then
  case $(node_state) in
    idle|mix|alloc|comp)
      say "already up in $dir (node $(node_state))"
      echo "SLURM_CONF=$conf"
      exit 0 ;;
  esac
fi
# A folder left by a run whose daemons died (or half-started): clear it.
if [ -e "$dir" ]; then
  if [ -f "$dir/.waves-local-slurm" ]; then
    say "clearing $dir (its daemons are not all up)"
    WAVES_SLURM_DIR=$dir "$here/stop-local-slurm.sh" >&2 || fail "could not clear $dir"
  else
    fail "$dir exists and is not this script's folder: remove it or set WAVES_SLURM_DIR"
  fi
fi

# A port that answers already belongs to another Slurm (or anything else).
for p in "$port" "$((port + 1))"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
    fail "port $p is already in use (another slurmctld or slurmd?): stop it or set WAVES_SLURM_PORT"
  fi
done

start=$EPOCHREALTIME
mkdir -p "$dir/state" "$dir/spool"
chmod 755 "$dir"
touch "$dir/.waves-local-slurm"
started=()
cleanup() {
  # Only on failure: stop what this run started, keep the logs.
  local pid
  for pid in "${started[@]}"; do kill "$pid" 2>/dev/null || true; done
}
trap '[ $? -eq 0 ] || cleanup' EXIT

# munge: the key if missing, and munged (as the munge user) if none answers.
key=/etc/munge/munge.key
if [ ! -s "$key" ]; then
  say "making a munge key in $key"
  install -d -o munge -g munge -m 0700 /etc/munge
  mungekey --create --keyfile="$key" >&2 || dd if=/dev/urandom of="$key" bs=1024 count=1 status=none
  chown munge:munge "$key"
  chmod 0400 "$key"
fi
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  install -d -o munge -g munge -m 0755 /run/munge
  install -d -o munge -g munge -m 0700 /var/log/munge /var/lib/munge
  runuser -u munge -- munged </dev/null >"$dir/munged.out" 2>&1 || fail "munged did not start: $(tail -n1 "$dir/munged.out")"
  for _ in $(seq 50); do
    munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break
    sleep 0.1
  done
  munge -n 2>/dev/null | unmunge >/dev/null 2>&1 || fail "munged does not answer (see /var/log/munge/munged.log)"
  # Ours to stop: stop-local-slurm.sh stops the munged whose pid is here.
  cp /run/munge/munged.pid "$dir/munged.pid"
  started+=("$(cat "$dir/munged.pid")")
fi

# The node as slurmd sees it: its real CPUs, sockets, cores and memory.
node_line=$(slurmd -C | head -n1)
node=$(echo "$node_line" | sed -n 's/^NodeName=\([^ ]*\).*/\1/p')
[ -n "$node" ] || fail "slurmd -C printed no NodeName ($node_line)"
cpus=$(echo "$node_line" | sed -n 's/.* CPUs=\([0-9]*\).*/\1/p')
memory=$(echo "$node_line" | sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p')

cat >"$conf" <<EOF
# Written by contrib/slurm/start-local-slurm.sh: one node, this machine.
ClusterName=waves
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
# A requeued job waits the credential lifetime (120 s by default) before it
# may start again: 5 s here, the least Slurm takes.
AuthInfo=cred_expire=5
CryptoType=crypto/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true
# No cgroups: 22.05 has no "disabled" cgroup plugin, so nothing may load one
# (no cgroup.conf, no proctrack/cgroup, no task/cgroup).
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
# Cores and memory are what jobs take: --mem is held to the node's memory.
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=$(( memory / cpus ))
SchedulerType=sched/backfill
# Backfill every second (30 s by default): a requeued task starts again soon
# after its credential delay rather than at the next 30 s cycle.
SchedulerParameters=bf_interval=1
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
MinJobAge=300
JobRequeue=1
$node_line NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

# The daemons in the foreground (-D) of their own sessions, in the background
# of this script, their output in the folder (never this script's stdout, so
# a caller reading it sees its end when this script ends).
setsid slurmctld -D -f "$conf" </dev/null >"$dir/slurmctld.out" 2>&1 &
started+=($!)
echo $! >"$dir/slurmctld.pid"
setsid slurmd -D -N "$node" -f "$conf" </dev/null >"$dir/slurmd.out" 2>&1 &
started+=($!)
echo $! >"$dir/slurmd.pid"

deadline=$(( ${EPOCHREALTIME%.*} + timeout ))
state=
while :; do
  alive "$dir/slurmctld.pid" || fail "slurmctld exited: $(why "$dir/slurmctld.out" "$dir/slurmctld.log")"
  alive "$dir/slurmd.pid" || fail "slurmd exited: $(why "$dir/slurmd.out" "$dir/slurmd.log")"
  state=$(node_state)
  [ "$state" = idle ] && break
  [ "${EPOCHREALTIME%.*}" -lt "$deadline" ] || fail "node $node not idle after ${timeout} s (state '${state:-none}'; logs in $dir)"
  sleep 0.2
done

awk -v a="$start" -v b="$EPOCHREALTIME" -v n="$node" -v c="$cpus" -v m="$memory" -v d="$dir" \
  'BEGIN { printf "start-local-slurm: node %s (%s CPUs, %s MB) idle after %.1f s; folder %s\n", n, c, m, b - a, d }' >&2
echo "SLURM_CONF=$conf"
