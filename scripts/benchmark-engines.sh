#!/usr/bin/env bash
# The two store engines side by side: for each archive size, in one run,
#   verified ingest into SQLite and into PostgreSQL (a local server started here with its durability as shipped,
#   sharing the machine's cores with iaplens), iaplens's peak memory, analyze + report on each engine,
#   and whether the two report folders are byte-identical.
# Archives are the ones scripts/benchmark.sh simulates (made here too when missing), about 1,000·K notifications.
#
# Usage: scripts/benchmark-engines.sh [--sizes "100k 1m"] [--data DIR] [--skip-build] [--database URL]
#   --database  a PostgreSQL URL to use instead of starting a local server (a fresh ?schema= is added per size)
set -euo pipefail
cd "$(dirname "$0")/.."

sizes="100k 1m"
data=/work/bench-data
build=1
url=""
while [ $# -gt 0 ]; do
    case "$1" in
        --sizes) sizes="$2"; shift 2 ;;
        --data) data="$2"; shift 2 ;;
        --skip-build) build=0; shift ;;
        --database) url="$2"; shift 2 ;;
        *) echo "benchmark-engines: unknown option $1" >&2; exit 2 ;;
    esac
done
command -v /usr/bin/time >/dev/null || { echo "benchmark-engines: /usr/bin/time missing (apt-get install -y time)" >&2; exit 1; }
bash scripts/setup.sh
[ $build -eq 1 ] && { swift build -c release --product iaplens 2>&1 | grep -E "error|Build" || true; }
iaplens="$(swift build -c release --show-bin-path)/iaplens"
mkdir -p "$data"
results="$data/engines.txt"
: > "$results"
if [ -z "$url" ]; then
    eval "$(bash scripts/postgres.sh start --durable)"
    trap 'bash scripts/postgres.sh stop "$IAPLENS_TEST_POSTGRES_DIR"' EXIT
    url="$IAPLENS_TEST_POSTGRES_URL"
fi
bundle=com.example.iaplens.demo
note() { echo "benchmark-engines: $*" >&2; }
record() { echo "$1 $2" >> "$results"; }
source scripts/bench-common.sh
record machine_cores "$(nproc)"
record postgres_version "$(psql --version | awk '{ print $3 }')"

for size in $sizes; do
    archive=$(simulated_archive "$iaplens" "$data" "$size" clean)
    common=(--bundle-id "$bundle" --app-apple-id 1234567890)
    root=(--root-certificate "$archive/certs/root.pem")  # ingest only: analyze and report refuse it
    refs=(--products "$archive/products.csv" --accounts "$archive/accounts.csv")
    for engine in sqlite postgres; do
        if [ $engine = sqlite ]; then
            db="$data/engines-$size.sqlite"
            rm -f "$db" "$db-wal" "$db-shm" "$db.lock"
        else
            db="$url?schema=bench_${size}_$$"
        fi
        note "$engine: ingest $size (verified)"
        /usr/bin/time -v "$iaplens" ingest --input "$archive" --database "$db" "${common[@]}" "${root[@]}" \
            > "$data/engines-ingest-$size-$engine.out" 2> "$data/engines-ingest-$size-$engine.time"
        record "${engine}_${size}_documents" \
            "$(sed -nE 's/^ingest: .* ([0-9]+) document\(s\):.*/\1/p' "$data/engines-ingest-$size-$engine.out" | tail -1)"
        record "${engine}_${size}_ingest_seconds" "$(elapsed "$data/engines-ingest-$size-$engine.time")"
        record "${engine}_${size}_ingest_peak_kb" "$(peak_kb "$data/engines-ingest-$size-$engine.time")"
        note "$engine: analyze $size"
        /usr/bin/time -v "$iaplens" analyze --rebuild --database "$db" "${common[@]}" "${refs[@]}" \
            > /dev/null 2> "$data/engines-analyze-$size-$engine.time"
        record "${engine}_${size}_analyze_seconds" "$(elapsed "$data/engines-analyze-$size-$engine.time")"
        rm -rf "$data/engines-reports-$size-$engine"
        note "$engine: report $size"
        /usr/bin/time -v "$iaplens" report --database "$db" "${common[@]}" "${refs[@]}" \
            --reports "$data/engines-reports-$size-$engine" > /dev/null 2> "$data/engines-report-$size-$engine.time"
        record "${engine}_${size}_report_seconds" "$(elapsed "$data/engines-report-$size-$engine.time")"
        [ $engine = sqlite ] && rm -f "$db" "$db-wal" "$db-shm"
    done
    if diff -r "$data/engines-reports-$size-sqlite" "$data/engines-reports-$size-postgres" > "$data/engines-diff-$size.txt"; then
        record "${size}_reports_identical" 1
    else
        record "${size}_reports_identical" 0
    fi
    record "${size}_report_files" "$(find "$data/engines-reports-$size-sqlite" -type f | wc -l)"
done

python3 - "$results" "$sizes" <<'PY'
import sys
v = {}
for line in open(sys.argv[1]):
    key, _, value = line.strip().partition(" ")
    v[key] = value
n = lambda key: float(v[key])
print()
print(f"machine: {v['machine_cores']} cores; PostgreSQL {v['postgres_version']} on the same machine")
print(f"{'size':>6} {'engine':>9} {'documents':>10} {'ingest s':>9} {'docs/s':>9} {'peak MB':>8} {'analyze s':>10} {'report s':>9} {'a+r/ingest':>11}")
for size in sys.argv[2].split():
    for engine in ("sqlite", "postgres"):
        docs, t = n(f"{engine}_{size}_documents"), n(f"{engine}_{size}_ingest_seconds")
        ta, tr = n(f"{engine}_{size}_analyze_seconds"), n(f"{engine}_{size}_report_seconds")
        print(f"{size:>6} {engine:>9} {docs:>10,.0f} {t:>9.1f} {docs / t:>9,.0f} {n(f'{engine}_{size}_ingest_peak_kb') / 1024:>8.0f} "
              f"{ta:>10.1f} {tr:>9.1f} {(ta + tr) / t:>10.1%}")
    rate = (n(f"postgres_{size}_documents") / n(f"postgres_{size}_ingest_seconds")) / (n(f"sqlite_{size}_documents") / n(f"sqlite_{size}_ingest_seconds"))
    pg_ar = (n(f"postgres_{size}_analyze_seconds") + n(f"postgres_{size}_report_seconds")) / n(f"postgres_{size}_ingest_seconds")
    same = v[f"{size}_reports_identical"] == "1"
    print(f"{size}: PostgreSQL ingest at {rate:.0%} of SQLite's rate (target >= 60 %) {'met' if rate >= 0.6 else 'NOT MET'}; "
          f"PostgreSQL analyze + report {pg_ar:.1%} of its ingest (target <= 15 %) {'met' if pg_ar <= 0.15 else 'NOT MET'}; "
          f"peak {n(f'postgres_{size}_ingest_peak_kb') / 1024:.0f} MB (target <= 200 MB) "
          f"{'met' if n(f'postgres_{size}_ingest_peak_kb') / 1024 <= 200 else 'NOT MET'}; "
          f"{int(n(f'{size}_report_files'))} report files {'byte-identical' if same else 'DIFFER (see engines-diff-' + size + '.txt)'}")
PY
