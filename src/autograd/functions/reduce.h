// Backward formulas of the reductions, cumsum, cumprod, softmax and the value-selecting ops
// (max/min along a dim, sort, topk): ops/reduce.cpp and ops/sort.cpp record them. Formulas that sum
// or raise to powers compute in the opmath type (autograd::in_opmath) and return the gradient's
// dtype.
#pragma once

#include <cstdint>
#include <vector>

#include "autograd/record.h"
#include "core/tensor_impl.h"
#include "ember/tensor.h"

namespace ember::autograd::functions {

// What a reduction's formula knows of its shapes.
struct ReducedShape {
  std::vector<int64_t> input;  // the input's shape
  std::vector<int64_t> kept;   // the output's shape with reduced dims kept as 1
  std::vector<int64_t> dims;   // the reduced dims
  int64_t count = 1;           // elements folded into each output element

  ReducedShape(const Tensor& x, const bool (&reduced)[detail::kMaxDims]);
  // An output-shaped tensor (keepdim or not) viewed with the reduced dims kept.
  Tensor keep(const Tensor& t) const { return t.reshape(kept); }
  // ... and broadcast over the input.
  Tensor spread(const Tensor& t) const { return keep(t).expand(input); }
};

// SumBackward0 (over everything) and SumBackward1 (over dims): the gradient broadcast back.
// Saves nothing.
struct SumBackward {
  ReducedShape shape;
  Grads operator()(const Context& c) const;
};

// MeanBackward0 and MeanBackward1: the gradient broadcast back over the count. Saves nothing.
struct MeanBackward {
  ReducedShape shape;
  Grads operator()(const Context& c) const;
};

// ProdBackward0 and ProdBackward1: the gradient times the product of the slice's other
// elements. Saves the input and the result.
struct ProdBackward {
  ReducedShape shape;
  Grads operator()(const Context& c) const;
};

// AmaxBackward0 and AminBackward0: the gradient shared evenly by the elements equal to the
// result. Saves the input and the result.
struct ExtremaBackward {
  ReducedShape shape;
  Grads operator()(const Context& c) const;
};

// MaxBackward1 and MinBackward1 (max() and min() over everything): as ExtremaBackward, except
// that a NaN result is shared by the NaNs that made it (PyTorch's evenly_distribute_backward).
// Saves the input and the result.
struct EvenlyDistributedBackward {
  ReducedShape shape;
  Grads operator()(const Context& c) const;
};

// MaxBackward0, MinBackward0 (along a dim), SortBackward0 and TopkBackward0: each value's
// gradient goes to the position its index names, zeros elsewhere (PyTorch's
// value_selecting_reduction_backward). Saves the indices.
struct ValueSelectingBackward {
  int64_t dim;
  bool keepdim;                // false: the indices lack `dim` (max and min without keepdim)
  std::vector<int64_t> input;  // the input's shape
  Grads operator()(const Context& c) const;
};

// VarBackward0: 2 (x - mean) / (N - correction) times the gradient. Saves the input and the
// result.
struct VarBackward0 {
  static constexpr const char* kName = "VarBackward0";
  ReducedShape shape;
  double correction;
  Grads operator()(const Context& c) const;
};

// StdBackward0: var's gradient over 2 std, zero where std is zero. Saves the input and the
// result.
struct StdBackward0 {
  static constexpr const char* kName = "StdBackward0";
  ReducedShape shape;
  double correction;
  Grads operator()(const Context& c) const;
};

// NormBackward1: sign(x) |x|^(p-1) / ||x||^(p-1) times the gradient (p = 0: none; p = inf: shared
// by the largest magnitudes). Saves the input and the result.
struct NormBackward1 {
  static constexpr const char* kName = "NormBackward1";
  ReducedShape shape;
  double p;
  Grads operator()(const Context& c) const;
};

// LogsumexpBackward0: the gradient times exp(x - result). Saves the input and the result.
struct LogsumexpBackward0 {
  static constexpr const char* kName = "LogsumexpBackward0";
  ReducedShape shape;
  Grads operator()(const Context& c) const;
};

// CumsumBackward0: the reversed cumulative sum of the gradient along dim. Saves nothing.
struct CumsumBackward0 {
  static constexpr const char* kName = "CumsumBackward0";
  int64_t dim;
  Grads operator()(const Context& c) const;
};

// CumprodBackward0: the reversed cumulative sum of g y, over x, with each line's first zero and
// the elements after it handled apart (Note [cumprod's gradient]). Saves the input and the
// result.
struct CumprodBackward0 {
  static constexpr const char* kName = "CumprodBackward0";
  int64_t dim;
  Grads operator()(const Context& c) const;
};

// SoftmaxBackward0: y (g - sum(g y)) along dim. Saves the result y.
struct SoftmaxBackward0 {
  static constexpr const char* kName = "SoftmaxBackward0";
  int64_t dim;
  Grads operator()(const Context& c) const;
};

// LogSoftmaxBackward0: g - exp(y) sum(g) along dim. Saves the result y.
struct LogSoftmaxBackward0 {
  static constexpr const char* kName = "LogSoftmaxBackward0";
  int64_t dim;
  Grads operator()(const Context& c) const;
};

}  // namespace ember::autograd::functions
