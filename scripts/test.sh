#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test (unit, end-to-end, CLI).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tests || exit 1
# A throwaway PostgreSQL cluster for the PostgreSQL store's tests (its own folder and port on loopback, run as the
# postgres user); stopped and removed when this script ends, however it ends.
postgres_env=$(bash scripts/postgres.sh start) || { echo "tests: could not start PostgreSQL" >&2; exit 1; }
eval "$postgres_env"
# Every test's temporary files in one folder of this run, removed when the script ends, however it ends: a test killed
# midway leaves its folder, and Foundation's atomic writes leave empty TemporaryDirectory.* folders behind.
scratch=$(mktemp -d /tmp/iaplens-tests.XXXXXX)
export TMPDIR="$scratch/"
trap 'bash scripts/postgres.sh stop "$IAPLENS_TEST_POSTGRES_DIR"; rm -rf "$scratch"' EXIT
started=$SECONDS
swift build --build-tests > .build-log.txt 2>&1
status=$?
build_seconds=$((SECONDS - started))
if [ $status -ne 0 ]; then
    grep -E "error|warning: unre" .build-log.txt | head -50
    echo "tests: the build failed" >&2
    exit $status
fi
started=$SECONDS
# Tests that talk to the fake App Store API bound requests in wall-clock time: they run on their own,
# after the rest, so that the other suites' CPU-bound work on two cores cannot starve their timers (a fetch test
# took 140 s among the others, 1 s alone).
alone="IAPFetchTests|FetchCommandTests"
swift test --skip-build --parallel --skip "$alone" > .test-log.txt 2>&1
status=$?
swift test --skip-build --parallel --filter "$alone" >> .test-log.txt 2>&1
fetch_status=$?
test_seconds=$((SECONDS - started))
[ $status -eq 0 ] && status=$fetch_status
# Progress lines are noise in CI; failures, issues and the verdict are kept.
grep -vE "^(Test Suite|Test Case|◇|✔ Test [^r]|􀟈|􁁛 Test [^r])" .test-log.txt | grep -vE "Test .* (started|passed after)" || true
[ $status -eq 0 ] && echo "tests: all passed" || echo "tests: FAILED" >&2
# The fuzzer's seed corpus is replayed through its checks by DecodingCorpusReplayTests, above; the coverage-guided
# search is scripts/fuzz.sh, run by hand or on a schedule. The architecture drawing must be the package's graph.
bash scripts/architecture-graph.sh --check || status=1
# The code follows the project's .swift-format (Tests/ and Benchmarks/ may force-unwrap; frozen migrations are left as
# shipped); the command in the message below fixes what it names.
if ! swift format lint --strict --parallel -r Sources Tests Benchmarks Fuzz Plugins Package.swift; then
    echo "tests: the code strays from .swift-format (run: swift format format -i --parallel -r Sources Tests Benchmarks Fuzz Plugins Package.swift)" >&2
    status=1
fi
# One plain closing line for CI: tests counted by Swift Testing.
total=$(grep -oE "Test run with [0-9]+ tests?" .test-log.txt | grep -oE "[0-9]+" | awk '{ sum += $1 } END { print sum }')
failed=$(grep -cE "^✘ Test .* failed" .test-log.txt || true)
echo "tests: $(( ${total:-0} - failed )) passed, ${failed} failed"
echo "tests: time: build ${build_seconds} s, tests ${test_seconds} s"
exit $status
