// Tensor factories: tensor({...}), zeros, ones, full, arange, linspace, eye, random, from_blob.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <vector>

#include "ember/scalar.h"
#include "ember/tensor.h"
#include "ember/tensor_options.h"

namespace ember {

// ---- nested literals: tensor({{1, 2}, {3, 4}}). Integers give int64, floating values float32,
// bools bool (PyTorch's inference), unless options name a dtype.
class EMBER_API NestedList {
 public:
  NestedList(bool v) : scalars_{Scalar(v)} {}     // NOLINT
  NestedList(int v) : scalars_{Scalar(v)} {}      // NOLINT
  NestedList(int64_t v) : scalars_{Scalar(v)} {}  // NOLINT
  NestedList(float v) : scalars_{Scalar(v)} {}    // NOLINT
  NestedList(double v) : scalars_{Scalar(v)} {}   // NOLINT
  NestedList(std::initializer_list<NestedList> children);

  const std::vector<int64_t>& shape() const { return shape_; }
  const std::vector<Scalar>& scalars() const { return scalars_; }

 private:
  std::vector<int64_t> shape_;
  std::vector<Scalar> scalars_;
};

EMBER_API Tensor tensor(NestedList values, TensorOptions options = {});
EMBER_API Tensor scalar_tensor(Scalar value, TensorOptions options = {});

EMBER_API Tensor empty(IntArrayRef shape, TensorOptions options = {});
EMBER_API Tensor zeros(IntArrayRef shape, TensorOptions options = {});
EMBER_API Tensor ones(IntArrayRef shape, TensorOptions options = {});
// The dtype follows the value when options give none (full({2}, 7) is int64).
EMBER_API Tensor full(IntArrayRef shape, Scalar value, TensorOptions options = {});
// [start, end) in steps; int64 when all arguments are integers, else float32.
EMBER_API Tensor arange(Scalar end, TensorOptions options = {});
EMBER_API Tensor arange(Scalar start, Scalar end, Scalar step = 1, TensorOptions options = {});
EMBER_API Tensor linspace(Scalar start, Scalar end, int64_t steps, TensorOptions options = {});
EMBER_API Tensor eye(int64_t n, TensorOptions options = {});
EMBER_API Tensor eye(int64_t n, int64_t m, TensorOptions options = {});

// Random factories draw from ember's generator; manual_seed makes them reproducible.
EMBER_API void manual_seed(uint64_t seed);
EMBER_API Tensor rand(IntArrayRef shape, TensorOptions options = {});   // U[0, 1)
EMBER_API Tensor randn(IntArrayRef shape, TensorOptions options = {});  // N(0, 1)
EMBER_API Tensor randint(int64_t low, int64_t high, IntArrayRef shape, TensorOptions options = {});
EMBER_API Tensor randint(int64_t high, IntArrayRef shape, TensorOptions options = {});

// *_like: the shape, dtype and device of `like` unless options override them.
EMBER_API Tensor empty_like(const Tensor& like, TensorOptions options = {});
EMBER_API Tensor zeros_like(const Tensor& like, TensorOptions options = {});
EMBER_API Tensor ones_like(const Tensor& like, TensorOptions options = {});
EMBER_API Tensor full_like(const Tensor& like, Scalar value, TensorOptions options = {});
EMBER_API Tensor rand_like(const Tensor& like, TensorOptions options = {});
EMBER_API Tensor randn_like(const Tensor& like, TensorOptions options = {});

// A CPU tensor over the caller's memory (no copy): writes through either side are seen by the
// other. The memory must outlive the tensor unless `deleter` takes ownership. CUDA devices are
// refused: GPU memory is only ever allocated by ember.
EMBER_API Tensor from_blob(void* data, IntArrayRef shape, TensorOptions options = {},
                           std::function<void(void*)> deleter = nullptr);
EMBER_API Tensor from_blob(void* data, IntArrayRef shape, IntArrayRef strides,
                           TensorOptions options = {},
                           std::function<void(void*)> deleter = nullptr);

}  // namespace ember
