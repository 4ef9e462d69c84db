#!/bin/bash
# Checks that the C++ sources (src/ include/ tests/ tools/ examples/ bench/ fuzz/) are formatted as
# .clang-format says; lists the files that are not and fails. The release stage of scripts/test.sh
# runs it. Usage: bash scripts/check_format.sh [--fix]   (--fix formats them in place)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v clang-format >/dev/null; then
  echo "check_format: clang-format is not installed; bash scripts/setup.sh --test installs it" \
       "(Debian package clang-format)" >&2
  exit 1
fi
fix=0
case "${1:-}" in
  --fix) fix=1 ;;
  "") ;;
  *) echo "check_format: unknown argument '$1' (usage: check_format.sh [--fix])" >&2; exit 2 ;;
esac

mapfile -t files < <(find src include tests tools examples bench fuzz -type f \
  \( -name '*.h' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' \) | sort)
if ((fix)); then
  clang-format -i "${files[@]}"
  echo "check_format: formatted ${#files[@]} files"
  exit 0
fi
# One clang-format for all files; each misformatted line is reported as "FILE:LINE:COL: error: ...".
mapfile -t unformatted < <(clang-format --dry-run --Werror "${files[@]}" 2>&1 |
  sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: .*/\1/p' | sort -u)
if ((${#unformatted[@]} > 0)); then
  printf '  %s\n' "${unformatted[@]}" >&2
  echo "check_format: ${#unformatted[@]} of ${#files[@]} files differ from .clang-format" \
       "($(clang-format --version)); bash scripts/check_format.sh --fix formats them" >&2
  exit 1
fi
echo "check_format: ${#files[@]} files formatted as .clang-format says"
