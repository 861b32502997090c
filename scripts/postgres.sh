#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for the tests and the benchmark: its own data folder and port on
# loopback, run as the `postgres` user (the server refuses to run as root, and CI runs as root).
#
#   eval "$(bash scripts/postgres.sh start)"   # installs Debian's postgresql if missing, starts a cluster,
#                                              # prints `export IAPLENS_TEST_POSTGRES_URL=… IAPLENS_TEST_POSTGRES_DIR=…`
#   bash scripts/postgres.sh stop "$IAPLENS_TEST_POSTGRES_DIR"
#   bash scripts/postgres.sh start --durable   # the server's own durability settings (fsync on): for benchmarks
#
# The cluster uses password authentication (SCRAM) for its one role, so the URL carries the password the
# way a real deployment's would; nothing listens beyond 127.0.0.1.
set -euo pipefail

command=${1:-}
case "$command" in
start)
    if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
        echo "postgres: installing Debian's postgresql" >&2
        sudo_cmd=""
        [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
        $sudo_cmd apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq postgresql >/dev/null
    fi
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
    dir=$(mktemp -d /tmp/iaplens-postgres.XXXXXX)
    chmod 755 "$dir"
    # A free port: ask the kernel for one.
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    password="iaplens-test-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
    printf '%s\n' "$password" > "$dir/pwfile"
    as_postgres() {
        if [ "$(id -un)" = postgres ]; then "$@"; elif [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else
            sudo -u postgres "$@"; fi
    }
    if [ "$(id -u)" -eq 0 ]; then chown -R postgres:postgres "$dir"; fi
    as_postgres "$bin/initdb" -D "$dir/data" -U iaplens --pwfile="$dir/pwfile" --auth=scram-sha-256 \
        --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    settings="-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c max_connections=60"
    if [ "${2:-}" = "--durable" ]; then
        # A benchmark server: PostgreSQL's durability as shipped (fsync, synchronous commit), with the WAL allowed
        # to grow between checkpoints as any server taking bulk loads is configured.
        settings="$settings -c max_wal_size=8GB -c shared_buffers=256MB"
    else
        # Small and fast: a test cluster holds nothing worth an fsync.
        settings="$settings -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    fi
    as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o "$settings" \
        start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    PGPASSWORD="$password" "$bin/psql" -h 127.0.0.1 -p "$port" -U iaplens -d postgres -qAt \
        -c "CREATE DATABASE iaplens_test" >/dev/null
    echo "export IAPLENS_TEST_POSTGRES_URL='postgresql://iaplens:$password@127.0.0.1:$port/iaplens_test'"
    echo "export IAPLENS_TEST_POSTGRES_DIR='$dir'"
    ;;
stop)
    dir=${2:?usage: postgres.sh stop DIR}
    [ -d "$dir/data" ] || exit 0
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    else
        "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || sudo -u postgres "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: postgres.sh start | stop DIR" >&2
    exit 64
    ;;
esac
