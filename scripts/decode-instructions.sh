#!/usr/bin/env bash
# Counts the instructions ingest's document processing executes per document outside OpenSSL
# (Documentation/Performance.md, "Session 21"), the decoding counterpart of scripts/writer-instructions.sh.
#
# It runs `iaplens-bench decode-archive` (the first N lines of the archive, decoded three times on one thread with no
# signature checks) under Valgrind's callgrind, counting only inside `DocumentProcessor.process`, and prints
# instructions per document with libcrypto's left out: Valgrind does not run the CPU's SHA extensions, so OpenSSL
# hashes with its portable code there, about ten times the instructions the real run spends. What remains is the JSON,
# base64, model and row work iaplens owns, the same count on every run however busy the machine is.
#
# Usage: scripts/decode-instructions.sh [--bench PATH] [--archive DIR] [--documents N] [--profile FILE]
#   --bench      an iaplens-bench executable; default: builds this checkout's (release)
#   --archive    a real-shaped archive; default /work/bench-data/b31/real-200k (scripts/benchmark.sh makes it)
#   --documents  how many lines to decode (three times each); default 3000 (about 15 seconds)
#   --profile    keep callgrind's output there, for callgrind_annotate
set -euo pipefail
cd "$(dirname "$0")/.."
bench="" archive=/work/bench-data/b31/real-200k documents=3000 profile=""
while [ $# -gt 0 ]; do
    case "$1" in
        --bench) bench=$2; shift 2 ;;
        --archive) archive=$2; shift 2 ;;
        --documents) documents=$2; shift 2 ;;
        --profile) profile=$2; shift 2 ;;
        *) echo "decode-instructions: unknown option $1" >&2; exit 2 ;;
    esac
done
command -v valgrind > /dev/null || apt-get install -y valgrind > /dev/null
if [ -z "$bench" ]; then
    swift build -c release --product iaplens-bench > /dev/null
    bench=.build/release/iaplens-bench
fi
[ -d "$archive" ] || { echo "decode-instructions: no archive at $archive (scripts/benchmark.sh makes one)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind cannot read the Swift compiler's debug information; the symbol table is enough to find the function.
strip -g -o "$work/bench" "$bench"
valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
    --toggle-collect='*DocumentProcessorV7process5bytes4line4file*' \
    "$work/bench" decode-archive --input "$archive" --bundle-id com.example.iaplens.demo --limit "$documents" \
    > "$work/bench.out" 2> "$work/valgrind.err"
decoded=$(awk '/^decode_documents/ {print $2}' "$work/bench.out")
[ -n "$profile" ] && cp "$work/callgrind.out" "$profile"
# Every function's own count, summed with and without libcrypto's.
callgrind_annotate --threshold=100 "$work/callgrind.out" 2> /dev/null | awk -v documents="$decoded" '
    /^ *[0-9,]+ +\(/ {
        count = $1; gsub(",", "", count)
        if ($0 ~ /PROGRAM TOTALS/) total = count; else if ($0 ~ /libcrypto/) crypto += count
    }
    END {
        passes = 3 * documents
        printf "decode_documents %d (each decoded 3 times)\n", documents
        printf "decode_instructions_per_document %.0f\n", total / passes
        printf "decode_instructions_per_document_in_libcrypto %.0f\n", crypto / passes
        printf "decode_instructions_per_document_outside_libcrypto %.0f\n", (total - crypto) / passes
    }'
