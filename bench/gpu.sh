#!/usr/bin/env bash
# bench/gpu.sh — the GPU verification, for a session that is lent a GPU machine (the device tool
# of ../.library/device). Only the working tree travels there, plus the ignored folder .carry/,
# and nothing can be installed there, so `prepare` packs what the machine lacks first.
#
#   bash bench/gpu.sh prepare         here: .carry/ gets GoogleTest (Debian's libgtest-dev, static),
#                                     the PyTorch anchor and compare.py from ../shared/bench
#   bash bench/gpu.sh test            there (carry [".carry"]): builds with -DEMBER_CUDA=ON for
#                                     the machine's GPU (found by nvidia-smi), runs ember-smi,
#                                     the whole CTest suite and ember-demo on the GPU
#   bash bench/gpu.sh sanitize [TOOL] there: compute-sanitizer (memcheck, racecheck, or the one
#                                     named) on the GPU tests
#   bash bench/gpu.sh bench [W1 ...]  there: ember-bench --device cuda against bench_torch.py
#                                     --device cuda, ROUNDS alternating rounds (default 3)
#
# Each step fits one device call (10 minutes at most); a warm machine keeps $BUILD between calls,
# and sanitize and bench build it first when it is missing.
# Every step writes its log under $OUT (what the device tool brings back), else under
# $BUILD/logs. Commit the logs as bench/results/<date>-<gpu>-*.log with a table beside them.
# Without OpenBLAS on the machine the CPU side uses ember's own matmul loops (the CMake
# warning says so); the GPU results do not depend on it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
CARRY="$ROOT/.carry"
BUILD="${BUILD:-build-gpu}"
OUT="${OUT:-$BUILD/logs}"
ROUNDS="${ROUNDS:-3}"
JOBS="$(nproc)"

log_environment() {
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "uname: $(uname -a)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
  nvcc --version | tail -n 2 || true
  c++ --version | head -n 1
}

prepare() {
  rm -rf "$CARRY"
  mkdir -p "$CARRY/gtest"
  # Headers, static libraries and the CMake package, at their paths under .carry/gtest.
  dpkg -L libgtest-dev | while read -r f; do
    case "$f" in
      /usr/include/gtest/* | */libgtest*.a | */cmake/GTest/*)
        if [ -f "$f" ]; then install -D -m 0644 "$f" "$CARRY/gtest$f"; fi ;;
    esac
  done
  cp ../shared/bench/pytorch/bench_torch.py ../shared/bench/compare.py "$CARRY/"
  du -sh "$CARRY"
}

configure_and_build() {
  local gtest_dir
  gtest_dir="$(dirname "$(find "$CARRY/gtest" -name GTestConfig.cmake | head -n 1)")"
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DEMBER_CUDA=ON \
    -DEMBER_BUILD_TESTS=ON -DEMBER_BUILD_BENCH=ON -DEMBER_BUILD_EXAMPLES=ON \
    -DGTest_DIR="$gtest_dir"
  cmake --build "$BUILD" -j "$JOBS"
}

run_tests() {
  mkdir -p "$OUT"
  {
    log_environment
    time configure_and_build
  } 2>&1 | tee "$OUT/build.log"
  "$BUILD/tools/ember-smi" 2>&1 | tee "$OUT/ember-smi.log" || true
  # The suite with every GPU test live; --output-on-failure keeps the failing tests' output.
  # EMBER_REQUIRE_CUDA=1: a GPU test that finds no usable GPU fails rather than skips.
  (cd "$BUILD" && EMBER_REQUIRE_CUDA=1 ctest -j "$JOBS" --output-on-failure --timeout 300) \
    >"$OUT/ctest.log" 2>&1 || true
  tail -n 40 "$OUT/ctest.log"
  # The main job on the GPU: device table, the tutorial replay, training with event timing.
  timeout 120 "$BUILD/examples/ember-demo" --device cuda 2>&1 | tee "$OUT/demo.log" || true
}

# The GPU tests under compute-sanitizer, the cache off so that each tensor has its own bounds
# (Note [Disabling the CUDA cache]): memcheck on every GPU test, racecheck on the tests of the
# kernels that share memory (reductions, softmax and cumsum in reduce_kernels.cu, sort in
# shape_kernels.cu). Out-of-memory tests are left out (the tool allocates beside), and so is the
# one cumsum of 67 million elements (minutes under the tool; its kernels run in the other cumsum
# tests). `sanitize memcheck` or `sanitize racecheck` runs one tool with a whole call's time.
run_sanitizer() {
  mkdir -p "$OUT"
  if [ ! -x "$BUILD/tests/ember_tests" ]; then configure_and_build >"$OUT/build.log" 2>&1; fi
  local tools=("$@")
  if [ "${#tools[@]}" -eq 0 ]; then tools=(memcheck racecheck); fi
  local seconds=$((540 / ${#tools[@]}))
  local skip=':-*OutOfMemory*:*Oom*:CumsumParity.ALineOfMoreThanATileSquared'
  local filter
  for tool in "${tools[@]}"; do
    case "$tool" in
      memcheck)
        filter='*Parity*:Cuda*:KernelErrors.*:BackwardStreams.*:DeviceCuda.*:NnOptimFused.*' ;;
      racecheck) filter='ReduceParity.*:SoftmaxParity.*:CumsumParity.*:ShapeParity.*' ;;
      *) echo "unknown compute-sanitizer tool '$tool' (memcheck or racecheck)"; exit 2 ;;
    esac
    EMBER_REQUIRE_CUDA=1 PYTORCH_NO_CUDA_MEMORY_CACHING=1 timeout "$seconds" compute-sanitizer \
      --tool "$tool" --error-exitcode 9 "$BUILD/tests/ember_tests" \
      --gtest_filter="$filter$skip" --gtest_brief=1 >"$OUT/sanitizer-$tool.log" 2>&1 \
      || echo "exit status $? (9: errors found, 124: timed out)" >>"$OUT/sanitizer-$tool.log"
    echo "## $tool"
    tail -n 25 "$OUT/sanitizer-$tool.log"
  done
}

run_bench() {
  mkdir -p "$OUT"
  if [ ! -x "$BUILD/bench/ember-bench" ]; then configure_and_build >"$OUT/build.log" 2>&1; fi
  local workloads="$*"
  {
    log_environment
    python3 "$CARRY/compare.py" --rounds "$ROUNDS" -- \
      "$BUILD/bench/ember-bench --device cuda $workloads" \
      "python3 $CARRY/bench_torch.py --device cuda $workloads"
    echo
    echo "## one full ember-bench run"
    "$BUILD/bench/ember-bench" --device cuda $workloads
  } 2>&1 | tee "$OUT/bench-compare.log"
}

case "${1:-}" in
  prepare) prepare ;;
  test) run_tests ;;
  sanitize) shift; run_sanitizer "$@" ;;
  bench) shift; run_bench "$@" ;;
  *) sed -n '2,20p' "${BASH_SOURCE[0]}"; exit 2 ;;
esac
