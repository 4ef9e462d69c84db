// Definitions of the op-family stubs declared in stubs.h.
#include "kernels/stubs.h"

namespace ember::kernels {

DispatchStub<BinaryFn> binary_stub("binary op");
DispatchStub<CompareFn> compare_stub("comparison");
DispatchStub<UnaryFn> unary_stub("unary op");
DispatchStub<ClampFn> clamp_stub("clamp");
DispatchStub<WhereFn> where_stub("where");
DispatchStub<CopyFn> copy_stub("copy_");
DispatchStub<FillFn> fill_stub("fill_");
DispatchStub<RandomFn> random_stub("random");

}  // namespace ember::kernels
