#!/usr/bin/env bash
# Counts the instructions the SQLite writer executes per document (Documentation/Performance.md, "Ingest's text bound in place").
#
# CPU seconds on this shared VM move by 10 % and more between runs, so a writer change worth a microsecond per
# document does not show in them; an instruction count does not move at all. This runs `iaplens-bench write-archive`
# under Valgrind's callgrind, counting only inside `SQLiteDocumentWriter.write` (the rows' SQL, binding and
# commits, not the reading and decoding that prepare them), and prints instructions per document. "Ingest's text bound in place" found
# the CHECK lists' temporary b-trees this way: 162k instructions per document before, 100k after.
#
# Usage: scripts/writer-instructions.sh [--bench PATH] [--archive DIR] [--documents N] [--profile FILE]
#   --bench      an iaplens-bench executable; default: builds this checkout's (release)
#   --archive    a real-shaped archive; default /work/bench-data/b31/real-200k (scripts/benchmark.sh makes it)
#   --documents  how many documents to write; default 10000 (about a minute)
#   --profile    keep callgrind's output there, for callgrind_annotate
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/instruction-count.sh
instruction_count_options writer-instructions 10000 "$@"
instruction_count_run '*SQLiteDocumentWriter*5writeyySayAA0C5BatchVGKF*' write-archive --input "$archive" \
    --bundle-id com.example.iaplens.demo --database "$work/store.sqlite" --limit "$documents"
collected=$(grep -o "Collected : [0-9]*" "$work/valgrind.err" | awk '{print $3}')
written=$(awk '/^write_documents/ {print $2}' "$work/bench.out")
echo "writer_instructions $collected"
echo "writer_documents $written"
awk -v c="$collected" -v d="$written" 'BEGIN { printf "writer_instructions_per_document %.0f\n", c / d }'
