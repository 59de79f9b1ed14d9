# Sourced by the bench scripts that run ./perflab several times: builds perflab now if its sources changed, then
# pins that build for the rest of the script (PERFLAB_NO_BUILD), so that an edit made while a bench runs neither
# rebuilds in the middle of it (the build's CPU in a measured window) nor measures two builds in one table.
./perflab list >/dev/null
export PERFLAB_NO_BUILD=1
. bench/result-dir.sh
# Ctrl-C ends the script, not just the run it was in: perflab keeps that run's partial results and exits 130, which a
# non-interactive bash takes as a normal exit (its child was not killed by the signal) and, with the scripts'
# `|| true`, went on to the next run; a kill then needed a TERM to the script itself. A script's own INT trap, set
# after this, replaces this one.
trap 'echo "bench: interrupted; what was measured so far is kept where the script writes it" >&2; exit 130' INT TERM
