// Tensor factories, with LibTorch's overloads: tensor, zeros, ones, full, empty_strided, eye,
// arange, linspace, logspace, the random factories, *_like and from_blob.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <ranges>
#include <type_traits>
#include <vector>

#include "ember/scalar.h"
#include "ember/tensor.h"
#include "ember/tensor_options.h"

namespace ember {

// ---- literals, as LibTorch's torch::tensor: a scalar, nested braces, or a contiguous range
// (std::vector<T>, ArrayRef). The C++ element type decides the dtype unless options name one:
// int and int64_t give Long, float and double the default dtype (get_default_dtype), the other
// types their own (int16_t Short, uint8_t Byte, bool Bool, ...), as LibTorch's
// compute_desired_dtype. Mixed element types (LibTorch refuses them) promote, as in Python.
class EMBER_API NestedList {
 public:
  NestedList(bool v) : NestedList(Scalar(v), kBool) {}          // NOLINT
  NestedList(uint8_t v) : NestedList(Scalar(v), kByte) {}       // NOLINT
  NestedList(int8_t v) : NestedList(Scalar(v), kChar) {}        // NOLINT
  NestedList(int16_t v) : NestedList(Scalar(v), kShort) {}      // NOLINT
  NestedList(int v) : NestedList(Scalar(v), kInt) {}            // NOLINT
  NestedList(int64_t v) : NestedList(Scalar(v), kLong) {}       // NOLINT
  NestedList(Half v) : NestedList(Scalar(v), kHalf) {}          // NOLINT
  NestedList(BFloat16 v) : NestedList(Scalar(v), kBFloat16) {}  // NOLINT
  NestedList(float v) : NestedList(Scalar(v), kFloat) {}        // NOLINT
  NestedList(double v) : NestedList(Scalar(v), kDouble) {}      // NOLINT
  NestedList(std::initializer_list<NestedList> children);

  const std::vector<int64_t>& shape() const { return shape_; }
  const std::vector<Scalar>& scalars() const { return scalars_; }
  // The C++ type of the leaves (promoted when they differ); nullopt for an empty list.
  std::optional<ScalarType> element_type() const { return element_type_; }

 private:
  NestedList(Scalar v, ScalarType type) : scalars_{v}, element_type_(type) {}

  std::vector<int64_t> shape_;
  std::vector<Scalar> scalars_;
  std::optional<ScalarType> element_type_;
};

EMBER_API Tensor tensor(NestedList values, TensorOptions options = {});

namespace detail {
template <class T>
concept TensorElement = requires {
  CppTypeToScalarType<T>::value;
};
// A 1-d tensor of `count` elements of `type` copied from `data` (the ranges form of tensor()).
EMBER_API Tensor tensor_from_elements(const void* data, int64_t count, ScalarType type,
                                      const TensorOptions& options);
}  // namespace detail

// tensor(std::vector<float>{...}), tensor(IntArrayRef(...)): any contiguous range of elements.
// std::vector<bool> is no such range, and is refused as in LibTorch.
template <std::ranges::contiguous_range Values>
requires std::ranges::sized_range<Values> &&
    detail::TensorElement<std::remove_cv_t<std::ranges::range_value_t<Values>>>
        Tensor tensor(const Values& values, TensorOptions options = {}) {
  using T = std::remove_cv_t<std::ranges::range_value_t<Values>>;
  return detail::tensor_from_elements(std::ranges::data(values),
                                      static_cast<int64_t>(std::ranges::size(values)),
                                      CppTypeToScalarType<T>::value, options);
}

// A 0-dim tensor of the default dtype unless options name one (integers too, as LibTorch).
EMBER_API Tensor scalar_tensor(Scalar value, TensorOptions options = {});

// ---- fills. The options' memory_format, or `memory_format`, orders the strides (Contiguous
// unless given).
EMBER_API Tensor empty(IntArrayRef size, TensorOptions options = {},
                       std::optional<MemoryFormat> memory_format = std::nullopt);
EMBER_API Tensor zeros(IntArrayRef size, TensorOptions options = {});
EMBER_API Tensor ones(IntArrayRef size, TensorOptions options = {});
// The dtype follows the value when options give none: full({2}, 7) is Long, full({2}, true)
// Bool, full({2}, 1.5) the default dtype.
EMBER_API Tensor full(IntArrayRef size, Scalar value, TensorOptions options = {});
// Uninitialised, with the given strides: any non-negative ones, gaps and overlaps too (LibTorch).
EMBER_API Tensor empty_strided(IntArrayRef size, IntArrayRef stride, TensorOptions options = {});
EMBER_API Tensor eye(int64_t n, TensorOptions options = {});
EMBER_API Tensor eye(int64_t n, int64_t m, TensorOptions options = {});

// ---- ranges. arange: [start, end) in steps; Long when every bound is an integer, else the
// default dtype. linspace and logspace: the default dtype unless options name one.
EMBER_API Tensor arange(const Scalar& end, TensorOptions options = {});
EMBER_API Tensor arange(const Scalar& start, const Scalar& end, TensorOptions options = {});
EMBER_API Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step,
                        TensorOptions options = {});
EMBER_API Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps,
                          TensorOptions options = {});
// base ** linspace(start, end, steps).
EMBER_API Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base = 10.0,
                          TensorOptions options = {});

// ---- random factories draw from ember's generator; manual_seed makes them reproducible.
// randint and randperm default to Long as LibTorch's (`options = kLong`); options without a
// dtype give randint the default dtype, and randperm Long still (LibTorch's quirks, both).
EMBER_API void manual_seed(uint64_t seed);
EMBER_API Tensor rand(IntArrayRef size, TensorOptions options = {});   // U[0, 1)
EMBER_API Tensor randn(IntArrayRef size, TensorOptions options = {});  // N(0, 1)
EMBER_API Tensor randint(int64_t low, int64_t high, IntArrayRef size,
                         TensorOptions options = kLong);
EMBER_API Tensor randint(int64_t high, IntArrayRef size, TensorOptions options = kLong);
EMBER_API Tensor randperm(int64_t n, TensorOptions options = kLong);

// ---- *_like: the shape, dtype and device of `self` unless options override them. Strides
// follow `memory_format` (or the options'), Preserve by default: Note [Preserved strides].
EMBER_API Tensor empty_like(const Tensor& self, TensorOptions options = {},
                            std::optional<MemoryFormat> memory_format = std::nullopt);
EMBER_API Tensor zeros_like(const Tensor& self, TensorOptions options = {},
                            std::optional<MemoryFormat> memory_format = std::nullopt);
EMBER_API Tensor ones_like(const Tensor& self, TensorOptions options = {},
                           std::optional<MemoryFormat> memory_format = std::nullopt);
EMBER_API Tensor full_like(const Tensor& self, const Scalar& fill_value, TensorOptions options = {},
                           std::optional<MemoryFormat> memory_format = std::nullopt);
EMBER_API Tensor rand_like(const Tensor& self, TensorOptions options = {},
                           std::optional<MemoryFormat> memory_format = std::nullopt);
EMBER_API Tensor randn_like(const Tensor& self, TensorOptions options = {},
                            std::optional<MemoryFormat> memory_format = std::nullopt);
EMBER_API Tensor randint_like(const Tensor& self, int64_t high, TensorOptions options = {},
                              std::optional<MemoryFormat> memory_format = std::nullopt);
EMBER_API Tensor randint_like(const Tensor& self, int64_t low, int64_t high,
                              TensorOptions options = {},
                              std::optional<MemoryFormat> memory_format = std::nullopt);

// A CPU tensor over the caller's memory (no copy): writes through either side are seen by the
// other. The memory must outlive the tensor unless `deleter` takes ownership. LibTorch's four
// overloads, the deleter before the options. CUDA devices are refused: GPU memory is only ever
// allocated by ember.
EMBER_API Tensor from_blob(void* data, IntArrayRef sizes, const TensorOptions& options = {});
EMBER_API Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides,
                           const TensorOptions& options = {});
EMBER_API Tensor from_blob(void* data, IntArrayRef sizes, const std::function<void(void*)>& deleter,
                           const TensorOptions& options = {});
EMBER_API Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides,
                           const std::function<void(void*)>& deleter,
                           const TensorOptions& options = {});

}  // namespace ember
