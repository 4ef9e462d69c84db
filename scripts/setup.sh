#!/bin/bash
# Installs the system packages ember needs to build and test (Debian 12 / Ubuntu 22.04+), only
# those that are missing. Fast and silent when everything is there; CI runs it every time.
# Usage: bash scripts/setup.sh [--test]   (as root, or as a user who can sudo)
#   --test  also what the sanitizer stage of scripts/test.sh needs: clang with its sanitizer and
#           libFuzzer runtimes, and LLVM's OpenMP
set -euo pipefail

# compiler, build tools, CPU BLAS, GoogleTest, pkg-config (install test), git, zlib (gzip files).
packages=(g++ cmake ninja-build libopenblas-dev libgtest-dev pkg-config git zlib1g-dev)
case "${1:-}" in
  --test) packages+=(clang libclang-rt-dev libomp-dev) ;;
  "") ;;
  *) echo "setup: unknown argument '$1' (usage: setup.sh [--test])" >&2; exit 2 ;;
esac

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done

if ((${#missing[@]} == 0)); then
  echo "setup: all build dependencies present (${packages[*]})"
  exit 0
fi

install_cmd=(apt-get install -y -qq --no-install-recommends "${missing[@]}")
if ((EUID == 0)); then
  sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo=(sudo -n)
else
  echo "setup: missing packages: ${missing[*]}" >&2
  echo "setup: not root and no password-less sudo; install them with:" >&2
  echo "  sudo apt-get update && sudo ${install_cmd[*]}" >&2
  exit 1
fi

echo "setup: installing ${missing[*]} ..."
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { "${sudo[@]}" apt-get update -qq && "${sudo[@]}" "${install_cmd[@]}"; } >"$log" 2>&1; then
  tail -n 30 "$log" >&2
  echo "setup: apt-get failed (log above); the command was: ${install_cmd[*]}" >&2
  exit 1
fi
echo "setup: done"
