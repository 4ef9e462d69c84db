#!/bin/bash
# Installs the system packages ember needs to build and test, only those that are missing. Fast
# and silent when everything is there; CI runs it every time. For Debian 12, or any Debian or
# Ubuntu whose cmake is 3.25 or newer (checked at the end: Ubuntu 22.04's 3.22 is too old).
# Usage: bash scripts/setup.sh [--test]   (as root, or as a user who can sudo)
#   --test  also what scripts/test.sh needs: clang-format and Debian's LibTorch for the release
#           stage (the format check, the differential test tests/diff), Debian's PyTorch and NumPy
#           for the file round trips with Python (tests/interop), clang with its sanitizer
#           and libFuzzer runtimes and LLVM's OpenMP (with archer) for the sanitizer stages, and
#           Gloo for ember::distributed's process groups (tests/distributed)
set -euo pipefail

# compiler, build tools, CPU BLAS, GoogleTest, pkg-config (install test), git, zlib (gzip files),
# libzip (PyTorch's .pt and NumPy's .npz archives), DLPack's header (to_dlpack/from_dlpack).
packages=(g++ cmake ninja-build libopenblas-dev libgtest-dev pkg-config git zlib1g-dev libzip-dev
          libdlpack-dev)
case "${1:-}" in
  --test) packages+=(clang-format libtorch-dev clang libclang-rt-dev libomp-dev python3-torch
                    python3-numpy libgloo-dev) ;;
  "") ;;
  *) echo "setup: unknown argument '$1' (usage: setup.sh [--test])" >&2; exit 2 ;;
esac

# The oldest cmake ember's CMakeLists.txt accepts (cmake_minimum_required).
check_cmake() {
  local version
  version=$(cmake --version | awk 'NR == 1 {print $3}')
  if ! printf '3.25\n%s\n' "$version" | sort -V -C; then
    echo "setup: cmake $version is older than the 3.25 ember needs; install a newer one" \
         "(e.g. pip install cmake, or Kitware's apt repository)" >&2
    exit 1
  fi
}

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done

if ((${#missing[@]} == 0)); then
  check_cmake
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
check_cmake
echo "setup: done"
