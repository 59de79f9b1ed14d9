# Sourced by the bench scripts that drive a SUT apart from the driver: serve_sut WORKLOAD [SERVE FLAGS...] starts
# `perflab serve` on port 0 in the background (its output in $out/serve.log, its results in $out/sut), waits until
# it serves, sets $url to the service's address it printed and $origin to that address's scheme, host and port, and
# stops it when the script exits.
# Port 0 because the SUT then binds a port the kernel chooses and says which: a port found free here and released
# before the SUT binds it can be handed to somebody else in between.
serve_sut() {
  ./perflab serve "$@" --port 0 --out "$out/sut" >"$out/serve.log" 2>&1 &
  serve_pid=$!
  # TERM, not INT: a background job of a non-interactive shell ignores SIGINT, and the SUT would outlive the script
  trap 'kill -TERM $serve_pid 2>/dev/null; wait $serve_pid 2>/dev/null || true' EXIT
  for _ in $(seq 1 240); do
    grep -q "perflab: serving" "$out/serve.log" && break
    kill -0 "$serve_pid" 2>/dev/null || break
    sleep 0.5
  done
  url=$(sed -n 's/^perflab: serving .* at \(http[^ ]*\).*/\1/p' "$out/serve.log" | head -1)
  [ -n "$url" ] || { echo "bench: the SUT did not start; see $out/serve.log" >&2; exit 1; }
  origin=$(grep -o '^https\?://[^/]*' <<<"$url")
}
