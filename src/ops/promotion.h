// PyTorch's result-type rule across tensors, 0-dim tensors and wrapped scalars, and the
// wrapping of a Scalar into a 0-dim tensor.
#pragma once

#include <initializer_list>

#include "ember/scalar.h"
#include "ember/tensor.h"

namespace ember::ops {

// Note [Result type]
// Operands fall in three priority classes: tensors with dims, 0-dim tensors, and wrapped
// numbers (Scalars). A lower class only changes the result when it is of a higher category
// (bool < integer < floating): int64 tensor + 2.5 -> float32, float16 tensor + 2.5 -> float16,
// int32 tensor + int64 0-dim tensor -> int32. Wrapped floating numbers count as float32.
ScalarType result_type(std::initializer_list<const Tensor*> operands);
inline ScalarType result_type(const Tensor& a, const Tensor& b) { return result_type({&a, &b}); }

// Whether `s` can be stored in `dtype`, checked where a number is written into a tensor of that
// dtype (fill_, masked_fill, scatter's value, clamp's bounds), as c10's checked_convert: ValueError
// "value cannot be converted to type ... without overflow". Conversions to bool never overflow,
// an integer may wrap into an unsigned type (-1 into uint8 is 255), and inf and NaN fit the
// floating types only. Numbers that take part in type promotion (x + 2) are never checked.
void check_fits(const char* op, Scalar s, ScalarType dtype);

// A CPU 0-dim tensor holding `s` (int64, float64 or bool), flagged as a wrapped number.
Tensor wrap_scalar(Scalar s);
// The same value as a 0-dim tensor of the given dtype (not wrapped).
Tensor scalar_to_tensor(Scalar s, ScalarType dtype, Device device);

}  // namespace ember::ops
