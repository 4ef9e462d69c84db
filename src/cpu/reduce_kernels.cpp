// TEMPORARY placeholder replaced by the reduce kernels.
#include "cpu/kernels.h"
namespace ember::cpu {
void register_reduce_kernels() {}
}  // namespace ember::cpu
