# A throw-away PostgreSQL server for the tests and benches that need a real
# one: Debian's postgresql binaries, a cluster in a temporary directory,
# listening only on a unix socket in that directory (no TCP port to clash
# with anything), run as user postgres when we are root (the server refuses
# root). Sourced; not a suite.
#   pg_start   creates and starts it in a new temporary directory, creates
#              database "mmc"; sets PG_DIR and PG_URL
#   pg_stop    stops it and removes the directory (call it from an EXIT trap)
# shellcheck shell=sh
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
PG_DIR="" PG_URL=""

pg_as() { # the server's commands run as postgres when we are root
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_start() {
    [ -n "$PG_BIN" ] && [ -x "$PG_BIN/initdb" ] || { echo "pg_start: no /usr/lib/postgresql/*/bin/initdb (apt-get install postgresql)" >&2; return 1; }
    PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/mmc-pg.XXXXXX") || return 1
    [ "$(id -u)" -ne 0 ] || chown postgres "$PG_DIR" || return 1
    pg_as "$PG_BIN/initdb" -D "$PG_DIR/data" -A trust -U mmc -E UTF8 --locale=C.UTF-8 --no-sync >"$PG_DIR/initdb.log" 2>&1 ||
        { echo "pg_start: initdb failed:" >&2; tail -5 "$PG_DIR/initdb.log" >&2; return 1; }
    pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
        -o "-k $PG_DIR -c listen_addresses= -c max_connections=50" start >/dev/null 2>&1 ||
        { echo "pg_start: the server did not start:" >&2; tail -5 "$PG_DIR/server.log" >&2; return 1; }
    "$PG_BIN/createdb" -h "$PG_DIR" -U mmc mmc || return 1
    # shellcheck disable=SC2034 # for the script that sources this
    PG_URL="postgresql://mmc@/mmc?host=$PG_DIR"
}

pg_stop() {
    [ -n "$PG_DIR" ] || return 0
    [ ! -f "$PG_DIR/data/postmaster.pid" ] || pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1
    rm -rf "$PG_DIR"
    PG_DIR=""
}
