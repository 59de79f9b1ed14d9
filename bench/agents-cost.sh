#!/usr/bin/env bash
# Driver CPU per request with --agents local:2 against one driver, same SUT, same open-model rate, one script run.
# Marginal cost, so that JVM start-ups (the agents' too) and JIT are not charged: (CPU of a long run - CPU of a short
# run) / (requests of the long run - requests of the short run), interleaved (A B A B). CPU is the whole perflab
# process tree's (the controller and its agents, bench/cpu-of): what splitting the driver costs, merge included.
# The SUT is pinned to CPU 0, the driver (or both agents) to CPU 1; the controller is not pinned.
# Only error-free work counts: each run's successes (summary.json), and no ratio is printed if any run had an error.
#
# Usage: bench/agents-cost.sh [rate] [short-seconds] [long-seconds] [repeats]     (needs: python3)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/build-once.sh
. bench/serve-sut.sh
rate=${1:-4000}
short=${2:-20}
long=${3:-60}
repeats=${4:-2}
bench_out agents-cost "$@"

serve_sut soap-echo --cpus 0 --heap 512m --gc parallel

cpu() { tail -1 "$1" | awk '{print $2}'; }
run() { # mode seconds tag
  local extra=(--driver-cpus 1)
  [ "$1" = agents2 ] && extra=(--agents local:2 --driver-cpus 1)
  bench/cpu-of ./perflab drive soap-echo --target "$url" --rate "$rate" --clients 32 --warmup 10s \
    --duration "$2"s "${extra[@]}" --quiet --out "$out/$1-$3" >"$out/$1-$3.out" 2>"$out/$1-$3.err"
  echo "$(python3 -c "import json;s=json.load(open('$out/$1-$3/summary.json'));print(s['successes'],s['errors']['total'])") $(cpu "$out/$1-$3.err")"
}

# the SUT warmed once, so that both modes meet a JIT-compiled server
./perflab drive soap-echo --target "$url" --rate "$rate" --clients 32 --warmup 0s --duration 60s --quiet \
  --out "$out/sut-warmup" >/dev/null

printf 'mode,seconds,repeat,successes,errors,cpuSeconds\n' >"$out/runs.csv"
for r in $(seq 1 "$repeats"); do
  for mode in one agents2; do
    for secs in "$short" "$long"; do
      read -r ok errs cpus < <(run "$mode" "$secs" "$secs-$r")
      printf '%s,%s,%s,%s,%s,%s\n' "$mode" "$secs" "$r" "$ok" "$errs" "$cpus" | tee -a "$out/runs.csv"
    done
  done
done

python3 - "$out/runs.csv" "$short" "$long" "$rate" "$(cat "$out/host.txt")" "$(cat "$out/commit.txt")" "$repeats" <<'PY' | tee "$out/result.md"
import csv, sys, collections
rows = list(csv.DictReader(open(sys.argv[1])))
short, long, rate, host, commit, repeats = sys.argv[2:8]
print(f"`bench/agents-cost.sh {rate} {short} {long} {repeats}` at {commit}; host: {host}\n")
failed = [r for r in rows if int(r["errors"]) > 0 or int(r["successes"]) <= 0]
if failed:
    for r in failed:
        print(f"run {r['mode']} {r['seconds']} s #{r['repeat']}: {r['errors']} errors, {r['successes']} successes")
    print("no ratio: only error-free work is compared (runs.csv)")
    sys.exit(1)
per = collections.defaultdict(list)
for r in rows:
    per[(r["mode"], r["repeat"])].append(r)
marginal = collections.defaultdict(list)
for (mode, rep), rs in per.items():
    s = next(x for x in rs if x["seconds"] == short)
    l = next(x for x in rs if x["seconds"] == long)
    marginal[mode].append(1e6 * (float(l["cpuSeconds"]) - float(s["cpuSeconds"])) / (int(l["successes"]) - int(s["successes"])))
one = sum(marginal["one"]) / len(marginal["one"])
two = sum(marginal["agents2"]) / len(marginal["agents2"])
print(f"| driver at {rate} req/s | marginal CPU per request, whole perflab tree (µs) | repeats |")
print("|---|---|---|")
print(f"| one driver process | {one:.2f} | {', '.join(f'{x:.2f}' for x in marginal['one'])} |")
print(f"| --agents local:2 (controller + 2 agents) | {two:.2f} | {', '.join(f'{x:.2f}' for x in marginal['agents2'])} |")
print(f"\nratio agents / one = {two / one:.3f} (goal: at most 1.05)")
PY
echo "bench: files in $out"
