#!/usr/bin/env bash
# Profiles one verified ingest with perf and says where its CPU goes beyond the hot functions themselves
# (Documentation/Performance.md, "Retains, copies and purges"): the Swift runtime's retains and releases, malloc and free, and the
# kernel (by system call), each attributed to the first function of iaplens's own code above it.
#
# A flat profile says that 5 % of the CPU is in `swift_retain`; this says which of iaplens's functions asked for
# it. perf has no hardware counters on this VM, so the samples are CPU time (`cpu-clock`), with frame-pointer call
# chains (libraries built without frame pointers, such as jemalloc and SQLite, show their callers as "?").
#
# Usage: scripts/profile-ingest.sh [--iaplens PATH] [--archive DIR] [--keep FILE]
#   --iaplens  the iaplens executable; default: this checkout's release build
#   --archive  a real-shaped archive with certs/root.pem; default /work/bench-data/b31/real-200k
#   --keep     keep perf's data there (for `perf report -i FILE`)
set -euo pipefail
cd "$(dirname "$0")/.."
iaplens=.build/release/iaplens
archive=/work/bench-data/b31/real-200k
keep=""
while [ $# -gt 0 ]; do
    case "$1" in
        --iaplens) iaplens="$2"; shift 2 ;;
        --archive) archive="$2"; shift 2 ;;
        --keep) keep="$2"; shift 2 ;;
        *) echo "profile-ingest: unknown option $1 (see the usage at the top of $0)" >&2; exit 2 ;;
    esac
done
command -v perf >/dev/null || { echo "profile-ingest: perf missing (apt-get install -y linux-perf)" >&2; exit 1; }
[ -x "$iaplens" ] || { echo "profile-ingest: no executable at $iaplens (swift build -c release --product iaplens)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
data=${keep:-$work/perf.data}
sync
perf record -F 499 -g -o "$data" -- "$iaplens" ingest --quiet --input "$archive" --database "$work/store.sqlite" \
    --bundle-id com.example.iaplens.demo --app-apple-id 1234567890 --root-certificate "$archive/certs/root.pem" \
    > "$work/ingest.out" 2>&1
perf script -i "$data" -F ip,sym,dso 2>/dev/null > "$work/samples.txt"
python3 - "$work/samples.txt" <<'PY'
import collections, re, sys
samples, frames = [], []
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if not line.strip():
        if frames: samples.append(frames); frames = []
        continue
    parts = line.split(None, 2)
    frames.append((parts[1] if len(parts) > 1 else "?", parts[2] if len(parts) > 2 else ""))
if frames: samples.append(frames)
total = len(samples)
# iaplens's own code: its executable, minus the compiler's value witnesses and outlined copies, which only say
# "a value was copied", not who copied it.
witness = re.compile(r"(Vwcp|Vwxx|VWOc|VWOh|VWOs|WOhTm|WOy|WOe|Tm)$")
def own(frame):
    symbol, dso = frame
    return "iaplens" in dso and not witness.search(symbol)
def caller(frames):
    return next((f[0][:140] for f in frames[1:] if own(f)), "?")
def table(title, matches, key=caller, rows=15):
    hits = collections.Counter(key(s) for s in samples if matches(s))
    count = sum(hits.values())
    print(f"\n{title}: {count} of {total} samples ({100 * count / max(total, 1):.1f} % of the CPU)")
    for name, n in hits.most_common(rows): print(f"  {n:6d}  {name}")
top = lambda pattern: (lambda s: re.search(pattern, s[0][0]) is not None)
table("retains and releases, by the iaplens function that asked",
      top(r"^(swift_retain|swift_release|swift_bridgeObjectRe|_swift_release_dealloc|swift::RefCounts)"))
table("malloc and free, by the iaplens function that asked",
      top(r"^(malloc|free|swift_allocObject|swift_slowAlloc|swift_slowDealloc|malloc_usable_size)$"))
def syscall(s):
    kernel = [f[0] for f in s if "kernel" in f[1]]
    entry = [k for k in kernel if k.startswith(("__x64_sys_", "asm_exc_page_fault"))]
    user = next((f[0][:60] for f in s if "kernel" not in f[1]), "?")
    return f"{(entry[-1] if entry else kernel[-1])} <- {user}"
table("the kernel, by system call (or page fault) and the user function that entered it",
      lambda s: "kernel" in s[0][1], key=syscall)
PY
