#!/bin/bash
# Starts a one-node Slurm cluster on this machine for tests/slurm.rs: munged, slurmctld and
# slurmd, as root, with every state, spool and log file under $SLURM_DIR. Prints the path of
# its slurm.conf (give it to Slurm's commands as SLURM_CONF) once the node is idle.
# Needs Debian's slurm-wlm and munge (.ci/run installs them). Stop it with down.sh.
set -euo pipefail
D=${SLURM_DIR:?set SLURM_DIR to a folder for the state of the cluster}
mkdir -p "$D"/ctld "$D"/spool "$D"/log

# munge authenticates Slurm's daemons to each other; one daemon serves the whole machine.
if [ ! -s /etc/munge/munge.key ]; then
  dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
  chown munge:munge /etc/munge/munge.key
  chmod 400 /etc/munge/munge.key
fi
if ! munge -n >/dev/null 2>&1; then
  install -d -o munge -g munge -m 755 /run/munge
  runuser -u munge -- /usr/sbin/munged
  touch "$D/munged-started"   # so that down.sh stops it, and only then
fi
munge -n | unmunge >/dev/null

# The node as slurmd sees it (CPUs, cores, memory), named localhost.
node=$(slurmd -C | head -1 | sed 's/^NodeName=[^ ]*/NodeName=localhost NodeAddr=127.0.0.1/')
cat > "$D/slurm.conf" <<CONF
ClusterName=quads-ci
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# A requeued task waits cred_expire seconds before it may start again (120 by default).
AuthInfo=cred_expire=10
StateSaveLocation=$D/ctld
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
$node State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$D/slurm.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF" -N localhost
for _ in $(seq 150); do
  [ "$(sinfo -h -N -o %T 2>/dev/null)" = idle ] && break
  sleep 0.2
done
if [ "$(sinfo -h -N -o %T 2>/dev/null)" != idle ]; then
  echo "the Slurm node never became idle:" >&2
  sinfo -N -l >&2 || true
  tail -n 30 "$D"/log/*.log >&2 || true
  exit 1
fi
echo "$SLURM_CONF"
