// register_cpu_kernels: fills the CPU slot of every op-family stub, explicitly.
#include "cpu/kernels.h"
#include "kernels/register.h"

namespace ember::cpu {
namespace {

// The kernel files compiled once per capability: the baseline copies, then copy `c` over them.
void register_capability_kernels(Capability c) {
  baseline::register_reduce_kernels();
  baseline::register_softmax_kernels();
  baseline::register_binary_kernels();
  baseline::register_unary_kernels();
#if EMBER_HAVE_VECTOR_KERNELS
  if (c == Capability::Avx512) {
    avx512::register_reduce_kernels();
    avx512::register_softmax_kernels();
    avx512::register_binary_kernels();
    avx512::register_unary_kernels();
  }
  if (c == Capability::Avx2) {
    avx2::register_reduce_kernels();
    avx2::register_softmax_kernels();
    avx2::register_binary_kernels();
    avx2::register_unary_kernels();
  }
#else
  (void)c;
#endif
}

}  // namespace

void select_capability(Capability c) {
  // Registration first: the first op of a process registers every kernel with capability(), and
  // would replace copy c.
  detail::ensure_registered();
  register_capability_kernels(c);
}

}  // namespace ember::cpu

namespace ember::detail {

void register_cpu_kernels() {
  cpu::register_copy_kernels();
  cpu::register_scan_kernels();
  cpu::register_capability_kernels(cpu::capability());
  cpu::register_linalg_kernels();
  cpu::register_shape_kernels();
  cpu::register_conv_kernels();
  cpu::register_optim_kernels();
  cpu::register_rnn_kernels();
}

}  // namespace ember::detail
