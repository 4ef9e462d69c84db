// register_cpu_kernels: fills the CPU slot of every op-family stub, explicitly.
#include "cpu/kernels.h"
#include "kernels/register.h"

namespace ember::detail {

void register_cpu_kernels() {
  cpu::register_elementwise_kernels();
  cpu::register_copy_kernels();
  cpu::register_reduce_kernels();
  cpu::register_linalg_kernels();
  cpu::register_shape_kernels();
}

}  // namespace ember::detail
