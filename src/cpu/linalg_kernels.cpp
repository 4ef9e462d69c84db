// TEMPORARY placeholder replaced by the linalg kernels.
#include "cpu/kernels.h"
namespace ember::cpu {
void register_linalg_kernels() {}
}  // namespace ember::cpu
