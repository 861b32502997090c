#!/usr/bin/env bash
# Draws the package's module graph from Package.swift (through `swift package dump-package`) as the block that
# Documentation/Architecture.md shows between its "graph:begin" and "graph:end" markers.
#   scripts/architecture-graph.sh           print the block
#   scripts/architecture-graph.sh --write   replace the block in Architecture.md
#   scripts/architecture-graph.sh --check   exit 1, saying so, when Architecture.md's block is not Package.swift's graph
# scripts/test.sh runs --check, so the drawing cannot drift from the package.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-print}
swift package dump-package 2>/dev/null | python3 -c '
import json, sys
package = json.load(sys.stdin)
targets = {t["name"]: t for t in package["targets"]}
def deps(t):
    out = []
    for d in t.get("dependencies", []):
        if "byName" in d: out.append(d["byName"][0])
        elif "target" in d: out.append(d["target"][0])
        elif "product" in d: out.append(d["product"][0] + " (" + d["product"][1] + ")")
    return out
libraries = [n for n, t in targets.items() if t["type"] == "regular" and n.startswith("IAP") and not n.endswith("TestSupport")]
executables = [n for n, t in targets.items() if t["type"] == "executable"]
# Layer order: a module after everything it depends on (ties by name).
order, placed = [], set()
pending = sorted(libraries + executables)
while pending:
    ready = [n for n in pending if all(d in placed or d not in libraries for d in deps(targets[n]))]
    if not ready: sys.exit("architecture-graph: a cycle among " + ", ".join(pending))
    for n in ready: order.append(n); placed.add(n); pending.remove(n)
width = max(len(n) for n in order)
print("```")
for n in order:
    internal = [d for d in deps(targets[n]) if d in libraries]
    external = [d for d in deps(targets[n]) if d not in libraries]
    line = n.ljust(width) + "  → " + (", ".join(internal) if internal else "(no module of iaplens)")
    if external: line += "  ·  " + ", ".join(external)
    print(line.rstrip())
print("```")
' > /tmp/iaplens-graph.$$
case "$mode" in
    print) cat /tmp/iaplens-graph.$$ ;;
    --write|--check)
        python3 - "$mode" /tmp/iaplens-graph.$$ <<'PY'
import sys
mode, graph = sys.argv[1], open(sys.argv[2]).read()
path = "Documentation/Architecture.md"
text = open(path).read()
begin, end = "<!-- graph:begin (scripts/architecture-graph.sh --write) -->\n", "<!-- graph:end -->"
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
new = head + begin + graph + end + tail
if mode == "--write":
    open(path, "w").write(new)
elif new != text:
    sys.exit("architecture-graph: Documentation/Architecture.md's graph is not Package.swift's: run scripts/architecture-graph.sh --write")
PY
        ;;
    *) echo "architecture-graph: unknown option $mode" >&2; exit 2 ;;
esac
rm -f /tmp/iaplens-graph.$$
