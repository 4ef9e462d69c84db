#!/bin/bash
# Installs what is missing (scripts/setup.sh --test), then builds ember and runs its test stages
# through CTest:
#   release   the format check (scripts/check_format.sh), then a g++ Release build and the whole
#             suite, the differential test against Debian's LibTorch (tests/diff) included
#   sanitize  clang build with AddressSanitizer + UndefinedBehaviorSanitizer (leak checking on):
#             the whole suite again, plus every libFuzzer harness for EMBER_FUZZ_SECONDS each
#   thread    (not run by default: CI time) clang build with ThreadSanitizer, OpenMP-aware through
#             LLVM's archer tool; runs the tests that use threads (scripts/tsan_tests.txt)
# Usage: bash scripts/test.sh          environment: BUILD_DIR (default build; the sanitize stage
#   uses BUILD_DIR-sanitize), JOBS (default 2), EMBER_CMAKE_ARGS (extra configure arguments),
#   EMBER_TEST_STAGES (default "release sanitize"; add "thread" for TSan), EMBER_FUZZ_SECONDS
#   (default 20), EMBER_TEST_SHARDS (default 8; 0 gives one CTest test per TEST)
set -euo pipefail
cd "$(dirname "$0")/.."

build=${BUILD_DIR:-build}
jobs=${JOBS:-2}
stages=${EMBER_TEST_STAGES:-release sanitize}
# The suite as eight processes, not one per TEST (Note [Test shards] in tests/CMakeLists.txt); the
# thread stage picks its tests by name, so it keeps one per TEST.
shards=${EMBER_TEST_SHARDS:-8}

# configure_build_test DIR [cmake arguments...]: one stage's build and its CTest run (with the
# extra ctest arguments in the ctest_args array).
ctest_args=()
configure_build_test() {
  local dir=$1
  shift
  echo "test: configuring $dir"
  mkdir -p "$dir"
  # shellcheck disable=SC2086  # EMBER_CMAKE_ARGS is a list of words on purpose
  cmake -S . -B "$dir" -G Ninja -DEMBER_BUILD_TESTS=ON "$@" ${EMBER_CMAKE_ARGS:-} \
    >"$dir/configure.log" 2>&1 || { cat "$dir/configure.log"; exit 1; }
  # ember's own status lines, and every warning whole (a slow BLAS, no OpenMP, no zlib)
  sed -n -e '/^-- ember:/p' -e '/^CMake Warning/,/^$/p' "$dir/configure.log"
  echo "test: building $dir with -j$jobs"
  cmake --build "$dir" -j "$jobs"
  echo "test: running ctest in $dir"
  ctest --test-dir "$dir" --output-on-failure -j "$jobs" "${ctest_args[@]}"
}

bash scripts/setup.sh --test

# Without a GPU the CUDA backend can be compiled but not run: PTX for one architecture checks
# that it compiles in a third of nvcc's time for the default's machine code (with a GPU, CMake
# builds for that GPU and its tests run).
cuda_args=()
if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  cuda_args=(-DCMAKE_CUDA_ARCHITECTURES=90-virtual)
fi

for stage in $stages; do
  case $stage in
    release)
      bash scripts/check_format.sh
      configure_build_test "$build" -DCMAKE_BUILD_TYPE=Release -DEMBER_TEST_SHARDS="$shards" \
        "${cuda_args[@]}" ;;
    sanitize)
      # CUDA stays off: the sanitizers watch host code, and nvcc's host compiler is g++.
      # Line tables are all a sanitizer's report needs; full debug info cost a fifth of the
      # stage's compile time.
      CC=clang CXX=clang++ configure_build_test "$build-sanitize" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG" \
        "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG" \
        -DEMBER_TEST_SHARDS="$shards" \
        -DEMBER_SANITIZE=address,undefined -DEMBER_BUILD_FUZZERS=ON -DEMBER_CUDA=OFF \
        -DEMBER_BUILD_BENCH=OFF -DEMBER_FUZZ_SECONDS="${EMBER_FUZZ_SECONDS:-20}" \
        -DEMBER_CHECK_HEADERS=OFF \
        -DCMAKE_DISABLE_FIND_PACKAGE_Torch=ON ;;  # the LibTorch comparison ran in release
    thread)
      # libomp itself is not instrumented: archer tells TSan about OpenMP's synchronisation, and
      # the suppressions drop races inside libomp's own code.
      archers=(/usr/lib/llvm-*/lib/libarcher.so)  # the pattern itself when none is installed
      archer=${archers[-1]}
      if [[ ! -f "$archer" ]]; then
        echo "test: the thread stage needs LLVM's archer (/usr/lib/llvm-*/lib/libarcher.so), which" \
             "comes with libomp-dev (libomp-<version>-dev); install it with" \
             "bash scripts/setup.sh --test" >&2
        exit 1
      fi
      export OMP_TOOL_LIBRARIES=$archer
      export TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/scripts/tsan.supp"
      ctest_args=(-R "$(paste -sd '|' scripts/tsan_tests.txt)")
      CC=clang CXX=clang++ configure_build_test "$build-thread" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DEMBER_SANITIZE=thread -DEMBER_CUDA=OFF -DEMBER_BUILD_BENCH=OFF -DEMBER_BUILD_EXAMPLES=OFF \
        -DCMAKE_DISABLE_FIND_PACKAGE_Torch=ON
      ctest_args=() ;;
    *)
      echo "test: unknown stage '$stage' in EMBER_TEST_STAGES (release, sanitize, thread)" >&2
      exit 2 ;;
  esac
done
echo "test: all stages passed ($stages)"
