#!/usr/bin/env bash
# postgres.sh start|stop|url - a throw-away local PostgreSQL server for the test suite.
# Runs from Debian's postgresql package on 127.0.0.1:$MEMEBOARD_PG_PORT (default 55432), data
# in $MEMEBOARD_PG_DIR (default /tmp/memeboard-pg), trust auth, fsync off. As root it runs
# the server as the `postgres` system user (PostgreSQL refuses to run as root).
set -euo pipefail
PORT="${MEMEBOARD_PG_PORT:-55432}"
DIR="${MEMEBOARD_PG_DIR:-/tmp/memeboard-pg}"
BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
[ -n "$BIN" ] || { echo "postgres.sh: PostgreSQL is not installed (run scripts/setup.sh)" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-start}" in
  start)
    if as_owner "$BIN/pg_ctl" -D "$DIR" status >/dev/null 2>&1; then
      echo "postgres already running on port $PORT"
    else
      if [ ! -f "$DIR/PG_VERSION" ]; then
        rm -rf "$DIR"; mkdir -p "$DIR"
        [ "$(id -u)" = 0 ] && chown postgres: "$DIR"
        as_owner "$BIN/initdb" -D "$DIR" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null
      fi
      as_owner "$BIN/pg_ctl" -D "$DIR" -l "$DIR/server.log" -w -t 60 \
        -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200" start >/dev/null
      echo "postgres started on port $PORT"
    fi ;;
  stop)
    as_owner "$BIN/pg_ctl" -D "$DIR" -m fast stop >/dev/null 2>&1 || true ;;
  url)
    echo "postgres://postgres@127.0.0.1:$PORT/postgres" ;;
  *) echo "usage: $0 start|stop|url" >&2; exit 2 ;;
esac
