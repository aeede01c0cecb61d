#!/usr/bin/env bash
# make test-slurm: a one-node Slurm cluster on this machine, then the Slurm
# recipes of docs/array-jobs.md submitted to it (TestSlurmArrayJobs).
#
# Debian's slurm-wlm and munge, run as root without systemd: munged,
# slurmctld and slurmd started by hand on a private state folder, the node
# described by `slurmd -C` (this machine's CPUs and memory), process
# tracking by /proc (proctrack/linuxproc) and no task plugin, so that no
# cgroup set-up is needed. Everything is stopped and removed on exit.
# SLURM_PORT (default 6817) moves the daemons' two ports if taken.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" != 0 ]; then
  echo "test-slurm: runs as root (it starts slurmd and munged)" >&2
  exit 1
fi
if ! command -v slurmctld >/dev/null 2>&1 || ! command -v slurmd >/dev/null 2>&1 ||
   ! command -v sbatch >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi
command -v go >/dev/null 2>&1 || export PATH=/usr/local/go/bin:$PATH

state=$(mktemp -d /tmp/runexp-slurm.XXXXXX)
chmod 755 "$state"
stop() {
  for p in slurmd slurmctld munge/munged; do
    if [ -f "$state/$p.pid" ]; then kill "$(cat "$state/$p.pid")" 2>/dev/null || true; fi
  done
  sleep 1
  rm -rf "$state"
}
trap stop EXIT

# munge: a fresh key, a private socket.
mkdir -p "$state/munge" && chmod 700 "$state/munge"
dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$state/munge/munge.key"
munged --key-file="$state/munge/munge.key" --socket="$state/munge/munge.socket" \
  --pid-file="$state/munge/munged.pid" --log-file="$state/munge/munged.log" \
  --seed-file="$state/munge/munged.seed" --force

port=${SLURM_PORT:-6817}
node=$(slurmd -C | head -1)   # NodeName=HOST CPUs=… RealMemory=…
host=$(echo "$node" | sed -n 's/^NodeName=\([^ ]*\).*/\1/p')
mkdir -p "$state/spool" "$state/ctld"
cat > "$state/slurm.conf" <<EOF
ClusterName=runexp-ci
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$state/munge/munge.socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MinJobAge=600
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
SlurmctldPort=$port
SlurmdPort=$((port + 1))
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$state/slurm.conf
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for i in $(seq 60); do
  if sinfo -h -o %t 2>/dev/null | grep -qx idle; then break; fi
  if [ "$i" = 60 ]; then
    echo "test-slurm: the node did not come up" >&2
    tail -20 "$state/slurmctld.log" "$state/slurmd.log" >&2 || true
    exit 1
  fi
  sleep 1
done
echo "test-slurm: one-node cluster up: $node"

t0=$(date +%s)
RUNEXP_SLURM=1 go test -count=1 -timeout 30m -run '^TestSlurmArrayJobs$' -v ./cmd/runexp
echo "test-slurm: passed in $(( $(date +%s) - t0 )) s"
