# Sourced by the bench scripts that run ./perflab several times: builds perflab now if its sources changed, then
# pins that build for the rest of the script (PERFLAB_NO_BUILD), so that an edit made while a bench runs neither
# rebuilds in the middle of it (the build's CPU in a measured window) nor measures two builds in one table.
./perflab list >/dev/null
export PERFLAB_NO_BUILD=1
