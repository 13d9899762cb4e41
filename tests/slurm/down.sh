#!/bin/bash
# Stops the cluster up.sh started in $SLURM_DIR: slurmctld and slurmd, then munged if up.sh
# started it. Safe to run when they are already gone.
D=${SLURM_DIR:?set SLURM_DIR to the folder of the cluster}
export SLURM_CONF="$D/slurm.conf"
pids=()
for f in "$D/slurmctld.pid" "$D/slurmd.pid"; do
  [ -s "$f" ] && pids+=("$(cat "$f")")
done
scontrol shutdown >/dev/null 2>&1 || true
# Wait for both daemons to end (scontrol shutdown stops them), then make sure.
for _ in $(seq 100); do
  alive=0
  for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
  [ "$alive" = 0 ] && break
  sleep 0.1
done
for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
if [ -e "$D/munged-started" ] && [ -s /run/munge/munged.pid ]; then
  kill "$(cat /run/munge/munged.pid)" 2>/dev/null
  rm -f "$D/munged-started"
fi
exit 0
