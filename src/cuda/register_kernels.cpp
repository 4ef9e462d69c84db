// Registers the CUDA kernels with their DispatchStubs. None exist yet, so an op on a CUDA tensor
// throws NotImplementedError ("[op] is not implemented for cuda") from its stub.
#include "kernels/register.h"

namespace ember::detail {

void register_cuda_kernels() {}

}  // namespace ember::detail
