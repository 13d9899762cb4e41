#!/bin/bash
# Stops the server tests/postgres/up.sh started in $1, and removes its cluster.
set -uo pipefail
dir=${1:?give the folder of the cluster}
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
[ -d "$dir/data" ] && runuser -u postgres -- "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1
rm -rf "$dir"
