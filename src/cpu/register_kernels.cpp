// register_cpu_kernels: fills the CPU slot of every op-family stub, explicitly.
#include "cpu/capability.h"
#include "cpu/kernels.h"
#include "kernels/register.h"

namespace ember::detail {

void register_cpu_kernels() {
  cpu::register_binary_kernels();
  cpu::register_unary_kernels();
  cpu::register_copy_kernels();
  cpu::baseline::register_reduce_kernels();
#if EMBER_HAVE_AVX2_KERNELS
  if (cpu::has_avx2()) cpu::avx2::register_reduce_kernels();  // overrides the baseline slots
#endif
  cpu::register_linalg_kernels();
  cpu::register_shape_kernels();
  cpu::register_conv_kernels();
}

}  // namespace ember::detail
