// TEMPORARY placeholder replaced by the shape kernels.
#include "cpu/kernels.h"
namespace ember::cpu {
void register_shape_kernels() {}
}  // namespace ember::cpu
