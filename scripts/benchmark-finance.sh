#!/usr/bin/env bash
# What Apple's financial reports cost: on a
# simulated archive (the benchmark's, with the FINANCE_DETAIL reports the simulator writes for it: one per fiscal
# month), ingest the notifications, then time analyze + report without any report loaded, then the loading of a
# year of reports alone, then analyze + report again with them. Stores on SQLite, and on PostgreSQL when
# IAPLENS_TEST_POSTGRES_URL names a server (eval "$(bash scripts/postgres.sh start)").
#
# --shape clean (the default, as the early rounds measured): the notifications alone, without reference files.
# --shape real: the archive shaped like real ones (scripts/bench-common.sh), and everything a team would give
# it: the notifications, the notification-history, refund-history and order-lookup pages, and products.csv and
# accounts.csv at analyze and report.
#
# Usage: scripts/benchmark-finance.sh [--size 1m] [--shape clean|real] [--data DIR] [--skip-build]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-common.sh

size=1m
data=/work/bench-data
build=1
shape=clean
while [ $# -gt 0 ]; do
    case "$1" in
        --size) size="$2"; shift 2 ;;
        --data) data="$2"; shift 2 ;;
        --shape) shape="$2"; shift 2 ;;
        --skip-build) build=0; shift ;;
        *) echo "benchmark-finance: unknown option $1" >&2; exit 2 ;;
    esac
done
command -v /usr/bin/time >/dev/null || { echo "benchmark-finance: /usr/bin/time missing (apt-get install -y time)" >&2; exit 1; }
[ $build -eq 1 ] && swift build -c release --product iaplens >/dev/null
iaplens="$(swift build -c release --show-bin-path)/iaplens"
mkdir -p "$data"
case "$shape" in clean|real) ;; *) echo "benchmark-finance: --shape is clean or real, not $shape" >&2; exit 2 ;; esac
archive=$(simulated_archive "$iaplens" "$data" "$size" "$shape")
[ -d "$archive/finance" ] || { echo "benchmark-finance: $archive has no finance/ (simulated by an older iaplens): remove it and run again" >&2; exit 1; }
common=(--bundle-id com.example.iaplens.demo --app-apple-id 1234567890 --root-certificate "$archive/certs/root.pem")
inputs=(--input "$archive/notifications")
references=()
tag=$size
if [ "$shape" = real ]; then
    tag=${size}_real
    inputs+=(--input "$archive/history" --input "$archive/refunds" --input "$archive/orders")
    references=(--products "$archive/products.csv" --accounts "$archive/accounts.csv")
fi

# The previous run's folders are moved aside and deleted only after every timing: deleting thousands of report
# files minutes before writing as many again cost a report 2-4 s of kernel time in ext4's inode allocation, which
# passes over inodes freed shortly before; a scheduled run never sees it (Documentation/Performance.md
# "Analyze and report").
old_runs=()
trap 'rm -rf "${old_runs[@]}"' EXIT
engines=(sqlite)
[ -n "${IAPLENS_TEST_POSTGRES_URL:-}" ] && engines+=(postgres)
for engine in "${engines[@]}"; do
    work="$data/finance-$tag-$engine"
    if [ -e "$work" ]; then mv "$work" "$work.old-$$"; old_runs+=("$work.old-$$"); fi
    mkdir -p "$work"
    if [ "$engine" = sqlite ]; then store="$work/store.sqlite"; else store="$IAPLENS_TEST_POSTGRES_URL?schema=bench_finance_$tag"; fi
    if [ "$engine" = postgres ]; then PGOPTIONS="-c client_min_messages=warning" psql "$IAPLENS_TEST_POSTGRES_URL" -qc "drop schema if exists bench_finance_$tag cascade" >/dev/null; fi
    /usr/bin/time -v "$iaplens" ingest --quiet "${inputs[@]}" --database "$store" "${common[@]}" 2> "$work/ingest.log" || true
    /usr/bin/time -v "$iaplens" analyze --rebuild --quiet --database "$store" "${references[@]}" 2> "$work/analyze-before.log"
    /usr/bin/time -v "$iaplens" report --quiet --database "$store" "${references[@]}" --reports "$work/reports-before" 2> "$work/report-before.log"
    /usr/bin/time -v "$iaplens" ingest --quiet --input "$archive/finance" --database "$store" "${common[@]}" 2> "$work/load.log" || true
    /usr/bin/time -v "$iaplens" analyze --rebuild --quiet --database "$store" "${references[@]}" 2> "$work/analyze-after.log"
    /usr/bin/time -v "$iaplens" report --quiet --database "$store" "${references[@]}" --reports "$work/reports-after" 2> "$work/report-after.log"
    reports=$(ls "$archive/finance" | wc -l)
    rows=$(cat "$archive/finance"/*.txt | wc -l)
    ingest=$(elapsed "$work/ingest.log")
    before=$(awk "BEGIN { print $(elapsed "$work/analyze-before.log") + $(elapsed "$work/report-before.log") }")
    after=$(awk "BEGIN { print $(elapsed "$work/analyze-after.log") + $(elapsed "$work/report-after.log") }")
    printf '%s %s %s: ingest %.1f s; %d Apple reports (%d lines) loaded in %.2f s (peak %d MB); analyze+report %.1f s before, %.1f s after (%+.1f s); (analyze+report)/ingest %.1f %%\n' \
        "$size" "$shape" "$engine" "$ingest" "$reports" "$rows" "$(elapsed "$work/load.log")" $(( $(peak_kb "$work/load.log") / 1024 )) \
        "$before" "$after" "$(awk "BEGIN { print $after - $before }")" "$(awk "BEGIN { print 100 * $after / $ingest }")"
done
