#!/usr/bin/env bash
# kamailio.sh PORT INSTANCE_SIP_PORT... : writes kamailio-voicemail.cfg and kamailio-dispatcher.list into the
# working directory (perflab runs a program companion in the run directory) and becomes Kamailio in the foreground
# (-DD: it forks its workers but stays perflab's process; -E: its log on stderr, kept as sip-proxy.err).
# Dispatcher set k+1 is instance k's users: instance k first (priority 10), then, with an even number of
# instances, its partner k xor 1 (priority 5), which takes over its dialogs when it does not answer.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: kamailio.sh PORT INSTANCE_SIP_PORT..." >&2
  exit 2
fi
port=$1
shift
ports=("$@")
n=${#ports[@]}
list=$PWD/kamailio-dispatcher.list
: > "$list"
for ((k = 0; k < n; k++)); do
  echo "$((k + 1)) sip:127.0.0.1:${ports[$k]} 0 10" >> "$list"
  if ((n % 2 == 0)); then
    echo "$((k + 1)) sip:127.0.0.1:${ports[$((k ^ 1))]} 0 5" >> "$list"
  fi
done
cfg=kamailio-voicemail.cfg
sed -e "s/@PORT@/$port/g" -e "s/@N@/$n/g" -e "s|@LIST@|$list|g" "$(dirname "$0")/kamailio.cfg.in" > "$cfg"
mkdir -p kamailio-run
exec kamailio -f "$cfg" -DD -E -m 128 -M 16 -Y "$PWD/kamailio-run" -P "$PWD/kamailio-run/kamailio.pid"
