#!/usr/bin/env bash
# trade: does the server's CPU per page depend on how much data the database holds? A long run grows the database
# (2 % of pages register a user, 8 % buy or sell: a 15-minute run at 8,000 pages/s adds about 130,000 accounts and
# 500,000 orders), so its CPU per page may rise for that reason alone. This runs the same short measurement on a
# population of the default size and on one as large as such a run leaves behind, each restored fresh, and prints
# SUT CPU per page for both. jdbc on H2 (the engine runs inside the SUT, so its CPU is the SUT's).
#
# Usage: bench/trade-data-growth.sh [small-users] [large-users] [warmup-seconds] [duration-seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/build-once.sh
small=${1:-15000}
large=${2:-150000}
warmup=${3:-60}
duration=${4:-60}
bench_out trade-data-growth "$@"
for users in "$small" "$large"; do
  # the first run of a size populates it (not measured: it happens before the SUT is ready); later runs restore it
  ./perflab run trade --users "$users" --clients 50 --warmup "${warmup}s" --duration "${duration}s" --heap 1g \
    --gc g1 --seed 3 --quiet --out "$out/u$users" >"$out/u$users.log" 2>&1 || true
done
python3 - "$out" "$small" "$large" <<'PY' | tee "$out/result.md"
import json, sys
out, sizes = sys.argv[1], sys.argv[2:]
print("| users at the start | accounts at the end | pages/s | SUT CPU µs/page | p99 ms | audit |")
print("|---:|---:|---:|---:|---:|---|")
for users in sizes:
    s = json.load(open(f"{out}/u{users}/summary.json"))
    audit = s["checks"]["audit"]
    print(f"| {int(users):,} | {audit['details'].get('accountsChecked', 0):,} | {s['throughput']:.0f} | "
          f"{s['sut']['cpuMicrosPerRequest']:.0f} | {s['latencyMs']['p99']:.1f} | {audit['status']} |")
PY
echo "results in $out"
