#!/usr/bin/env bash
# Liberty's DistributedMap against trade's quote cache (issue 40's one page in 275,000 that showed another stock's
# quote). Open Liberty's dynamic cache (DistributedMapImpl, the map trade's liberty stack caches quotes in) finds a
# pooled CacheEntry without a lock, and an eviction or removal may meanwhile reuse that entry for another key: a get
# then answers with another key's value. Since f7f7a1a trade's SharedMapQuoteCache takes an entry that names another
# symbol for a miss. This drives Liberty's own classes outside the server (no network, nothing downloaded), with a
# map of 2,000 entries over 10,000 keys as trade's --cache 2000 runs had, in two phases of SECONDS each:
#   1. the raw map: gets, and gets answered with another key's value (the evidence of Liberty's defect; 0 is
#      reported as not reproduced in this run, not as a failure: it is a race, about 1 in 200,000 gets)
#   2. QuoteCache.of(2000, such a map): pages of 1-5 symbols, and pages whose quotes are not exactly the asked ones
# Exit status 0 when phase 2 had no wrong page (bench/liberty-shared-map/LibertySharedMapCheck.java).
#
# Usage: bench/liberty-shared-map.sh [seconds-per-phase] [threads]   (defaults: 30 4)
# Liberty comes from perflab's cache of unpacked homes ($XDG_CACHE_HOME/perflab or ~/.cache/perflab): ./perflab run
# trade --stack liberty unpacks it on first use. trade's jars are built if absent (not with PERFLAB_NO_BUILD=1).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
threads=${2:-4}
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "bench: seconds must be a positive whole number, not '$seconds'" >&2; exit 2; }
[[ "$threads" =~ ^[1-9][0-9]*$ ]] || { echo "bench: threads must be a positive whole number, not '$threads'" >&2; exit 2; }

# the Liberty trade's liberty stack runs (servers/trade-liberty.yaml names its version)
version=$(sed -n 's/^ *maven: io\.openliberty:openliberty-runtime:\([^:]*\):zip.*$/\1/p' servers/trade-liberty.yaml)
wlp="${XDG_CACHE_HOME:-$HOME/.cache}/perflab/homes/io.openliberty/openliberty-runtime/${version:-?}/wlp"
if [ -z "$version" ] || [ ! -d "$wlp/lib" ]; then
  echo "bench: no Open Liberty ${version:-(version not found in servers/trade-liberty.yaml)} in $wlp; ./perflab run trade --stack liberty unpacks it on first use" >&2
  exit 1
fi
# the dynamic cache, and the two jars its Cache needs outside the server: logging (Tr) and container services (ObjectPool)
cp=""
for name in com.ibm.ws.dynacache com.ibm.ws.logging com.ibm.ws.container.service; do
  jars=("$wlp"/lib/"$name"_*.jar)
  [ ${#jars[@]} -eq 1 ] && [ -f "${jars[0]}" ] || { echo "bench: expected one $wlp/lib/${name}_*.jar, found: ${jars[*]}" >&2; exit 1; }
  cp="$cp${jars[0]}:"
done

app=(workloads/trade/app/target/trade-app-*.jar)
contract=(workloads/trade/contract/target/trade-contract-*.jar)
if [ ! -f "${app[0]}" ] || [ ! -f "${contract[0]}" ]; then
  if [ -n "${PERFLAB_NO_BUILD:-}" ]; then
    echo "bench: PERFLAB_NO_BUILD is set but trade's app jar is not built; run once without it" >&2
    exit 1
  fi
  mvn -q -o -B install -DskipTests -pl workloads/trade/app -am
  app=(workloads/trade/app/target/trade-app-*.jar)
  contract=(workloads/trade/contract/target/trade-contract-*.jar)
fi
cp="$cp${app[0]}:${contract[0]}"

. bench/result-dir.sh
bench_out liberty-shared-map "$@"
echo "$cp" | tr ':' '\n' >"$out/classpath.txt"
classes=$(mktemp -d)
trap 'rm -rf "$classes"' EXIT
javac -nowarn --release 17 -cp "$cp" -d "$classes" bench/liberty-shared-map/LibertySharedMapCheck.java

echo "Open Liberty $version, $(cat "$out/host.txt")"
echo "trade app: ${app[0]} ($(date -r "${app[0]}" '+%Y-%m-%d %H:%M')), at $(cat "$out/commit.txt")"
# bounded: two phases, each joined at most 30 s after its end, and this watchdog on top
status=0
timeout $((2 * seconds + 120)) java -Xmx512m -XX:+UseG1GC -cp "$cp:$classes" LibertySharedMapCheck "$seconds" "$threads" \
  | tee "$out/result.txt" || status=${PIPESTATUS[0]}
[ "$status" -eq 124 ] && echo "bench: the check ran past its $((2 * seconds + 120)) s watchdog" | tee -a "$out/result.txt"
echo "results: $out"
exit "$status"
