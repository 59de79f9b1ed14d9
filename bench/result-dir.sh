# Sourced by the bench scripts (build-once.sh sources it for those that run ./perflab): bench_out NAME ARGS... makes
# the script's result directory, bench/out/NAME-<date>, sets $out to it and writes there what a BENCHMARKS section
# names beside its figures: the commit (commit.txt, marked when the tree had uncommitted changes), the command as
# typed (command) and the host (host.txt).
bench_out() {
  local name=$1
  shift
  out="bench/out/$name-$(date +%Y%m%d-%H%M%S)"
  mkdir -p "$out"
  echo "$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- . 2>/dev/null \
    || echo ' (with uncommitted changes)')" >"$out/commit.txt"
  echo "$0 $*" >"$out/command"
  bench/host >"$out/host.txt"
}
