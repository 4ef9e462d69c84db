#!/usr/bin/env bash
# bench/compare.sh — ember's CPU benchmark against the LibTorch 1.13 anchor, on this machine.
#
# From the project root (../shared sits beside it):
#   bash bench/compare.sh                 # every workload both programs have, 5 rounds
#   bash bench/compare.sh W1 W2           # chosen workloads only
# Environment:
#   BUILD=build-bench   ember build folder (configured here with EMBER_BUILD_BENCH=ON if missing)
#   ROUNDS=5            rounds of compare.py (each round runs ember, then the anchor)
#   ICOUNT=10000        calls per op for the callgrind instruction counts (0 skips them)
#   W9=1                also time W9 (compile of one TU including the umbrella header)
#
# Prints: the environment (date, uname -a, CPU model, load, OPENBLAS_CORETYPE, OMP_WAIT_POLICY),
# compare.py's table (speedup = how many times better ember is), the instructions per call of the
# small ops (W1*, W7) under callgrind for both programs, and W9 for both.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SHARED="../shared/bench"
BUILD="${BUILD:-build-bench}"
ROUNDS="${ROUNDS:-5}"
ICOUNT="${ICOUNT:-10000}"
W9="${W9:-1}"
WORKLOADS=("$@")

# ---------------------------------------------------------------- environment
echo "## environment"
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "uname: $(uname -a)"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) online"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min)"
echo "OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE-(unset)} OMP_WAIT_POLICY=${OMP_WAIT_POLICY-(unset)}" \
  "OMP_NUM_THREADS=${OMP_NUM_THREADS-(unset)} BENCH_THREADS=${BENCH_THREADS-(unset)}"
echo "compiler: $(c++ --version | head -n1)"
echo

# ---------------------------------------------------------------- build ember-bench
if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DEMBER_CUDA=OFF \
    -DEMBER_BUILD_TESTS=OFF -DEMBER_BUILD_EXAMPLES=OFF -DEMBER_BUILD_BENCH=ON >/dev/null
fi
ninja -C "$BUILD" ember-bench >/dev/null
EMBER_BENCH="$BUILD/bench/ember-bench"

# ---------------------------------------------------------------- build the anchor if missing
# ../shared/bench/libtorch/build.sh builds into ../shared/bench/libtorch/build/. Where that folder
# cannot be written (a read-only shared checkout) or the script fails, the anchor is compiled
# into $BUILD/anchor/ with build.sh's own flags.
ANCHOR="$SHARED/libtorch/build/bench_libtorch"
if [ ! -x "$ANCHOR" ]; then
  bash "$SHARED/libtorch/build.sh" >&2 || true
fi
if [ ! -x "$ANCHOR" ]; then
  ANCHOR="$BUILD/anchor/bench_libtorch"
  if [ ! -x "$ANCHOR" ]; then
    mkdir -p "$BUILD/anchor"
    torch_inc="$(dpkg -L libtorch-dev | awk '/\/torch\/csrc\/api\/include$/ {print; exit}')"
    echo "[compare] compiling the anchor into $ANCHOR (build.sh's flags)" >&2
    g++ -O2 -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=1 -I"$torch_inc" \
      "$SHARED/libtorch/bench_libtorch.cpp" -o "$ANCHOR" \
      -Wl,--no-as-needed -ltorch -ltorch_cpu -lc10 -Wl,--as-needed -lpthread
  fi
fi

# ---------------------------------------------------------------- timings, alternately
echo "## timings: compare.py --rounds $ROUNDS (medians over rounds of per-run medians)"
echo "ember:  $EMBER_BENCH ${WORKLOADS[*]}"
echo "anchor: $ANCHOR ${WORKLOADS[*]}"
"$EMBER_BENCH" info | sed 's/^/ember   /'
"$ANCHOR" info | grep '^INFO' | grep -v sink | sed 's/^/anchor  /' || true
python3 "$SHARED/compare.py" --rounds "$ROUNDS" -- \
  "$EMBER_BENCH ${WORKLOADS[*]}" "$ANCHOR ${WORKLOADS[*]}"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

# ---------------------------------------------------------------- instruction counts
# Callgrind Ir per call of the small ops (W1*, W7), single-threaded, as the anchor's run.sh does:
# each op's loop is instrumented alone and dumped under its own name.
icount() { # label command... -> "IC <label> <key> <instr/op>" lines
  local label="$1" dir
  shift
  dir="$(mktemp -d)"
  OPENBLAS_NUM_THREADS=1 valgrind --tool=callgrind --instr-atstart=no \
    --callgrind-out-file="$dir/cg.out.%p" "$@" icount "$ICOUNT" >"$dir/stdout" 2>"$dir/stderr"
  for f in "$dir"/cg.out.*.*; do
    awk -v n="$ICOUNT" -v who="$label" '
      /^desc: Trigger: Client Request: / {name = $NF}
      /^summary: / {ir = $2}
      END {if (name != "") printf "%s %s %.1f\n", who, name, ir / n}' "$f"
  done
  rm -rf "$dir"
}
if [ "$ICOUNT" != 0 ] && command -v valgrind >/dev/null 2>&1; then
  echo "## instructions per call (callgrind, $ICOUNT calls each, 1 thread)"
  {
    icount ember "$EMBER_BENCH"
    icount anchor "$ANCHOR"
  } | awk '
    {v[$1, $2] = $3; keys[$2] = 1}
    END {
      printf "%-16s %12s %12s %8s\n", "key", "ember", "anchor", "ratio"
      for (k in keys) {
        e = ((("ember", k) in v) ? v["ember", k] : "missing")
        a = ((("anchor", k) in v) ? v["anchor", k] : "missing")
        r = (e != "missing" && a != "missing" && e > 0) ? sprintf("%.3f", e / a) : "-"
        printf "%-16s %12s %12s %8s\n", k, e, a, r
      }
    }' | sort
  echo
fi

# ---------------------------------------------------------------- W9: compile one TU
# g++ -O2 -c of a TU that includes the umbrella header and makes one tensor, against the same for
# LibTorch (trivial_torch.cpp, build.sh's flags). Best of 3 of the wall time and, since a loaded
# machine stretches wall time, of the CPU time (user + sys, GNU time).
if [ "$W9" = 1 ]; then
  echo "## W9: g++ -O2 -c of one TU (best of 3)"
  w9dir="$(mktemp -d)"
  cat >"$w9dir/trivial_ember.cpp" <<'EOF'
#include <ember/ember.h>

int main() {
  auto t = ember::ones({2, 3});
  return t.sum().item<float>() == 6.0f ? 0 : 1;
}
EOF
  torch_inc="$(dpkg -L libtorch-dev | awk '/\/torch\/csrc\/api\/include$/ {print; exit}')"
  best() { # command... -> "best_wall best_cpu" in seconds over 3 runs
    for _ in 1 2 3; do
      env time -f '%e %U %S' -o "$w9dir/time" "$@"
      cat "$w9dir/time"
    done | awk 'NR == 1 || $1 < w {w = $1} NR == 1 || $2 + $3 < c {c = $2 + $3}
                END {printf "%.2f %.2f", w, c}'
  }
  read -r ew ec <<<"$(best g++ -O2 -std=c++20 -Iinclude -c "$w9dir/trivial_ember.cpp" \
    -o "$w9dir/e.o")"
  read -r aw ac <<<"$(best g++ -O2 -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=1 -I"$torch_inc" \
    -c "$SHARED/libtorch/trivial_torch.cpp" -o "$w9dir/t.o")"
  printf '%-16s %10s %10s %8s\n' key ember anchor speedup
  printf '%-16s %10s %10s %8s\n' W9_compile_wall "${ew}s" "${aw}s" \
    "$(awk -v e="$ew" -v a="$aw" 'BEGIN {printf "%.1fx", a / e}')"
  printf '%-16s %10s %10s %8s\n' W9_compile_cpu "${ec}s" "${ac}s" \
    "$(awk -v e="$ec" -v a="$ac" 'BEGIN {printf "%.1fx", a / e}')"
  rm -rf "$w9dir"
fi
