#!/bin/bash
# Installs what is missing, builds ember (Release, tests on) and runs the whole suite via CTest.
# Usage: bash scripts/test.sh          environment: BUILD_DIR (default build), JOBS (default 2),
#                                      EMBER_CMAKE_ARGS (extra configure arguments)
set -euo pipefail
cd "$(dirname "$0")/.."

build=${BUILD_DIR:-build}
jobs=${JOBS:-2}

bash scripts/setup.sh
echo "test: configuring $build"
# shellcheck disable=SC2086  # EMBER_CMAKE_ARGS is a list of words on purpose
mkdir -p "$build"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DEMBER_BUILD_TESTS=ON \
  ${EMBER_CMAKE_ARGS:-} >"$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }
grep -E '^-- ember:' "$build/configure.log" || true
echo "test: building with -j$jobs"
cmake --build "$build" -j "$jobs"
echo "test: running ctest"
ctest --test-dir "$build" --output-on-failure -j "$jobs"
