#!/usr/bin/env bash
# The main job on the built-in sample data (data/sample, made by `iaplens simulate`):
# installs what is missing, builds iaplens, runs ingest → analyze → report, and prints where the reports are.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build -c release --product iaplens 2>&1 | grep -E "error|warning: unre|Compiling|Build" | grep -v Compiling || true
bin="$(swift build -c release --show-bin-path)/iaplens"
sample=data/sample
rm -f .build/sample.sqlite .build/sample.sqlite-wal .build/sample.sqlite-shm
# The data folders only: archive/expectations.json is the simulator's answer key, used by tests.
"$bin" run \
    --input "$sample/archive/notifications" --input "$sample/archive/history" \
    --input "$sample/archive/refunds" --input "$sample/archive/orders" --input "$sample/archive/finance" \
    --database .build/sample.sqlite \
    --reports reports \
    --bundle-id com.example.iaplens.demo \
    --app-apple-id 1234567890 \
    --root-certificate "$sample/archive/certs/root.pem" \
    --products "$sample/archive/products.csv" \
    --accounts "$sample/archive/accounts.csv" \
    --reviews "$sample/archive/reviews.csv"
echo
echo "Open reports/index.html in a browser, or read reports/index.md (one folder per month under reports/); store: .build/sample.sqlite"
echo "Inspect the store with: $bin status --database .build/sample.sqlite --quarantine 20"
