#!/usr/bin/env bash
# trade: does the server's CPU per page stay flat over a long run? One long run of jdbc on H2 (standard mix) per
# client count, each from the restored population, and a table per run of SUT CPU µs per page minute by minute, with
# the first and last minute's ratio (issue 36: it rose 141 -> 178 µs over 15 minutes at 50 clients, and fell to about
# half its throughput within 3 minutes at 16 clients on a faster host, because every page's closed-order query read
# the account's whole order history and H2's 16 MB page cache thrashed as the database grew).
#
# CPU per page is a ratio within one run, so it survives a machine shared with other work better than pages/s, but
# not entirely: other work evicts caches and steals cycles. The machine's own CPU % is printed beside each minute;
# the SUT's share of the machine beside it: with the driver on the same machine the machine is always near 100 %, so a
# minute whose SUT share drops is one in which other work took CPU, and is not a figure.
#
# Usage: bench/trade-cpu-drift.sh [minutes] [clients...]     (defaults: 15 minutes, 16 and 50 clients)
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-15}
shift || true
clients=("$@")
[ ${#clients[@]} -gt 0 ] || clients=(16 50)
case "$minutes" in (''|*[!0-9]*|0) echo "trade-cpu-drift: minutes must be a whole number above 0, was '$minutes'" >&2; exit 2;; esac
for c in "${clients[@]}"; do
  case "$c" in (''|*[!0-9]*|0) echo "trade-cpu-drift: clients must be whole numbers above 0, was '$c'" >&2; exit 2;; esac
done
. bench/build-once.sh
bench_out trade-cpu-drift "$minutes" "$@"
{
  echo "\`bench/trade-cpu-drift.sh $minutes ${clients[*]}\` at $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . || echo ' (with uncommitted changes)')"
  echo "host: $(bench/host)"
} >"$out/result.md"
for c in "${clients[@]}"; do
  # a fixed 60 s warm-up, not auto: the drift is the question, so the run must not wait for the steadiness it measures
  ./perflab run trade --clients "$c" --warmup 60s --duration "${minutes}m" --heap 1g --gc g1 --seed 7 \
    --quiet --out "$out/c$c" >"$out/c$c.log" 2>&1 || true
  python3 - "$out/c$c" "$c" <<'PY' | tee -a "$out/result.md"
import csv, json, sys
run, clients = sys.argv[1], sys.argv[2]
rows = [r for r in csv.DictReader(open(f"{run}/timeseries.csv")) if r["phase"] == "measure"]
s = json.load(open(f"{run}/summary.json"))
print(f"\n### {clients} clients\n")
print("| minute | pages/s | SUT CPU µs/page | SUT CPU-seconds | SUT % of the machine | machine CPU % |")
print("|---:|---:|---:|---:|---:|---:|")
per_page = []
# one row per second; the window's last second may be missing, so a minute is its rows, 59 or 60
for m in range((len(rows) + 30) // 60):
    w = rows[m * 60:(m + 1) * 60]
    pages = sum(float(r["successes"]) for r in w)
    cpu = sum(float(r["sutCpuPercent"] or 0) / 100 for r in w)
    share = sum(float(r["sutCpuPercentOfMachine"] or 0) for r in w) / len(w)
    machine = sum(float(r["machineCpuPercent"] or 0) for r in w) / len(w)
    per_page.append(cpu / pages * 1e6 if pages else float("nan"))
    print(f"| {m + 1} | {pages / len(w):.0f} | {per_page[-1]:.0f} | {cpu:.1f} | {share:.0f} | {machine:.0f} |")
audit = s.get("checks", {}).get("audit", {})
if len(per_page) >= 2:
    print(f"\nlast minute / first minute: {per_page[-1] / per_page[0]:.2f}; "
          f"pages per SUT CPU-second over the window: {s['sut']['requestsPerCpuSecond']:.0f}")
st = s.get("steady") or {}
print(f"{s['successes']} pages, {s['errors']['total']} errors, steady: {st.get('steady')} "
      f"(throughput trend {st.get('trendPercentPerMin')} %/min), "
      f"audit {audit.get('status')}: {audit.get('line')}")
PY
done
echo "results in $out"
