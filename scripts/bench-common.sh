# Helpers shared by scripts/benchmark.sh and scripts/benchmark-engines.sh (sourced, not run).

# Seconds of wall clock from a `/usr/bin/time -v` log ("h:mm:ss" or "m:ss.cc").
elapsed() { awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$1"; }

# User plus system CPU seconds from a `/usr/bin/time -v` log.
cpu_seconds() { awk -F': ' '/User time \(seconds\)/ { u = $2 } /System time \(seconds\)/ { s = $2 } END { print u + s }' "$1"; }

# Peak resident memory in KB from a `/usr/bin/time -v` log.
peak_kb() { awk -F': ' '/Maximum resident set size/ { print $2 }' "$1"; }

# An archive size ("100k", "1m") in thousands of notifications.
thousands() {
    case "$1" in
        *k) echo "${1%k}" ;;
        *m) echo $(( ${1%m} * 1000 )) ;;
        *) echo "benchmark: size $1 must end in k or m" >&2; exit 2 ;;
    esac
}

# The simulated V2 archive of a size, made once under the data folder: about 1,000·K notifications
# (`iaplens simulate --subscribers 150·K --consumable-buyers 75·K --months 12 --no-noise`, all V2).
# Usage: simulated_archive IAPLENS DATA SIZE [real|clean]  (prints the archive's folder)
#   real (default): the mix of real archives: Apple's retries (duplicates), forged and broken lines, Sandbox, TEST
#   and other apps' documents beside renewals with renewal info, consumables and lookup pages;
#   clean: --no-noise, every document accepted.
simulated_archive() {
    local iaplens=$1 data=$2 size=$3 shape=${4:-real}
    local k archive noise=()
    k=$(thousands "$size")
    if [ "$shape" = clean ]; then archive="$data/v2-$size"; noise=(--no-noise); else archive="$data/real-$size"; fi
    if [ ! -f "$archive/.complete" ]; then
        echo "benchmark: simulating $size notifications ($shape) into $archive (once)" >&2
        rm -rf "$archive"
        "$iaplens" simulate --output "$archive" --subscribers $(( 150 * k )) --consumable-buyers $(( 75 * k )) \
            --months 12 --start-month 2024-01 --v2-start-month 2024-01 "${noise[@]}" > "$data/simulate-$size.log" 2>&1
        touch "$archive/.complete"
    fi
    echo "$archive"
}
