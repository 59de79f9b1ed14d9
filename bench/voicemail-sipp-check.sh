#!/usr/bin/env bash
# Do the voicemail workload's SIPp peers (workloads/voicemail/sipp: phone, line, notifier) play their part of the
# contract in docs/workloads/voicemail.md, without the SUT? Each peer runs on a loopback port with a tiny users file
# (hold 1 s, every other user hangs up from the web), and a controller scenario plays the SUT's side of that peer's
# dialogs (workloads/voicemail/sipp/check/*.xml) for CALLS calls at a low rate. Checks, per pair: both ends exit 0,
# CALLS successful and 0 failed calls on both ends, and every SIP message counted by -trace_counts (first
# transmissions; retransmissions are reported apart) equals the contract's count; then the messages per user summed
# over the three peers (21 in the contract). Then one call for an id the users file lacks: the phone answers 404
# and counts it as a failed call (unknownUser). All traffic to 127.0.0.1; every SIPp run bounded by -m, -timeout and
# a hard `timeout`. Takes about 10 s with the defaults.
#
# Usage: bench/voicemail-sipp-check.sh [CALLS [RATE [HOLD_MS]]]   (defaults 20 calls, even; 5 calls/s; 1000 ms)
# A larger run, some thousand calls open at once per peer: bench/voicemail-sipp-check.sh 20000 500 5000
# LOSS=N (percent) runs copies of the peers that drop N % of the messages they send and receive (SIPp's lost=), but
# not the 200s to SUBSCRIBE (the check controller, a SIPp UAC, cannot take a NOTIFY before that 200): the peers'
# retransmissions must then carry every call through; the counts are reported, not checked (a lost message is
# counted apart), and the unknown-user run is left out.
set -euo pipefail
cd "$(dirname "$0")/.."
calls=${1:-20}
rate=${2:-5}
hold=${3:-1000}
[[ "$calls" =~ ^[1-9][0-9]*$ ]] && (( calls % 2 == 0 )) || { echo "CALLS must be an even positive number, not '$calls'" >&2; exit 2; }
[[ "$rate" =~ ^[1-9][0-9]*$ ]] || { echo "RATE must be a positive whole number, not '$rate'" >&2; exit 2; }
[[ "$hold" =~ ^[0-9]+$ ]] || { echo "HOLD_MS must be a whole number, not '$hold'" >&2; exit 2; }
command -v sipp >/dev/null || { echo "sipp is not installed (Debian: apt-get install sip-tester)" >&2; exit 2; }
loss=${LOSS:-0}
[[ "$loss" =~ ^[0-9]+$ ]] && (( loss < 50 )) || { echo "LOSS must be a whole percentage under 50, not '$loss'" >&2; exit 2; }
scen="$PWD/workloads/voicemail/sipp"
out="$PWD/bench/out/voicemail-sipp-check-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
echo "output in $out"
peers="$scen"
if (( loss > 0 )); then
  peers="$out/lossy"
  mkdir -p "$peers"
  for f in phone line notifier; do
    python3 - "$scen/$f.xml" "$peers/$f.xml" "$loss" <<'PY'
import re, sys
src, dst, loss = sys.argv[1:]
text = open(src).read()
# every <send ...> and <recv ...>, except the notifier's 200s to SUBSCRIBE (the sends right after a SUBSCRIBE)
parts = re.split(r'(<(?:send|recv)\b)', text)
outp, last_recv = [parts[0]], ""
for tag, rest in zip(parts[1::2], parts[2::2]):
    keep = tag == "<send" and last_recv == "SUBSCRIBE" and "SIP/2.0 200 OK" in rest.split("</send>")[0]
    outp.append(tag if keep else f'{tag} lost="{loss}"')
    outp.append(rest)
    if tag == "<recv":
        m = re.match(r'\s+request="(\w+)"', rest)
        last_recv = m.group(1) if m else ""
open(dst, "w").write("".join(outp))
PY
  done
fi

users=10
# the soft bound: placing the calls, the hold, the tear-down; the hard one a minute later
limit=$((calls / rate + hold / 1000 + 30))
{
  echo SEQUENTIAL
  for i in $(seq 0 $((users - 1))); do
    if (( i % 2 == 0 )); then h=phone; else h=web; fi
    printf 'u%07d;%s;%d\n' "$i" "$h" "$hold"
  done
} >"$out/users.csv"

# Free UDP ports on 127.0.0.1 that SIPp binds a moment later, chosen below the kernel's ephemeral range as perflab's
# LocalSockets chooses them: no bind to port 0 and no outgoing socket can be given one of those in between.
read -r -a ports < <(python3 -c '
import random, socket
low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
chosen = []
while len(chosen) < 8:
    p = random.randrange(max(1024, min(20000, low - 2000)), max(low, 3024))
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.bind(("127.0.0.1", p))
        if p not in chosen:
            chosen.append(p)
    except OSError:
        pass
    finally:
        s.close()
print(" ".join(map(str, chosen)))')

bound() { ss -Huln "sport = :$1" | grep -q .; }

common=(-i 127.0.0.1 -timeout ${limit}s -trace_stat -fd 1 -trace_counts -trace_err -nostdin)
pids=()

# start_pair NAME PEER_PORT CTRL_PORT CALLS PEER_SCENARIO CTRL_SCENARIO CTRL_USERS_FILE
start_pair() {
  local name=$1 pp=$2 cp=$3 n=$4 peer=$5 ctrl=$6 cusers=$7
  local dir="$out/$name"
  mkdir -p "$dir/peer" "$dir/controller"
  cp "$out/users.csv" "$dir/peer/users.csv"
  cp "$cusers" "$dir/controller/users.csv"
  local extra=()
  if [ "$peer" = phone ]; then extra=(-inf users.csv -infindex users.csv 0); fi
  (cd "$dir/peer" && timeout $((limit + 60)) sipp -sf "$peers/$peer.xml" "${extra[@]}" -p "$pp" -m "$n" \
      -recv_timeout $((hold + 10000))ms "${common[@]}" -stf peer.stat.csv \
      >peer.out 2>peer.err </dev/null && echo 0 >peer.exit || echo $? >peer.exit) &
  pids+=($!)
  for _ in $(seq 1 50); do bound "$pp" && break; sleep 0.1; done
  bound "$pp" || { echo "$name: the $peer peer did not bind 127.0.0.1:$pp" >&2; exit 1; }
  (cd "$dir/controller" && timeout $((limit + 60)) sipp "127.0.0.1:$pp" -sf "$scen/check/$ctrl.xml" -inf users.csv \
      -p "$cp" -r "$rate" -m "$n" -recv_timeout $((hold + 10000))ms "${common[@]}" -stf controller.stat.csv \
      >controller.out 2>controller.err </dev/null && echo 0 >controller.exit || echo $? >controller.exit) &
  pids+=($!)
}

start_pair phone "${ports[0]}" "${ports[1]}" "$calls" phone caller-phone "$out/users.csv"
start_pair line "${ports[2]}" "${ports[3]}" "$calls" line caller-line "$out/users.csv"
start_pair notifier "${ports[4]}" "${ports[5]}" "$calls" notifier subscriber "$out/users.csv"
if (( loss == 0 )); then
  # a user the phone's file does not hold: 404, and the phone counts a failed call
  printf 'SEQUENTIAL\nu9999999;phone;%d\n' "$hold" >"$out/unknown-users.csv"
  start_pair unknown "${ports[6]}" "${ports[7]}" 1 phone caller-phone "$out/unknown-users.csv"
fi

for p in "${pids[@]}"; do wait "$p" || true; done

python3 - "$out" "$calls" "$loss" <<'PY'
import csv, collections, sys, pathlib
out, calls, loss = pathlib.Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
half = calls // 2
problems = []

def last_row(path, delim=";"):
    rows = [r for r in csv.reader(open(path), delimiter=delim) if r]
    return dict(zip(rows[0], rows[-1]))

def stat(d, who):
    return last_row(next((d / who).glob(f"{who}.stat.csv")))

def counts(d, who):
    """(method or code, Sent|Recv) -> first transmissions, and the retransmissions, from -trace_counts' last row."""
    row = last_row(next((d / who).glob("*_counts.csv")))
    c, retrans = collections.Counter(), 0
    for col, v in row.items():
        parts = col.split("_")
        if len(parts) != 3 or parts[1] == "Pause":
            continue
        _, msg, kind = parts
        if kind in ("Sent", "Recv"):
            c[(msg, kind)] += int(v)
        elif kind == "Retrans":
            retrans += int(v)
    return {k: v for k, v in c.items() if v}, retrans

# What the contract says each peer sees for CALLS users, half of them hanging up from the phone.
expected = {
    "phone": {("INVITE", "Recv"): calls, ("100", "Sent"): calls, ("180", "Sent"): calls,
              ("200", "Sent"): calls + half, ("ACK", "Recv"): calls,
              ("BYE", "Sent"): half, ("200", "Recv"): half, ("BYE", "Recv"): half},
    "line": {("INVITE", "Recv"): calls, ("100", "Sent"): calls, ("200", "Sent"): calls + calls,
             ("ACK", "Recv"): calls, ("BYE", "Recv"): calls},
    "notifier": {("SUBSCRIBE", "Recv"): 2 * calls, ("200", "Sent"): 2 * calls,
                 ("NOTIFY", "Sent"): 2 * calls, ("200", "Recv"): 2 * calls},
}
flip = {"Sent": "Recv", "Recv": "Sent"}
per_user = 0
for name, exp in expected.items():
    d = out / name
    for who in ("peer", "controller"):
        code = (d / who / f"{who}.exit").read_text().strip()
        s = stat(d, who)
        ok, failed = int(s["SuccessfulCall(C)"]), int(s["FailedCall(C)"])
        if code != "0" or ok != calls or failed != 0:
            problems.append(f"{name} {who}: exit {code}, {ok} successful, {failed} failed calls (want 0, {calls}, 0)")
        got, retrans = counts(d, who)
        want = exp if who == "peer" else {(m, flip[k]): v for (m, k), v in exp.items()}
        if got != want and not loss:
            problems.append(f"{name} {who}: counts {sorted(got.items())} != expected {sorted(want.items())}")
        print(f"{name:8} {who:10} exit {code}  calls ok {ok} failed {failed}  retransmissions {retrans}  "
              f"messages {sum(got.values())} ({sum(got.values()) / calls:g} per user)  "
              + " ".join(f"{m}/{k}={v}" for (m, k), v in sorted(got.items())))
        if who == "peer":
            counters = {k[:-3]: v for k, v in s.items() if k.endswith("(C)") and not k.startswith(
                ("Failed", "Successful", "Outgoing", "Incoming", "CallRate", "ElapsedTime", "OutOfCall", "DeadCall",
                 "Retransmissions", "AutoAnswered", "Warnings", "FatalErrors", "Watchdog", "ResponseTime", "CallLength"))}
            rtd = {k: v for k, v in s.items() if k.startswith("ResponseTime") and k.endswith("(C)") and "StDev" not in k}
            print(f"{'':8} {'':10} counters {counters}  rtd {rtd}")
            per_user += sum(got.values()) / calls

print(f"SIP messages per user over the three peers: {per_user:g} (contract: 21)")
if per_user != 21 and not loss:
    problems.append(f"{per_user:g} SIP messages per user, the contract says 21")

def check_unknown(u):
    ps = stat(u, "peer")
    pc, _ = counts(u, "peer")
    if not (int(ps["FailedCall(C)"]) == 1 and int(ps.get("unknownUser(C)", 0)) == 1 and pc.get(("404", "Sent")) == 1
            and pc.get(("ACK", "Recv")) == 1 and int(ps.get("FailedTestDoesntMatch(C)", 0)) == 1):
        problems.append(f"unknown user: the phone should answer 404, take the ACK and fail the call (TestDoesntMatch): "
                        f"{sorted(pc.items())}, failed {ps['FailedCall(C)']}, unknownUser {ps.get('unknownUser(C)')}")
    else:
        print("unknown user: the phone answered 404, took the ACK, counted unknownUser and failed the call (TestDoesntMatch)")

if not loss:
    check_unknown(out / "unknown")

if problems:
    print("FAILED:\n  " + "\n  ".join(problems))
    sys.exit(1)
print("OK")
PY
