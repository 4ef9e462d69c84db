// Definitions of the op-family stubs declared in stubs.h, and filled_scalar.
#include "kernels/stubs.h"

#include "core/tensor_impl.h"

namespace ember::kernels {

DispatchStub<BinaryFn> binary_stub("binary op");
DispatchStub<UnaryFn> unary_stub("unary op");
DispatchStub<ClampFn> clamp_stub("clamp");
DispatchStub<WhereFn> where_stub("where");
DispatchStub<CopyFn> copy_stub("copy_");
DispatchStub<FillFn> fill_stub("fill_");
DispatchStub<RandomFn> random_stub("random");

Tensor filled_scalar(Scalar value, DType dtype, Device device) {
  Tensor t(detail::empty_impl({}, dtype, device));
  TensorIter it = make_iter({"fill_", dtype, dtype, false, {}, /*check_mem_overlap=*/false}, t, {});
  fill_stub(device.type(), it, value);
  return t;
}

}  // namespace ember::kernels
