// The kernel entry points of each op family: one DispatchStub per family, filled by each
// backend's register function; the op enum selects the functor inside the kernel.
#pragma once

#include <optional>

#include "ember/scalar.h"
#include "kernels/dispatch_stub.h"
#include "kernels/tensor_iter.h"
#include "ops/binary_table.h"
#include "ops/unary_table.h"

namespace ember::kernels {

using BinaryFn = void (*)(TensorIter&, BinaryOp, Scalar alpha);
using UnaryFn = void (*)(TensorIter&, UnaryOp);
using ClampFn = void (*)(TensorIter&, std::optional<Scalar>, std::optional<Scalar>);
using WhereFn = void (*)(TensorIter&);
using CopyFn = void (*)(TensorIter&);        // dtype conversion and strided copy, one device
using FillFn = void (*)(TensorIter&, Scalar);  // iterator with the output only
enum class RandomKind { Uniform, Normal, Integer };
// Fills a contiguous tensor: Uniform in [a, b), Normal(mean a, std b), Integer in [a, b).
using RandomFn = void (*)(const Tensor&, RandomKind, double a, double b, uint64_t seed,
                          uint64_t offset);

extern DispatchStub<BinaryFn> binary_stub;
extern DispatchStub<UnaryFn> unary_stub;
extern DispatchStub<ClampFn> clamp_stub;
extern DispatchStub<WhereFn> where_stub;
extern DispatchStub<CopyFn> copy_stub;
extern DispatchStub<FillFn> fill_stub;
extern DispatchStub<RandomFn> random_stub;

// A 0-dim tensor of `dtype` on `device` holding `value` (converted as fill_ converts it), written
// by fill_stub. Scalars reach a GPU this way: a copy from pageable host memory would make the host
// wait for the GPU at every `x * 2`, where a fill is one more kernel launch.
Tensor filled_scalar(Scalar value, DType dtype, Device device);

}  // namespace ember::kernels
