// CPU loops of the fused recurrent cells (Note [Fused recurrent cells] in kernels/rnn_cell.h): the
// shared functor over each thread's range of (batch row, hidden unit) elements.
#include <algorithm>
#include <tuple>

#include "cpu/kernels.h"
#include "cpu/parallel.h"
#include "ember/tensor.h"
#include "kernels/rnn_cell.h"

namespace ember::cpu {
namespace {

using namespace kernels;

// A cell element costs a few exponentials, about ten times a plain elementwise op's element.
constexpr int64_t kCellGrain = kGrainSize / 8;

// Rows [begin, end) of a step, a row's units in one loop the compiler vectorises.
template <class Cell, class... Pointers>
void cell_rows(const Cell cell, int64_t begin, int64_t end, Pointers... pointers) {
  const int64_t hidden = cell.hidden;
  for (int64_t row = begin; row < end; ++row)
    for (int64_t unit = 0; unit < hidden; ++unit) cell(pointers..., row, unit);
}

// Cell's functor for every element of `out` ([B, H]), in its floating dtype, whole rows per
// thread.
struct CpuLoop {
  template <template <class> class Cell, class... Tensors>
  static void run(const char* op, const Tensor& out, const Tensors&... tensors) {
    const int64_t hidden = out.size(-1), rows = hidden > 0 ? out.numel() / hidden : 0;
    dispatch_floating(out.scalar_type(), op, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const Cell<opmath_t<T>> cell{hidden};
      const auto pointers = std::make_tuple(tensors.template data_ptr<T>()...);
      parallel_for(rows, std::max<int64_t>(1, kCellGrain / std::max<int64_t>(hidden, 1)),
                   [&](int64_t begin, int64_t end) {
                     std::apply([&](auto*... p) { cell_rows(cell, begin, end, p...); }, pointers);
                   });
    });
  }
};

}  // namespace

void register_rnn_kernels() { CellKernels<CpuLoop>::register_for(DeviceType::CPU); }

}  // namespace ember::cpu
