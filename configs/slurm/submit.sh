#!/bin/bash
# Submits a tournament to Slurm as a job array of SHARDS shards and a merge job that runs once
# every shard has succeeded; prints the two job ids. Run it from the project's folder (on a
# shared file system the nodes see), after `cargo build --release --workspace`:
#   configs/slurm/submit.sh CONFIG OUT SHARDS [sbatch options for the shards...]
# e.g. configs/slurm/submit.sh configs/levels-rr.toml /shared/out/levels 8 --cpus-per-task=4
# The merged files land in OUT/merged. docs/cluster.md says how to watch and resume it.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 CONFIG OUT SHARDS [sbatch options for the shards...]" >&2
  exit 2
fi
config=$1 out=$2 shards=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
# Absolute paths: the tasks start in the submitting folder, but say it plainly.
config=$(realpath "$config")
out=$(realpath "$out")
quads=$(realpath "${QUADS:-target/release/quads}")
export CONFIG=$config OUT=$out QUADS=$quads
array=$(sbatch --parsable --array="0-$((shards - 1))" --output="$out/slurm-shard-%a.out" \
  "$@" "$here/tournament.sbatch")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" --output="$out/slurm-merge.out" \
  "$here/merge.sbatch")
merge=${merge%%;*}
echo "$array $merge"
