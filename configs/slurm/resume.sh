#!/bin/bash
# Resumes a tournament submitted by submit.sh after shard tasks failed (a task killed, a node
# lost without --requeue taking over, an error fixed since): requeues every task of ARRAY that
# ended without success (each resumes from its shard's journal), and points the merge job MERGE at
# the array's tasks again. Slurm keeps an array's failure against `afterok:ARRAY` even after
# the task is requeued and succeeds, so the merge waits on each task by its own id instead.
#   configs/slurm/resume.sh ARRAY MERGE     (the two ids submit.sh printed)
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 ARRAY_JOB_ID MERGE_JOB_ID" >&2
  exit 2
fi
array=$1 merge=$2
# The tasks that ended without success; running and pending ones are left alone.
failed=$(scontrol show job -o "$array" \
  | grep -E 'JobState=(FAILED|CANCELLED|NODE_FAIL|TIMEOUT|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE)' \
  | grep -o 'ArrayTaskId=[0-9]*' | sed "s/ArrayTaskId=/${array}_/" | paste -sd, -)
if [ -n "$failed" ]; then
  scontrol requeue "$failed"
fi
# The array's tasks run from 0 to the highest index (a still pending range shows as 2-3).
last=$(scontrol show job -o "$array" | grep -o 'ArrayTaskId=[0-9,%-]*' | grep -o '[0-9]*' | sort -n | tail -1)
tasks=$(seq 0 "$last" | sed "s/^/${array}_/" | paste -sd: -)
scontrol update jobid="$merge" dependency="afterok:$tasks"
echo "requeued: ${failed:-none}; merge $merge waits for $tasks"
