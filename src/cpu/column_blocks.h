// Tasks over blocks of neighbouring columns of a contiguous tensor's lines (kernels/lines.h): the
// shared work split of the CPU's cumsum and softmax.
#pragma once

#include <algorithm>
#include <cstdint>

#include "cpu/parallel.h"
#include "kernels/lines.h"

namespace ember::cpu {

// Outputs a task of a column-wise loop handles at once: long enough for contiguous loads, small
// enough that its per-column state stays in L1.
inline constexpr int64_t kColumnBlock = 1024;

using kernels::Lines;

// Lines that are independent (cumsum, softmax with inner > 1) are processed as tasks of up to
// kColumnBlock neighbouring columns of one outer slice, so that every inner loop is contiguous.
// f(base, width): the task's first element and its number of columns.
template <class F>
void for_each_column_block(const Lines& lines, const F& f) {
  const int64_t width = std::min(lines.inner, kColumnBlock);
  const int64_t blocks = (lines.inner + width - 1) / width;
  int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(lines.n * width, 1));
  parallel_for(lines.outer * blocks, grain, [&](int64_t b, int64_t e) {
    for (int64_t task = b; task < e; ++task) {
      int64_t first_column = task % blocks * width;
      int64_t base = task / blocks * lines.n * lines.inner + first_column;
      f(base, std::min(width, lines.inner - first_column));
    }
  });
}

}  // namespace ember::cpu
