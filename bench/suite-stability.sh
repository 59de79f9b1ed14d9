#!/usr/bin/env bash
# Is the test suite green on every run, or only on a quiet machine? Runs README.md's test command N times, each
# in a fresh clone of HEAD, while a busy loop keeps one CPU busy (as CI's neighbours or a laptop's other work
# would), then reads every Surefire and Failsafe report and prints, per test that failed or was skipped in any
# run: runs, failures, skips and the first failure message. A run that fails before any test report is
# written (a compile error, a crash) shows up as a row of its own.
#
# Usage: bench/suite-stability.sh N [--quiet-machine]
#   --quiet-machine   no busy loop (to compare with a quiet machine)
# Environment: MAVEN_REPO=DIR runs Maven with that local repository (an empty one for a first-clone run).
# Output: bench/out/suite-stability-<time>/ with each run's log and reports, and table.md (also printed).
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { echo "usage: bench/suite-stability.sh N [--quiet-machine]" >&2; exit 2; }
[ $# -ge 1 ] || usage
runs=$1
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "N must be a positive whole number of runs, not '$runs'" >&2; exit 2; }
busy=yes
if [ $# -ge 2 ]; then
  [ "$2" = --quiet-machine ] || usage
  busy=no
fi

# README.md's test command: the indented line after "Run the tests:", so this script cannot drift from it.
cmd=$(awk '/^Run the tests:/ {found=1; next} found && /^    [^ ]/ {sub(/^    /, ""); print; exit}' README.md)
[ -n "$cmd" ] || { echo "README.md has no indented command after 'Run the tests:'" >&2; exit 1; }
maven_opts=()
if [ -n "${MAVEN_REPO:-}" ]; then maven_opts=("-Dmaven.repo.local=$MAVEN_REPO"); fi

out="bench/out/suite-stability-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
out=$(cd "$out" && pwd)
head=$(git rev-parse HEAD)
echo "suite stability: $runs runs of '$cmd' at ${head:0:10}, other CPU busy: $busy; files in $out"

spinner=
stop_spinner() { if [ -n "$spinner" ]; then kill "$spinner" 2>/dev/null || true; wait "$spinner" 2>/dev/null || true; spinner=; fi; }
trap 'stop_spinner' EXIT
trap 'stop_spinner; echo "interrupted: the runs so far are in $out" >&2; exit 130' INT TERM

printf 'run,exit,seconds\n' >"$out/runs.csv"
for i in $(seq 1 "$runs"); do
  clone=$(mktemp -d /tmp/perflab-stability-XXXXXX)
  git clone -q . "$clone"
  git -C "$clone" checkout -q "$head"
  if [ "$busy" = yes ]; then
    # a plain busy loop, bounded: it cannot outlive a run by more than 40 minutes even if this script is killed
    timeout 2400 bash -c 'while :; do :; done' &
    spinner=$!
  fi
  start=$(date +%s)
  set +e
  # shellcheck disable=SC2086 # the README's command is words, as a user types it
  # Started in the background (nohup, &), a shell hands SIGINT and SIGQUIT on as ignored, and the tests that
  # press Ctrl-C on perflab would fail for that alone: the suite runs with the default dispositions back.
  (cd "$clone" && python3 -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGQUIT):
    signal.signal(s, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' $cmd "${maven_opts[@]}") >"$out/run-$i.log" 2>&1
  status=$?
  set -e
  seconds=$(( $(date +%s) - start ))
  stop_spinner
  mkdir -p "$out/run-$i"
  (cd "$clone" && find . -path '*/target/surefire-reports/TEST-*.xml' -o -path '*/target/failsafe-reports/TEST-*.xml') \
    | while read -r f; do cp "$clone/$f" "$out/run-$i/$(echo "${f#./}" | tr / _)"; done
  rm -rf "$clone"
  printf '%s,%s,%s\n' "$i" "$status" "$seconds" >>"$out/runs.csv"
  echo "run $i: exit $status in ${seconds}s"
done

python3 - "$out" "$runs" "$cmd" "$busy" <<'PY' | tee "$out/table.md"
import csv, glob, os, sys
import xml.etree.ElementTree as ET

out, runs, cmd, busy = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
tests = {}  # name -> [runs, failures, skips, first message]
with open(os.path.join(out, "runs.csv")) as f:
    run_rows = list(csv.DictReader(f))
for row in run_rows:
    reports = glob.glob(os.path.join(out, "run-" + row["run"], "*.xml"))
    for path in reports:
        try:
            suite = ET.parse(path).getroot()
        except ET.ParseError as e:
            tests.setdefault("(unreadable report) " + os.path.basename(path), [0, 0, 0, str(e)])
            continue
        for case in suite.iter("testcase"):
            name = case.get("classname", "?").rsplit(".", 1)[-1] + "." + case.get("name", "?")
            t = tests.setdefault(name, [0, 0, 0, ""])
            t[0] += 1
            bad = case.find("failure")
            if bad is None:
                bad = case.find("error")
            if bad is not None:
                t[1] += 1
                if not t[3]:
                    t[3] = (bad.get("message") or bad.get("type") or "").replace("\n", " ")[:160]
            elif case.find("skipped") is not None:
                t[2] += 1
                if not t[3]:
                    t[3] = "skipped: " + (case.find("skipped").get("message") or "no reason given")[:150]
    if row["exit"] != "0" and not reports:
        tests["(run " + row["run"] + " wrote no test report)"] = [1, 1, 0, "exit " + row["exit"] + ", see run-" + row["run"] + ".log"]

green = sum(1 for r in run_rows if r["exit"] == "0")
total_cases = sum(t[0] for t in tests.values())
print(f"{green} of {len(run_rows)} runs green ({cmd}; other CPU busy: {busy}); "
      f"{len(tests)} tests, {total_cases} test executions; run times "
      + ", ".join(r["seconds"] + " s" for r in run_rows))
print()
flagged = {k: v for k, v in tests.items() if v[1] or v[2]}
if not flagged:
    print("No test failed or was skipped in any run.")
else:
    print("| test | runs | failures | skipped | first message |")
    print("|---|---|---|---|---|")
    for name, (n, fails, skips, msg) in sorted(flagged.items(), key=lambda kv: (-kv[1][1], -kv[1][2], kv[0])):
        print(f"| {name} | {n} | {fails} | {skips} | {msg.replace('|', '/')} |")
PY
