#!/bin/bash
# Training soak: runs ember-demo's training loop for SECONDS and checks that its memory stays
# flat once training is under way. A leak of even one small tensor per step shows up here as a
# resident-set size that keeps climbing, long after the first epoch.
# Usage: bash scripts/soak.sh [SECONDS] [ember-demo arguments ...]
#   environment: DEMO (default build/examples/ember-demo), WARMUP seconds before the baseline
#   (default 3), LIMIT_KIB allowed growth after it (default 1024)
# Prints one line per 10 s and a summary; exits 1 when the growth exceeds LIMIT_KIB.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-180}
shift || true
demo=${DEMO:-build/examples/ember-demo}
warmup=${WARMUP:-3}
limit_kib=${LIMIT_KIB:-1024}
[[ -x "$demo" ]] || { echo "soak: $demo not found; build first (README's first command)" >&2; exit 1; }

log=$(mktemp)
"$demo" --ascii --epochs 100000000 "$@" >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -f "$log"' EXIT

rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true; }  # empty once it exited
epochs_done() { grep -c '^epoch' "$log" || true; }

sleep "$warmup"
base=$(rss_kib)
[[ -n "$base" ]] || { cat "$log" >&2; echo "soak: ember-demo exited early" >&2; exit 1; }
base_epochs=$(epochs_done)
peak=$base
echo "soak: baseline after ${warmup}s ($base_epochs epochs): RSS $base KiB"
for ((t = warmup + 1; t <= seconds; t++)); do
  sleep 1
  now=$(rss_kib)
  [[ -n "$now" ]] || { cat "$log" >&2; echo "soak: ember-demo exited early" >&2; exit 1; }
  ((now > peak)) && peak=$now
  ((t % 10 == 0)) && echo "soak: ${t}s  $(epochs_done) epochs  RSS $now KiB (peak $peak)"
done
growth=$((peak - base))
echo "soak: ${seconds}s, $(epochs_done) epochs ($base_epochs at the baseline):" \
  "RSS $base KiB -> peak $peak KiB, growth $growth KiB (limit $limit_kib)"
((growth <= limit_kib)) || { echo "soak: memory grew during training" >&2; exit 1; }
