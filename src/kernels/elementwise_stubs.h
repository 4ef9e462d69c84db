// The kernel entry points of the TensorIter families: the elementwise tables (the op enum selects
// the row inside the kernel), clamp, where, copy, fill and random numbers. Each backend's
// register function fills them (Note [Stubs in their family's header] in dispatch_stub.h).
#pragma once

#include <optional>

#include "ember/scalar.h"
#include "kernels/dispatch_stub.h"
#include "kernels/tensor_iter.h"
#include "ops/binary_table.h"
#include "ops/unary_table.h"

namespace ember::kernels {

using BinaryFn = void (*)(TensorIter&, BinaryOp, Scalar alpha);
using UnaryFn = void (*)(TensorIter&, UnaryOp, const UnaryParams&);
using ClampFn = void (*)(TensorIter&, std::optional<Scalar>, std::optional<Scalar>);
using WhereFn = void (*)(TensorIter&);
using CopyFn = void (*)(TensorIter&);          // dtype conversion and strided copy, one device
using FillFn = void (*)(TensorIter&, Scalar);  // iterator with the output only
enum class RandomKind { Uniform, Normal, Integer };
// Fills a contiguous tensor: Uniform in [a, b), Normal(mean a, std b), Integer in [a, b).
using RandomFn = void (*)(const Tensor&, RandomKind, double a, double b, uint64_t seed,
                          uint64_t offset);

inline DispatchStub<BinaryFn> binary_stub{"binary op"};
inline DispatchStub<UnaryFn> unary_stub{"unary op"};
inline DispatchStub<ClampFn> clamp_stub{"clamp"};
inline DispatchStub<WhereFn> where_stub{"where"};
inline DispatchStub<CopyFn> copy_stub{"copy_"};
inline DispatchStub<FillFn> fill_stub{"fill_"};
inline DispatchStub<RandomFn> random_stub{"random"};

}  // namespace ember::kernels
