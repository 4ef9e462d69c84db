// The strides of new tensors made from others: dense strides in a given tensor's (or an
// elementwise op's operands') stride order, the memory formats' strides, and the tests for them.
#pragma once

#include <cstdint>
#include <memory>

#include "core/tensor_impl.h"
#include "ember/memory_format.h"

namespace ember::detail {

// Note [Preserved strides]
// PyTorch gives a tensor made from another the other's layout: clone(), to(), the *_like
// factories (MemoryFormat::Preserve, their default) copy the strides of a dense non-overlapping
// input exactly, and otherwise lay the result out densely in the input's stride order
// (infer_dense_strides); an elementwise op's output is laid out densely in the order its
// operands' strides agree on (TensorIterator's reorder_dimensions). So the result of
// x.t().clone(), x.t() + 1 or x.t().to(kDouble) is x.t()'s transposed layout, not row-major,
// and a loop over it walks all operands' memory in order. Both orders come from the one
// comparison below, as in PyTorch. contiguous() and MemoryFormat::Contiguous ask for row-major.

// Orders the dims of `ndim`-dim operands as PyTorch's TensorIterator does, fastest first.
// Dims are numbered fastest-first initially (dim 0 is the last tensor dim), as TensorIter
// numbers them. strides[k] are operand k's strides in that numbering (0 for broadcast dims).
// On return order[i] is the dim to walk i-th fastest: operands are asked in turn, the first
// with a strict preference (neither stride 0) decides, equal strides put the smaller size first.
void stride_order(const int64_t* shape, int ndim, const int64_t (*strides)[kMaxDims], int noperands,
                  int* order);

// Dense strides for `shape` (tensor dims) walking its dims in `order` (fastest first), a dim of
// size 0 counted as 1.
void dense_strides(IntArrayRef shape, const int* order, int64_t* strides);

// PyTorch's is_non_overlapping_and_dense: the elements fill numel slots of memory, in some order.
bool is_non_overlapping_and_dense(const TensorImpl& t);

// Whether `t`'s strides are those `format` gives its shape (size-1 dims may have any stride);
// Preserve is refused as in PyTorch. The channels-last formats hold only for 4-d and 5-d shapes.
bool is_contiguous_as(const TensorImpl& t, MemoryFormat format);

// A new tensor shaped like `like`, its strides as `format` says (Note [Preserved strides]).
std::shared_ptr<TensorImpl> empty_like_impl(const TensorImpl& like, ScalarType dtype, Device device,
                                            MemoryFormat format);

// A new tensor of `shape` laid out in `format` (not Preserve).
std::shared_ptr<TensorImpl> empty_impl(IntArrayRef shape, ScalarType dtype, Device device,
                                       MemoryFormat format);

}  // namespace ember::detail
