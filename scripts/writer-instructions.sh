#!/usr/bin/env bash
# Counts the instructions the SQLite writer executes per document (Documentation/Performance.md, "Session 20").
#
# CPU seconds on this shared VM move by 10 % and more between runs, so a writer change worth a microsecond per
# document does not show in them; an instruction count does not move at all. This runs `iaplens-bench write-archive`
# under Valgrind's callgrind, counting only inside `SQLiteDocumentWriter.write` (the rows' SQL, binding and
# commits, not the reading and decoding that prepare them), and prints instructions per document. Session 20 found
# the CHECK lists' temporary b-trees this way: 162k instructions per document before, 100k after.
#
# Usage: scripts/writer-instructions.sh [--bench PATH] [--archive DIR] [--documents N] [--profile FILE]
#   --bench      an iaplens-bench executable; default: builds this checkout's (release)
#   --archive    a real-shaped archive; default /work/bench-data/b31/real-200k (scripts/benchmark.sh makes it)
#   --documents  how many documents to write; default 10000 (about a minute)
#   --profile    keep callgrind's output there, for callgrind_annotate
set -euo pipefail
cd "$(dirname "$0")/.."
bench="" archive=/work/bench-data/b31/real-200k documents=10000 profile=""
while [ $# -gt 0 ]; do
    case "$1" in
        --bench) bench=$2; shift 2 ;;
        --archive) archive=$2; shift 2 ;;
        --documents) documents=$2; shift 2 ;;
        --profile) profile=$2; shift 2 ;;
        *) echo "writer-instructions: unknown option $1" >&2; exit 2 ;;
    esac
done
command -v valgrind > /dev/null || apt-get install -y valgrind > /dev/null
if [ -z "$bench" ]; then
    swift build -c release --product iaplens-bench > /dev/null
    bench=.build/release/iaplens-bench
fi
[ -d "$archive" ] || { echo "writer-instructions: no archive at $archive (scripts/benchmark.sh makes one)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind cannot read the Swift compiler's debug information; the symbol table is enough to find the function.
strip -g -o "$work/bench" "$bench"
valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
    --toggle-collect='*SQLiteDocumentWriter*5writeyySayAA0C5BatchVGKF*' \
    "$work/bench" write-archive --input "$archive" --bundle-id com.example.iaplens.demo \
    --database "$work/store.sqlite" --limit "$documents" > "$work/bench.out" 2> "$work/valgrind.err"
collected=$(grep -o "Collected : [0-9]*" "$work/valgrind.err" | awk '{print $3}')
written=$(awk '/^write_documents/ {print $2}' "$work/bench.out")
[ -n "$profile" ] && cp "$work/callgrind.out" "$profile"
echo "writer_instructions $collected"
echo "writer_documents $written"
awk -v c="$collected" -v d="$written" 'BEGIN { printf "writer_instructions_per_document %.0f\n", c / d }'
