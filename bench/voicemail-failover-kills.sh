#!/usr/bin/env bash
# Issue 36: "no call lost, whenever the kill comes". N fail-over runs of voicemail as a replication pair
# (--replication every-message) behind haproxy and Kamailio, sut-0 killed with SIGKILL at a random instant in each
# (--kill-instance-at random: uniform in 20-80 % of the window, drawn from the run's --seed; seeds SEED..SEED+N-1),
# the lost calls of each run tabulated beside the ones owed to set-ups the kill caught (figures.failover.lostInSetup:
# a peer's transaction answered to the dead instance) and what the partner did (set-ups begun again, clicks resent
# by haproxy, calls taken over), and the requests haproxy closed unanswered for the client to resend
# (figures.failover.closedUnanswered: docs/workloads/voicemail.md).
#
# Usage: bench/voicemail-failover-kills.sh N [RATE [HOLD [DURATION]]]   (defaults: 4 users/s, 6s hold, 20s window:
#        the fail-over IT's run; a higher RATE catches more set-ups in flight at the kill)
#        bench/voicemail-failover-kills.sh --summary DIR   (the table again, from a finished run's directory)
# Env: SEED=1 (the first seed), HEAP=192m (each instance), CLIENTS=4, USERS=1000, WARMUP=3s; BUSY_CPU=1 keeps one
#      CPU busy with a shell loop meanwhile (as bench/suite-stability.sh does: the machine CI shares), so clicks take
#      longer and more set-ups and requests are in flight at a kill.
# Writes bench/out/voicemail-failover-kills-STAMP/: run-SEED/ (each run's directory), kills.csv and kills.md.
# Needs sipp, haproxy and kamailio. Figures for docs only from a quiet machine, with the commit and this command.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == "--summary" ]]; then
  [[ -d "${2:-}" ]] || { echo "--summary needs the directory of a finished run, not '${2:-}'" >&2; exit 2; }
  out=$2
else
  n=${1:-}
  rate=${2:-4}
  hold=${3:-6s}
  duration=${4:-20s}
  seed=${SEED:-1}
  [[ "$n" =~ ^[1-9][0-9]{0,2}$ ]] || { echo "usage: $0 N [RATE [HOLD [DURATION]]]: N runs, 1..999, not '$n'" >&2; exit 2; }
  [[ "$rate" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "RATE must be new users per second, not '$rate'" >&2; exit 2; }
  [[ "$hold" =~ ^[0-9]+(ms|s|m)$ && "$duration" =~ ^[0-9]+(ms|s|m)$ ]] || { echo "HOLD and DURATION are times such as 6s" >&2; exit 2; }
  [[ "$seed" =~ ^[0-9]+$ ]] || { echo "SEED must be a whole number, not '$seed'" >&2; exit 2; }
  for tool in sipp haproxy kamailio; do
    command -v "$tool" >/dev/null || { echo "$tool is not installed (Debian: sip-tester, haproxy, kamailio)" >&2; exit 2; }
  done
  . bench/build-once.sh
  bench_out voicemail-failover-kills "$@"
  echo "$([ -n "${BUSY_CPU:-}" ] && echo "BUSY_CPU=1 ")$0 $*" > "$out/command"
  spinner=
  if [ -n "${BUSY_CPU:-}" ]; then
    ( while :; do :; done ) &
    spinner=$!
    trap 'kill "$spinner" 2>/dev/null || true' EXIT
  fi
  for ((i = 0; i < n; i++)); do
    s=$((seed + i))
    echo "run $((i + 1)) of $n: --seed $s" >&2
    # a run that fails (a lost call does not fail a run: the check fails only on a leak) is still tabulated
    ./perflab run voicemail --instances 2 --replication every-message --rate "$rate" --hold "$hold" \
      --users "${USERS:-1000}" --clients "${CLIENTS:-4}" --warmup "${WARMUP:-3s}" --duration "$duration" \
      --kill-instance-at random --seed "$s" --heap "${HEAP:-192m}" --quiet --out "$out/run-$s" \
      > "$out/run-$s.log" 2>&1 || echo "run --seed $s ended with status $? (see $out/run-$s.log)" >&2
  done
  if [ -n "$spinner" ]; then kill "$spinner" 2>/dev/null || true; fi
fi
python3 - "$out" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
rows = []
for s in sorted(out.glob("run-*/summary.json"), key=lambda p: int(p.parent.name.split("-")[-1])):
    j = json.loads(s.read_text())
    f = j.get("figures") or {}
    fo = f.get("failover") or {}
    rows.append(dict(seed=s.parent.name.split("-")[-1], killAt=(j.get("failover") or {}).get("atSecond"),
        lost=f.get("lostCalls"), lostInSetup=fo.get("lostInSetup"), sippFailed=fo.get("sippFailedCalls"),
        httpErrors=fo.get("httpErrors"), closedUnanswered=fo.get("closedUnanswered"), resentByBrowsers=fo.get("resentByBrowsers"),
        setupsRestarted=fo.get("setupsRestarted"),
        peerCallsAbandoned=fo.get("peerCallsAbandoned"), clicksResent=fo.get("clicksResent"),
        callsTakenOver=fo.get("callsTakenOver"), check=((j.get("checks") or {}).get("calls") or {}).get("status")))
if not rows:
    sys.exit(f"no summary.json under {out}")
cols = list(rows[0])
(out / "kills.csv").write_text(",".join(cols) + "\n" + "".join(",".join(str(r[c]) for c in cols) + "\n" for r in rows))
def read(name):
    f = out / name
    return f.read_text().strip() if f.exists() else "not recorded"
commit = read('commit.txt') if (out / 'commit.txt').exists() else read('commit')  # 'commit' before bench_out
lines = [f"`{read('command')}` at {commit}; host: {read('host.txt')}", ""]
lines += ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
lines += ["| " + " | ".join("" if r[c] is None else str(r[c]) for c in cols) + " |" for r in rows]
num = lambda k: sum(int(r[k] or 0) for r in rows)
other = num("lost") - num("lostInSetup") - num("closedUnanswered")
lines.append("")
lines.append(f"{len(rows)} kills: {num('lost')} lost calls, {num('lostInSetup')} of them in set-ups the kill caught "
             f"({num('setupsRestarted')} set-ups begun again at the partner, {num('clicksResent')} clicks resent), "
             f"{num('closedUnanswered')} requests haproxy closed unanswered and left failed ({num('resentByBrowsers')} resent by the "
             f"driver as a browser would, answered), {other} of another kind; {sum(1 for r in rows if r['lost'])} runs lost any.")
text = "\n".join(lines) + "\n"
(out / "kills.md").write_text(text)
print(text, end="")
print(f"results: {out}/kills.md, kills.csv")
PY
