#!/usr/bin/env bash
# Keeps a bench run's small result files beside docs/BENCHMARKS.md, so that a reader can check a table against the
# files it came from (each under 256 KB): the script's own tables at the top of its output (its Markdown and CSV
# files, host.txt, the host-steadiness checks, the commit and command files) and each run's summary.json, run.json,
# experiment.json, results.csv and report.md, with their directory structure. Not the hlogs, GC logs, flame graphs or HTML
# reports (large, and rebuilt from the kept files by `perflab report`).
#
# Usage: bench/keep-results.sh bench/out/<run-dir> <section-name>    -> docs/bench-results/<section-name>/
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: bench/keep-results.sh OUT-DIR SECTION-NAME" >&2; exit 2; }
src=${1%/}
name=$2
[ -d "$src" ] || { echo "bench: no directory $src" >&2; exit 2; }
[[ "$name" =~ ^[a-z0-9][a-z0-9._-]*$ ]] || { echo "bench: section name '$name': lower case, digits, . _ - only" >&2; exit 2; }
dest="docs/bench-results/$name"
rm -rf "$dest.tmp"
mkdir -p "$dest.tmp"
# the script's own tables at the top (or a single run's or experiment's own files, kept from its directory), and
# each run's summary, manifest and tables below it
(cd "$src" && { find . -maxdepth 1 -type f -size -256k \( -name '*.md' -o -name '*.csv' -o -name host.txt \
      -o -name 'commit*' -o -name command -o -name environment.json -o -name summary.json -o -name run.json -o -name experiment.json \
      -o -name gate.xml -o -name 'host-steadiness-*' \) -print0
    find . -mindepth 2 -type f -size -256k \( -name summary.json -o -name run.json -o -name experiment.json \
      -o -name results.csv -o -name report.md -o -name result.md -o -name runs.csv \) -print0; }) |
  while IFS= read -r -d '' f; do
    mkdir -p "$dest.tmp/$(dirname "$f")"
    cp "$src/$f" "$dest.tmp/$f"
  done
# replaced whole, never half-written
rm -rf "$dest"
mv "$dest.tmp" "$dest"
echo "kept $(find "$dest" -type f | wc -l) files, $(du -sh "$dest" | cut -f1), in $dest"
