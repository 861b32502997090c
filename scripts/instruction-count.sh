# Sourced by scripts/writer-instructions.sh and scripts/decode-instructions.sh: their common options, and one run of
# iaplens-bench under Valgrind's callgrind that counts only inside one function (Documentation/Performance.md,
# "Ingest's text bound in place" and "Decoding counted in instructions"). CPU seconds on this shared VM move by 10 % and more between runs; an instruction count does not.
#
#   instruction_count_options NAME DEFAULT_DOCUMENTS "$@"   sets bench, archive, documents, profile and work (a
#                                                          temporary folder, removed on exit)
#   instruction_count_run TOGGLE SUBCOMMAND ARGS...         runs the bench; leaves $work/callgrind.out, $work/bench.out
#                                                          and $work/valgrind.err (and copies the profile to --profile)

instruction_count_options() {
    local name=$1
    documents=$2
    shift 2
    bench="" archive=/work/bench-data/b31/real-200k profile=""
    while [ $# -gt 0 ]; do
        case "$1" in
            --bench) bench=$2; shift 2 ;;
            --archive) archive=$2; shift 2 ;;
            --documents) documents=$2; shift 2 ;;
            --profile) profile=$2; shift 2 ;;
            *) echo "$name: unknown option $1" >&2; exit 2 ;;
        esac
    done
    command -v valgrind > /dev/null || apt-get install -y valgrind > /dev/null
    if [ -z "$bench" ]; then
        swift build -c release --product iaplens-bench > /dev/null
        bench=.build/release/iaplens-bench
    fi
    [ -d "$archive" ] || { echo "$name: no archive at $archive (scripts/benchmark.sh makes one)" >&2; exit 1; }
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
}

instruction_count_run() {
    local toggle=$1
    shift
    # Valgrind cannot read the Swift compiler's debug information; the symbol table is enough to find the function.
    strip -g -o "$work/bench" "$bench"
    valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" --toggle-collect="$toggle" \
        "$work/bench" "$@" > "$work/bench.out" 2> "$work/valgrind.err"
    if [ -n "$profile" ]; then cp "$work/callgrind.out" "$profile"; fi
}
