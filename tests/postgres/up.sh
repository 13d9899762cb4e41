#!/bin/bash
# Starts a throwaway PostgreSQL server for the tests (scripts/test calls it): a new cluster in
# $1 (emptied first), run by the `postgres` user on 127.0.0.1 at a free port, every local
# connection trusted. Prints the lines that tell the tests where it is:
#   QUADS_TEST_POSTGRES=postgres://postgres@127.0.0.1:PORT   (a database per test goes after it)
#   QUADS_TEST_POSTGRES_DATA=DIR                             (for the test that restarts it)
# Needs root and Debian's postgresql (scripts/test installs it). Stop it with down.sh.
set -euo pipefail
dir=${1:?give a folder for the cluster}
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "postgres/up.sh: no PostgreSQL server under /usr/lib/postgresql" >&2; exit 1; }
rm -rf "$dir"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
chown postgres: "$dir"
as_pg() { runuser -u postgres -- "$@"; }
as_pg "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# Data safety is not what these tests are about: no fsync, so a restart is quick.
as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=200" >/dev/null \
  || { cat "$dir/server.log" >&2; exit 1; }
echo "QUADS_TEST_POSTGRES=postgres://postgres@127.0.0.1:$port"
echo "QUADS_TEST_POSTGRES_DATA=$dir/data"
