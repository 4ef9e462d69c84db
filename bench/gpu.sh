#!/usr/bin/env bash
# bench/gpu.sh — ember on a GPU machine lent through the device tool (../.library/device).
#
# Every device call starts a bare machine, and its command must end within 600 s; only the working
# tree and the ignored folders named in `carry` travel there, and only what the command writes
# under $OUT (at most 8 files) comes back. So `prepare` makes the GPU build HERE (nvcc 13.0, the
# machine's, for its one architecture, with -lineinfo and without OpenBLAS: 36 MiB that the GPU
# results do not need) and packs it into the ignored .carry/ with GoogleTest; each call then runs
# from that build, or builds there when it does not match the sources or the GPU. Each step gets
# its time from a deadline fixed when the call starts, and writes its log under $OUT as it goes.
#
# Here, in the checkout the device tool sends (the session's own), after the last change to the
# sources (40 minutes on 2 busy cores from scratch, 14 with ccache; 31 MiB to carry):
#   bash bench/gpu.sh prepare
# Then one device call each, in this order; every one is the run tool with exactly
#   {"command": "bash bench/gpu.sh <step>", "carry": [".carry"], "timeout_s": 600}
# where <step> is
#   first-pass          versions and compute mode, the GPU tests, ember-smi, ember-demo --device
#                       cuda (alone, then as 2 data-parallel ranks), then compute-sanitizer
#                       memcheck on the parity tests for the time left
#                       (BUDGET_S 240 or more: the tests keep 150 s for the steps after them)
#   sanitize memcheck other | sanitize memcheck parity | sanitize racecheck
#                       one tool on one part of the GPU tests, with the whole call's time
#                       (SANITIZE_FILTER, a GoogleTest filter, replaces the part's: to finish a
#                       run that timed out, name the tests its log lacks)
#   bench [W1 ...]      ember-dist-bench on 2 CPU ranks, then ember-bench against PyTorch
#                       (bench_torch.py; bench_torch_nn.py for W10 and W11) on the same GPU
# Read $OUT/summary.txt first; the other logs are build.log, tests.log, demo.log,
# sanitizer-<tool>-<part>.log, dist-bench.log and bench.log. Commit them as bench/results/<date>-<gpu>-*.log with
# a table beside them.
set -uo pipefail  # no -e: a failed step is logged and the next one still runs

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT" || exit 2
CARRY="$ROOT/.carry"
BUILD="$ROOT/build-gpu"
CARRIED="$CARRY/build-gpu"
OUT="${OUT:-$ROOT/build-gpu-logs}"
SUMMARY="$OUT/summary.txt"
DEADLINE=$((SECONDS + ${BUDGET_S:-570}))  # the call's 600 s, less a margin for the transfers
JOBS="$(nproc)"
ROUNDS="${ROUNDS:-3}"
SHARED_BENCH="${SHARED_BENCH:-$ROOT/../shared/bench}"
export PATH="$PATH:/usr/local/cuda/bin"

note() { echo "$*" | tee -a "$SUMMARY"; }

# Seconds for a step that may take up to $1 and must leave $2 to the steps after it.
slice() {
  local s=$((DEADLINE - SECONDS - $2))
  ((s > $1)) && s=$1
  echo $((s < 0 ? 0 : s))
}

# step NAME MAX RESERVE LOG COMMAND...: runs COMMAND under `timeout` for its slice, appending its
# output to $OUT/LOG, and notes how it ended. Returns COMMAND's status (124: timed out).
step() {
  local name=$1 max=$2 reserve=$3 log="$OUT/$4" seconds start status
  shift 4
  seconds=$(slice "$max" "$reserve")
  if ((seconds < 15)); then
    note "$name: not run, ${seconds}s left"
    return 124
  fi
  start=$SECONDS
  echo "## $name, up to ${seconds}s: $*" >>"$log"
  timeout --kill-after=10 "$seconds" "$@" >>"$log" 2>&1
  status=$?
  note "$name: exit $status after $((SECONDS - start))s$( ((status == 124)) && echo ', timed out')"
  return $status
}

gpu_query() { nvidia-smi --query-gpu="$1" --format=csv,noheader 2>/dev/null | head -n 1; }
gpu_arch() { gpu_query compute_cap | tr -d '. '; }  # "90" on an H100 or H200

log_environment() {
  note "date: $(date -u +%Y-%m-%dT%H:%M:%SZ), kernel $(uname -r), $JOBS cores"
  note "gpu: $(gpu_query name,driver_version,memory.total,compute_cap,compute_mode)"
  note "g++: $(g++ --version 2>&1 | head -n 1)"
  note "cmake: $(cmake --version 2>&1 | head -n 1)"
  note "nvcc: $(nvcc --version 2>&1 | grep -o 'release [0-9.]*')"
  note "compute-sanitizer: $(compute-sanitizer --version 2>&1 | grep -o 'Version [0-9.]*')"
}

# What a build is made from; a carried build is used only where this is unchanged. In C's order:
# the GPU image's locale sorts "emberConfig" before "ember.pc".
source_hash() {
  find CMakeLists.txt cmake src include tests examples tools bench data -type f \
    \( -name '*.cpp' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' -o -name '*.cmake' \
    -o -name '*.in' -o -name '*.inc' -o -name CMakeLists.txt -o -name '*.gz' \) -print0 |
    LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c 1-16
}

# The GoogleTest that prepare carried; the GPU image has none.
gtest_dir() { dirname "$(find "$CARRY/gtest" -name GTestConfig.cmake -print -quit)"; }

configure_and_build() {
  local arch=$1 launchers=()
  if command -v ccache >/dev/null; then
    launchers=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
  fi
  # EMBER_WERROR=OFF: a newer g++'s new warnings must not stop the build before any test runs.
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DEMBER_CUDA=ON -DEMBER_WERROR=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch-real" -DCMAKE_CUDA_FLAGS=-lineinfo \
    -DCMAKE_DISABLE_FIND_PACKAGE_BLAS=ON -DEMBER_BUILD_TESTS=ON -DEMBER_BUILD_BENCH=ON \
    -DEMBER_BUILD_EXAMPLES=ON -DGTest_DIR="$(gtest_dir)" "${launchers[@]}" &&
    cmake --build "$BUILD" -j "$JOBS" --target ember_tests ember-smi ember-demo ember-bench ember-run
}

# The carried build in place of build-gpu, when it was made from these sources for this GPU and
# its libraries load. Its CTest files name the checkout it was made in: that path is made a link
# to this one.
use_carried_build() {
  local manifest="$CARRIED/manifest.txt" made_in
  [ -f "$manifest" ] || return 1
  [ "$(awk '$1 == "sources" { print $2 }' "$manifest")" = "$(source_hash)" ] || return 1
  [ "$(awk '$1 == "arch" { print $2 }' "$manifest")" = "$(gpu_arch)" ] || return 1
  made_in="$(awk '$1 == "checkout" { print $2 }' "$manifest")"
  if [ ! -e "$made_in" ]; then mkdir -p "$(dirname "$made_in")" && ln -s "$ROOT" "$made_in"; fi
  [ "$(cd "$made_in" && pwd -P)" = "$(pwd -P)" ] || return 1
  [ -e "$BUILD" ] || ln -s "$CARRIED" "$BUILD"
  [ "$(cd "$BUILD" && pwd -P)" = "$(cd "$CARRIED" && pwd -P)" ] || return 1
  [ -x "$BUILD/tests/ember_tests" ] && ! ldd "$BUILD/tests/ember_tests" | grep -q 'not found'
}

# The carried libraries that the image lacks (its own newer ones stay in use, also by CMake and
# PyTorch), and cuBLAS and NCCL, which the first GPU matmul and the first NCCL group load (Notes
# [cuBLAS loaded on first use], [NCCL loaded on first use]): the toolkit's, else the ones
# PyTorch's wheels bring.
find_libraries() {
  local missing=/tmp/ember-libs lib cublas nccl
  mkdir -p "$missing"
  for lib in "$CARRY"/lib/*; do
    ldconfig -p | grep -q "${lib##*/} " || ln -sf "$lib" "$missing/"
  done
  export LD_LIBRARY_PATH="$missing${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  if ! ldconfig -p | grep -q 'libcublas\.so\.'; then
    cublas="$(find /usr/local /opt -name 'libcublas.so.*' -print -quit 2>/dev/null)"
    [ -n "$cublas" ] && LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$(dirname "$cublas")"
  fi
  if ! ldconfig -p | grep -q 'libnccl\.so\.2'; then
    nccl="$(find /usr/local /opt /usr/lib -name 'libnccl.so.2*' -print -quit 2>/dev/null)"
    [ -n "$nccl" ] && LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$(dirname "$nccl")"
  fi
}

# A build for this GPU: the carried one, else one made here within the call's first minutes.
ensure_build() {
  find_libraries
  if [ -f "$CARRIED.tar.gz" ] && [ ! -d "$CARRIED" ]; then tar -C "$CARRY" -xzf "$CARRIED.tar.gz"; fi
  if use_carried_build; then
    note "build: carried from prepare ($(awk '$1 == "made" { print $2 }' "$CARRIED/manifest.txt"))"
    return 0
  fi
  note "build: the carried build does not fit these sources, this GPU or its libraries; building"
  if [ -L "$BUILD" ]; then rm "$BUILD"; fi  # a link to the carried build
  step "build for sm_$(gpu_arch)" 360 "$1" build.log bash "${BASH_SOURCE[0]}" build "$(gpu_arch)"
}

# "N passed, N failed (names), N skipped, unfinished: name" from a GoogleTest log.
gtest_results() {
  [ -f "$1" ] || { echo "no log"; return; }
  awk '/^\[ RUN      \]/ { running = $4; done = 0 }
       /^\[       OK \] .*\(/ { ok++; done = 1 }
       /^\[  SKIPPED \] .*\(/ { skipped++; done = 1 }
       /^\[  FAILED  \] .*\(/ { failed++; names = names " " $4; done = 1 }
       END { printf "%d passed, %d failed%s, %d skipped", ok, failed, names ? " (" names " )" : "",
             skipped; if (running && !done) printf ", unfinished: %s", running; print "" }' "$1"
}

# Every test of ember_tests but CTest's build.*, diff.* and distributed.* (CI runs those; they need
# pkg-config, the differential test programs and the collectives check, none of them on the GPU),
# with GPU tests failing instead of skipping. EmberRun.* runs the carried ember-run: without it a
# test would signal pid 0, the whole call's process group. In
# EXCLUSIVE_PROCESS mode one process at a time may use the GPU: the whole binary in one process.
run_gpu_tests() {
  local reserve=$1 mode seconds not_here='^(build|diff|distributed)\.'
  mode="$(gpu_query compute_mode)"
  if [ "$mode" = "Exclusive_Process" ]; then
    step "GPU tests in one process ($mode)" 420 "$reserve" tests.log \
      env EMBER_REQUIRE_CUDA=1 "$BUILD/tests/ember_tests"
    note "  $(gtest_results "$OUT/tests.log")"
    return
  fi
  # CTest stops its tests a little before the step's end, so that it still prints its list; its
  # count covers the tests it started.
  seconds=$(slice 420 "$reserve")
  step "GPU tests (ctest -j$JOBS, compute mode $mode)" 420 "$reserve" tests.log \
    env EMBER_REQUIRE_CUDA=1 ctest --test-dir "$BUILD" -E "$not_here" -j "$JOBS" \
    --timeout 180 --output-on-failure --stop-time "$(date -d "+$((seconds - 20)) seconds" +%T)"
  note "  $(grep -cE 'Test +#[0-9]+: ' "$OUT/tests.log") of $(ctest --test-dir "$BUILD" -N \
    -E "$not_here" | awk '/Total Tests/ { print $3 }') tests finished"
  sed -n '/tests passed/,$p' "$OUT/tests.log" | head -n 60 | sed 's/^/  /' | tee -a "$SUMMARY"
}

# compute-sanitizer TOOL on PART of the GPU tests, the cache off so that each tensor has its own
# bounds (Note [Disabling the CUDA cache]). Out-of-memory tests are left out (the tool allocates
# beside), and so is the one cumsum of 67 million elements (minutes under the tool; its kernels
# run in the other cumsum tests). racecheck takes the kernels that share memory: reductions,
# softmax and cumsum, and sort.
run_sanitizer() {
  local tool=$1 part=${2:-all} reserve=${3:-5} filter
  local skip='-*OutOfMemory*:*Oom*:CumsumParity.ALineOfMoreThanATileSquared'
  case "$tool:$part" in
    memcheck:parity) filter="*Parity*$skip" ;;
    memcheck:other) filter="$skip:*Parity*" ;;
    memcheck:distributed) filter="ProcessGroupNCCL.*:DataParallel*:ProcessGroupGloo.Cuda*$skip" ;;
    racecheck:all) filter="ReduceParity.*:SoftmaxParity.*:CumsumParity.*:ShapeParity.*$skip" ;;
    *) note "unknown sanitizer run '$tool $part' (memcheck parity|other|distributed, racecheck)"; return 2 ;;
  esac
  # SANITIZE_FILTER narrows a run to named tests, as when a timed-out run is finished later.
  filter=${SANITIZE_FILTER:-$filter}
  local log="sanitizer-$tool-$part.log"
  step "compute-sanitizer $tool, $part tests" 600 "$reserve" "$log" \
    env EMBER_REQUIRE_CUDA=1 PYTORCH_NO_CUDA_MEMORY_CACHING=1 compute-sanitizer --tool "$tool" \
    --error-exitcode 9 --print-limit 200 "$BUILD/tests/ember_tests" --gtest_filter="$filter"
  note "  $(gtest_results "$OUT/$log"); $(grep -h 'ERROR SUMMARY' "$OUT/$log" | tail -n 1)"
}

first_pass() {
  ensure_build 240 || return 1
  # Line-buffered, so that an error (stderr) lands after the output before it.
  step ember-smi 30 220 demo.log stdbuf -oL "$BUILD/tools/ember-smi"
  run_gpu_tests 150
  step "ember-demo --device cuda" 120 60 demo.log stdbuf -oL "$BUILD/examples/ember-demo" \
    --device cuda
  tail -n 4 "$OUT/demo.log" | sed 's/^/  /' | tee -a "$SUMMARY"
  # Two ranks sharing the GPU, DistributedDataParallel over Gloo through host copies (Note [CUDA
  # tensors on Gloo]); an exclusive-process GPU takes one process at a time.
  if [ "$(gpu_query compute_mode)" != "Exclusive_Process" ]; then
    step "ember-demo --nproc 2 --device cuda" 90 60 demo.log stdbuf -oL \
      "$BUILD/examples/ember-demo" --nproc 2 --device cuda --epochs 5
    tail -n 2 "$OUT/demo.log" | sed 's/^/  /' | tee -a "$SUMMARY"
  fi
  run_sanitizer memcheck parity
}

run_bench() {
  ensure_build 240 || return 1
  # ember::distributed on the machine's CPU cores, which this one has to spare (bench/results/
  # *-cpu-distributed.md): Gloo's all-reduce against raw Gloo, and the DDP step's target.
  if [ -x "$BUILD/bench/ember-dist-bench" ]; then
    step "ember-dist-bench, 2 CPU ranks" 90 120 dist-bench.log "$BUILD/tools/ember-run" \
      --nproc 2 --master-port 0 "$BUILD/bench/ember-dist-bench"
    grep -h RESULT "$OUT/dist-bench.log" | sed 's/^/  /' | tee -a "$SUMMARY"
  fi
  step "ember-bench against PyTorch, $ROUNDS rounds" 600 60 bench.log \
    python3 "$CARRY/compare.py" --rounds "$ROUNDS" -- \
    "$BUILD/bench/ember-bench --device cuda $*" "python3 $CARRY/bench_torch.py --device cuda $*"
  # The shared anchor has no W10 or W11; bench/pytorch/bench_torch_nn.py times them as ember-bench.
  if (($# == 0)); then
    step "W10 and W11 against PyTorch, $ROUNDS rounds" 300 60 bench.log \
      python3 "$CARRY/compare.py" --rounds "$ROUNDS" -- "$BUILD/bench/ember-bench --device cuda \
      W10 W11" "python3 $ROOT/bench/pytorch/bench_torch_nn.py --device cuda"
  fi
  step "one full ember-bench run" 600 5 bench.log "$BUILD/bench/ember-bench" --device cuda "$@"
  tail -n 40 "$OUT/bench.log"
}

# Here, without a GPU: the build for the lent machine's GPU (ARCH, default 90: H100 and H200),
# the libraries the image may lack, GoogleTest, and the PyTorch side of the benchmarks (from
# SHARED_BENCH, default the shared/bench beside the checkout).
prepare() {
  local arch="${ARCH:-90}" lib
  rm -rf "$CARRY" && mkdir -p "$CARRY/gtest" "$CARRY/lib" "$CARRIED"
  # Headers, static libraries and the CMake package, at their paths under .carry/gtest.
  dpkg -L libgtest-dev | while read -r f; do
    case "$f" in
      /usr/include/gtest/* | */libgtest*.a | */cmake/GTest/*)
        if [ -f "$f" ]; then install -D -m 0644 "$f" "$CARRY/gtest$f"; fi ;;
    esac
  done
  configure_and_build "$arch" || return 1
  cmake --build "$BUILD" -j "$JOBS" --target ember-dist-bench || return 1
  # What the programs and CTest need, at their places in the build tree.
  (cd "$BUILD" && find . \( -name CTestTestfile.cmake -o -name 'ember_tests*.cmake' \
    -o -name 'libember.so*' -o -path ./tests/ember_tests -o -path ./tools/ember-smi \
    -o -path ./examples/ember-demo -o -path ./bench/ember-bench -o -path ./bench/ember-dist-bench \
    -o -path ./tools/ember-run \) -print0 |
    xargs -0 cp -a --parents -t "$CARRIED")
  # Without their symbol tables: the carried folder and the tree must fit the call's 64 MiB.
  (cd "$CARRIED" && find . -type f \( -name 'libember.so.*' -o -path ./tests/ember_tests \
    -o -path ./tools/ember-smi -o -path ./examples/ember-demo -o -path ./bench/ember-bench \
    -o -path ./bench/ember-dist-bench -o -path ./tools/ember-run \) -exec strip --strip-unneeded {} +)
  # Every runtime library but the C and C++ runtimes (the image's newer libstdc++ stays its own)
  # and ember's own (carried in the build): OpenMP, zlib, libzip and what it loads, Gloo and what
  # it loads, the CUDA runtime.
  ldd "$BUILD/tests/ember_tests" "$BUILD/src/libember.so" "$BUILD/bench/ember-dist-bench" |
    awk '$3 ~ /^\// { print $1, $3 }' |
    sort -u | while read -r lib path; do
    case "$lib" in
      libc.so.* | libm.so.* | libstdc++.so.* | libgcc_s.so.* | libdl.so.* | libpthread.so.* | \
        librt.so.* | libember.so.*) ;;
      *) cp -L "$path" "$CARRY/lib/" ;;
    esac
  done
  printf 'sources %s\narch %s\ncheckout %s\nmade %s\n' "$(source_hash)" "$arch" "$ROOT" \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$CARRIED/manifest.txt"
  # Packed: the stripped test program and library alone come to 53 MiB, gzip makes them 21.
  tar -C "$CARRY" -czf "$CARRIED.tar.gz" build-gpu && rm -rf "$CARRIED"
  cp "$SHARED_BENCH/pytorch/bench_torch.py" "$SHARED_BENCH/compare.py" "$CARRY/" || return 1
  du -sh "$CARRY" "$CARRIED.tar.gz"
}

mkdir -p "$OUT"
case "${1:-}" in
  prepare) prepare ;;
  build) configure_and_build "$2" ;;  # ensure_build's step, in a process of its own
  first-pass) log_environment && first_pass ;;
  sanitize) log_environment && ensure_build 300 && run_sanitizer "${2:-memcheck}" "${3:-}" ;;
  bench) shift; log_environment && run_bench "$@" ;;
  *) awk 'NR > 1 && !/^#/ { exit } NR > 1 { print }' "${BASH_SOURCE[0]}"; exit 2 ;;
esac
