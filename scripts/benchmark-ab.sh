#!/usr/bin/env bash
# Compares two builds of iaplens (or one build under two settings) on the same archive, interleaved, for changes
# too small for scripts/benchmark.sh to resolve on a shared machine (Documentation/Performance.md, "Apple's payloads read in place").
#
# Each round measures the crypto floor (`openssl speed -multi <cores> ecdsap256`, as the benchmark does), then ingests
# the archive once with each build into a fresh store: A then B in odd rounds, B then A in even ones, so a machine that
# slows down during the run slows both alike. Per run it prints documents/s, the share of that round's floor, CPU per
# document split into signature checks and the rest, the CPU split by thread (processing, writer, reader and file
# hasher, main), and peak memory. The summary gives each build's medians and the median of
# the paired differences (B - A, same round) with their range: a difference inside that range is noise.
#
# Usage: scripts/benchmark-ab.sh --a BIN --b BIN [--a-env "K=V ..."] [--b-env "K=V ..."] [--size 200k]
#                                [--data DIR] [--archive DIR] [--rounds 3] [--seconds 3] [--no-verify]
#   --a, --b          the two iaplens executables (the same one twice to compare settings through --a-env/--b-env)
#   --a-env, --b-env  environment for each build's runs, e.g. "IAPLENS_REFERENCE=leaf-key-table"
#   --size            the simulated real-shaped archive to use, made once under --data as scripts/benchmark.sh does
#   --archive         any archive folder instead (it needs certs/root.pem unless --no-verify)
#   --rounds          rounds of one run per build; default 3
#   --seconds         duration of each floor measurement; default 3
#   --no-verify       ingest with --no-verify (then the floor and the signature split are left out)
set -euo pipefail
cd "$(dirname "$0")/.."

a="" b="" a_env="" b_env="" size=200k data=/work/bench-data archive="" rounds=3 seconds=3 verify=1
while [ $# -gt 0 ]; do
    case "$1" in
        --a) a="$2"; shift 2 ;;
        --b) b="$2"; shift 2 ;;
        --a-env) a_env="$2"; shift 2 ;;
        --b-env) b_env="$2"; shift 2 ;;
        --size) size="$2"; shift 2 ;;
        --data) data="$2"; shift 2 ;;
        --archive) archive="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --no-verify) verify=0; shift ;;
        *) echo "benchmark-ab: unknown option $1 (see the usage at the top of $0)" >&2; exit 2 ;;
    esac
done
[ -x "$a" ] && [ -x "$b" ] || { echo "benchmark-ab: --a and --b must name iaplens executables" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "benchmark-ab: /usr/bin/time missing (apt-get install -y time)" >&2; exit 1; }

source scripts/bench-common.sh
mkdir -p "$data"
[ -n "$archive" ] || archive=$(simulated_archive "$a" "$data" "$size" real)
work="$data/ab"
mkdir -p "$work"
results="$work/results.txt"
: > "$results"
cores=$(nproc)
common=(--bundle-id com.example.iaplens.demo --app-apple-id 1234567890)
if [ $verify -eq 1 ]; then mode=(--root-certificate "$archive/certs/root.pem"); else mode=(--no-verify); fi

# One ingest: the time log, the per-thread CPU ticks (sampled until the process ends) and the summary line.
run() {
    local label=$1 bin=$2 environment=$3 round=$4
    local db="$work/store-$label.sqlite" out="$work/$label-$round"
    rm -f "$db" "$db-wal" "$db-shm" "$db.lock"
    # The previous run's writes are flushed first, so that the kernel's writeback of them is not on this run's clock.
    sync
    # shellcheck disable=SC2086 # the environment is a list of K=V words
    env $environment /usr/bin/time -v "$bin" ingest --input "$archive" --database "$db" "${common[@]}" "${mode[@]}" \
        > "$out.out" 2> "$out.time" &
    local timer=$! pid=""
    while [ -z "$pid" ] && kill -0 "$timer" 2>/dev/null; do pid=$(pgrep -P "$timer" || true); done
    # Thread name -> ticks, from the last reading of each thread (a thread's ticks only grow).
    declare -A ticks=() names=()
    while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; do
        for task in /proc/"$pid"/task/*; do
            local stat name
            # A thread that ends between the two reads keeps its previous reading.
            stat=$(cat "$task/stat" 2>/dev/null) && name=$(cat "$task/comm" 2>/dev/null) || continue
            local fields=(${stat##*) })
            ticks[${task##*/}]=$(( fields[11] + fields[12] ))
            names[${task##*/}]=$name
        done
        sleep 0.2
    done
    wait "$timer"
    for tid in "${!ticks[@]}"; do echo "${names[$tid]} ${ticks[$tid]}"; done > "$out.threads"
    local documents checked
    documents=$(sed -nE 's/^ingest: .* ([0-9]+) document\(s\):.*/\1/p' "$out.out" | tail -1)
    checked=$(sed -nE 's/^  signatures checked: ([0-9]+)$/\1/p' "$out.out" | tail -1 | grep . || echo 0)
    echo "run $round $label $documents $checked $(elapsed "$out.time") $(cpu_seconds "$out.time") $(peak_kb "$out.time") $out.threads" >> "$results"
    rm -f "$db" "$db-wal" "$db-shm" "$db.lock"
}

for round in $(seq 1 "$rounds"); do
    if [ $verify -eq 1 ]; then
        speed=$(openssl speed -seconds "$seconds" -multi "$cores" ecdsap256 2>/dev/null | awk '/nistp256/ { print $NF }')
        echo "floor $round $speed" >> "$results"
    fi
    if [ $(( round % 2 )) -eq 1 ]; then order="A B"; else order="B A"; fi
    for label in $order; do
        echo "benchmark-ab: round $round of $rounds, build $label" >&2
        if [ "$label" = A ]; then run A "$a" "$a_env" "$round"; else run B "$b" "$b_env" "$round"; fi
    done
done

python3 - "$results" "$cores" "$a $a_env" "$b $b_env" <<'PY'
import statistics, sys
path, cores, describe_a, describe_b = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
floors, runs = {}, []
for line in open(path):
    parts = line.split()
    if parts[0] == "floor":
        floors[int(parts[1])] = float(parts[2])
    else:
        _, rnd, label, docs, checked, wall, cpu, peak, threads = parts
        groups = {"processing": 0, "writer": 0, "reader": 0, "main": 0}
        for entry in open(threads):
            name, ticks = entry.rsplit(" ", 1)
            # Linux keeps the last 15 characters of a Dispatch thread's name. The processing stage's rounds run on
            # its own thread and on Dispatch's workers ("…default-qos"), as does the store's queue when the main
            # thread hands it Apple's reports and the index builds; the writer's serial queue runs on an
            # "…overcommit" thread.
            group = ("writer" if "overcommit" in name
                     else "processing" if "default-qos" in name or name == "iaplens.process"
                     else "reader" if name in ("iaplens.reader", "iaplens.hasher") else "main")
            groups[group] += int(ticks)
        docs = int(docs)
        run = dict(round=int(rnd), label=label, docs=docs, wall=float(wall), cpu_us=float(cpu) * 1e6 / docs,
                   peak=int(peak) / 1024, rate=docs / float(wall))
        # Clock ticks are hundredths of a second.
        run.update({g: t * 1e4 / docs for g, t in groups.items()})
        speed = floors.get(run["round"])
        if speed:
            signatures = int(checked) / docs
            run["ratio"] = run["rate"] / (speed / signatures)
            run["sig_us"] = int(checked) / docs * cores * 1e6 / speed
            run["rest_us"] = run["cpu_us"] - run["sig_us"]
        runs.append(run)

verified = bool(floors)
print(f"\nA: {describe_a.strip()}\nB: {describe_b.strip()}")
if verified:
    print("floor per round (openssl speed -multi %d ecdsap256, verify/s): %s"
          % (cores, ", ".join(f"{floors[r]:,.0f}" for r in sorted(floors))))
head = f"{'round':>5} {'build':>5} {'docs/s':>8} {'wall s':>7} {'CPU us/doc':>10}"
if verified:
    head += f" {'/floor':>7} {'signatures':>10} {'rest':>6}"
head += f" {'processing':>10} {'writer':>7} {'reader':>7} {'main':>6} {'peak MB':>8}"
print("\n" + head)
for run in runs:
    line = f"{run['round']:>5} {run['label']:>5} {run['rate']:>8,.0f} {run['wall']:>7.1f} {run['cpu_us']:>10.1f}"
    if verified:
        line += f" {run['ratio']:>6.1%} {run['sig_us']:>10.1f} {run['rest_us']:>6.1f}"
    line += (f" {run['processing']:>10.1f} {run['writer']:>7.1f} {run['reader']:>7.1f} {run['main']:>6.1f}"
             f" {run['peak']:>8.0f}")
    print(line)
print("\n(processing, writer, reader and main: CPU us per document on those threads. Processing is the stage's own"
      "\n thread and Dispatch's workers, which also run the store's queue before and after the documents: Apple's"
      "\n reports and the index builds. Reader includes the file hasher; main is the loader.)")

keys = ["rate", "cpu_us"] + (["ratio", "rest_us"] if verified else []) + ["processing", "writer", "reader", "main", "peak"]
names = dict(rate="docs/s", cpu_us="CPU us/doc", ratio="of the floor", rest_us="rest us/doc", processing="processing us/doc",
             writer="writer us/doc", reader="reader us/doc", main="main us/doc", peak="peak MB")
by = {label: [r for r in runs if r["label"] == label] for label in ("A", "B")}
print(f"\n{'median':<16} {'A':>10} {'B':>10} {'B - A, paired: median':>22} {'range':>20}")
for key in keys:
    med = {label: statistics.median(r[key] for r in by[label]) for label in by}
    diffs = [b[key] - a[key] for a, b in zip(by["A"], by["B"])]
    fmt = (lambda v: f"{v:.1%}") if key == "ratio" else (lambda v: f"{v:,.1f}")
    print(f"{names[key]:<16} {fmt(med['A']):>10} {fmt(med['B']):>10} {fmt(statistics.median(diffs)):>22} "
          f"{fmt(min(diffs)) + ' .. ' + fmt(max(diffs)):>20}")
PY
