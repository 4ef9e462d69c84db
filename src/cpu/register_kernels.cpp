// register_cpu_kernels: fills the CPU slot of every op-family stub, explicitly.
#include "cpu/kernels.h"
#include "kernels/register.h"

namespace ember {

void cpu::register_reduce_kernels(Capability c) {
  baseline::register_reduce_kernels();
#if EMBER_HAVE_VECTOR_KERNELS
  if (c == Capability::Avx512) avx512::register_reduce_kernels();
  if (c == Capability::Avx2) avx2::register_reduce_kernels();
#else
  (void)c;
#endif
}

namespace detail {

void register_cpu_kernels() {
  cpu::register_binary_kernels();
  cpu::register_unary_kernels();
  cpu::register_copy_kernels();
  cpu::register_cumsum_kernels();
  cpu::register_reduce_kernels(cpu::capability());
  cpu::register_linalg_kernels();
  cpu::register_shape_kernels();
  cpu::register_conv_kernels();
  cpu::register_optim_kernels();
}

}  // namespace detail
}  // namespace ember
