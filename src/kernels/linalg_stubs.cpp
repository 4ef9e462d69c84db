// Definition of the gemm stub declared in linalg_stubs.h.
#include "kernels/linalg_stubs.h"

namespace ember::kernels {

DispatchStub<GemmFn> gemm_stub("matmul");

}  // namespace ember::kernels
