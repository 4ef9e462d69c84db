// Definitions of the stubs declared in reduce_stubs.h.
#include "kernels/reduce_stubs.h"

namespace ember::kernels {

DispatchStub<ReduceFn> reduce_stub("reduction");
DispatchStub<CumsumFn> cumsum_stub("cumsum");
DispatchStub<SoftmaxFn> softmax_stub("softmax");

}  // namespace ember::kernels
