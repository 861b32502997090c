#!/usr/bin/env bash
# Fuzzes the JWS and JSON decoding paths with libFuzzer for a bounded time; exits non-zero on a crash or on a problem
# the checks (Fuzz/DecodingChecks) find. The tests replay the same seeds through the same checks on every run
# (`DecodingCorpusReplayTests`); this is the coverage-guided search beyond them, run by hand or on a schedule.
#
#   scripts/fuzz.sh [seconds]        (default 45; FUZZ_RUNS=n bounds the iterations instead, FUZZ_JOBS for workers)
#
# Builds IAPFormats and IAPVerification (with their C targets, CAVX2TextKernels and CFixedKeyECDSA) and IAPModel from Sources/ with
# -sanitize=fuzzer (coverage-instrumented), links Fuzz/FuzzDecoding.swift against them, seeds the corpus with every
# line of a small simulated archive (signed V2 notifications, history and refund pages, order lookups, V1 bodies,
# envelopes, noise) and trusts the simulator's root so mutations reach the signature and chain checks. Crash inputs
# are kept in .build/fuzz/artifacts.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-45}"
out=.build/fuzz
mkdir -p "$out/modules" "$out/artifacts"
flags=(-sanitize=fuzzer -parse-as-library -O -g -package-name iaplens -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility
       -I Sources/CZlib -I Sources/CISAL -I Sources/COpenSSL -I Sources/CLibCSV -I Sources/CAVX2TextKernels/include
       -I Sources/CFixedKeyECDSA/include -I "$out/modules")

build_module() {  # name, then dependencies' static libraries are linked at the end
    local name="$1"
    local sources
    sources=$(find "Sources/$name" -name '*.swift' | sort)
    local stamp="$out/modules/$name.stamp"
    # Rebuild only when a source changed.
    if [ -f "$stamp" ] && [ -z "$(find "Sources/$name" -name '*.swift' -newer "$stamp")" ]; then return; fi
    # shellcheck disable=SC2086
    swiftc "${flags[@]}" -module-name "$name" -emit-module -emit-module-path "$out/modules/$name.swiftmodule" \
        -emit-library -static -o "$out/modules/lib$name.a" $sources
    touch "$stamp"
}

echo "fuzz: building instrumented modules" >&2
# The C targets IAPFormats and IAPVerification call (SwiftPM builds them as CAVX2TextKernels and CFixedKeyECDSA).
for target in CAVX2TextKernels CFixedKeyECDSA; do
    mkdir -p "$out/c/$target"
    for source in Sources/$target/*.c; do
        clang -O2 -g -fsanitize=fuzzer-no-link -I Sources/$target/include -c "$source" \
            -o "$out/c/$target/$(basename "$source" .c).o"
    done
    rm -f "$out/modules/lib$target.a"
    ar rcs "$out/modules/lib$target.a" "$out/c/$target"/*.o
done
build_module IAPFormats
build_module IAPVerification
build_module IAPModel
swiftc "${flags[@]}" Fuzz/FuzzDecoding.swift Fuzz/DecodingChecks/*.swift -o "$out/fuzz-decoding" \
    -L "$out/modules" -lIAPModel -lIAPVerification -lIAPFormats -lCAVX2TextKernels -lCFixedKeyECDSA -lcrypto -lz -lisal -lcsv

# Seeds: one file per line of a small simulated archive (the CLI built by `swift build`), plus a few hand-made ones.
bin="$(swift build --show-bin-path)/iaplens"
[ -x "$bin" ] || swift build --product iaplens >/dev/null
seeds="$out/seeds"
if [ ! -d "$seeds" ]; then
    rm -rf "$out/sim"
    "$bin" simulate --output "$out/sim" --subscribers 8 --consumable-buyers 6 --refund-rings 1 --months 4 >/dev/null
    mkdir -p "$seeds"
    n=0
    while IFS= read -r -d '' file; do
        if [[ "$file" == *.gz ]]; then reader=(gzip -dc); else reader=(cat); fi
        while IFS= read -r line; do
            [ ${#line} -le 60000 ] || continue
            n=$((n + 1))
            printf '%s' "$line" > "$seeds/seed-$n"
        done < <("${reader[@]}" "$file")
    done < <(find "$out/sim/notifications" "$out/sim/history" "$out/sim/refunds" "$out/sim/orders" -type f -print0 | sort -z)
    printf '%s' '{"receivedAt":"2022-03-15T12:00:00Z","body":{"signedPayload":"a.b.c"}}' > "$seeds/envelope"
    printf '%s' '{"a":1,"a":2}' > "$seeds/duplicate"
    printf '%s' '[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]' > "$seeds/nested"
    printf '%s' '{"n":123456789012345678901234567890e-999}' > "$seeds/number"
fi
corpus="$out/corpus"
mkdir -p "$corpus"

echo "fuzz: running for ${seconds}s on $(ls "$seeds" | wc -l) seeds" >&2
runs=()
[ -n "${FUZZ_RUNS:-}" ] && runs=(-runs="$FUZZ_RUNS")
status=0
IAPLENS_TEST_FUZZ_ROOT="$out/sim/certs/root.pem" "$out/fuzz-decoding" "$corpus" "$seeds" \
    -max_total_time="$seconds" "${runs[@]}" -max_len=65536 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$out/artifacts/" > "$out/fuzz.log" 2>&1 || status=$?
grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|Done|INFO: seed corpus)|ERROR|SUMMARY|crash-|timeout-|oom-" "$out/fuzz.log" | head -20 >&2 || true
if [ $status -ne 0 ]; then
    tail -60 "$out/fuzz.log" >&2
    echo "fuzz: FAILED (exit $status); the input is in $out/artifacts/" >&2
    exit $status
fi
echo "fuzz: no crash in ${seconds}s" >&2
