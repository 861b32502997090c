#!/usr/bin/env bash
# Counts the instructions ingest's document processing executes per document outside OpenSSL
# (Documentation/Performance.md, "Decoding counted in instructions"), the decoding counterpart of scripts/writer-instructions.sh.
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
source scripts/instruction-count.sh
instruction_count_options decode-instructions 3000 "$@"
instruction_count_run '*DocumentProcessorV7process5bytes4line4file*' decode-archive --input "$archive" \
    --bundle-id com.example.iaplens.demo --limit "$documents"
decoded=$(awk '/^decode_documents/ {print $2}' "$work/bench.out")
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
