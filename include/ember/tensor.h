// Tensor: a shared handle to an n-dimensional array on a device, with PyTorch's semantics.
#pragma once

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ember/device.h"
#include "ember/dtype.h"
#include "ember/elementwise_names.h"
#include "ember/int_array_ref.h"
#include "ember/macros.h"
#include "ember/memory_format.h"
#include "ember/scalar.h"
#include "ember/tensor_options.h"

namespace ember {

namespace detail {
struct TensorImpl;
struct TensorImplAccess;  // how ember's own code reaches the impl (src/core/tensor_impl.h)
}  // namespace detail
namespace autograd {
class Node;
}

class TensorIndex;
class Stream;

// A Tensor is a cheap, shared handle: copying it shares the data (like torch.Tensor). Views
// (view, transpose, narrow, ...) share storage; ops return new tensors on their inputs' device.
class EMBER_API Tensor {
 public:
  Tensor() = default;  // undefined: defined() is false
  explicit Tensor(std::shared_ptr<detail::TensorImpl> impl) : impl_(std::move(impl)) {}
  Tensor(const Tensor&) = default;
  Tensor(Tensor&&) noexcept = default;
  ~Tensor() = default;

  // Assigning to a named tensor rebinds the handle; assigning to a temporary one, as x[0] = y or
  // x.index({0}) = 2, writes into its elements (copy_, fill_), as in LibTorch.
  Tensor& operator=(const Tensor& other) & = default;
  Tensor& operator=(Tensor&& other) & noexcept = default;
  Tensor& operator=(const Tensor& other) &&;
  Tensor& operator=(Tensor&& other) &&;
  Tensor& operator=(const Scalar& value) &&;

  bool defined() const { return impl_ != nullptr; }
  // Same handle target (Python's `is`): true for x.to(x.device()).
  bool is_same(const Tensor& other) const { return impl_ == other.impl_; }
  // Shares memory with `other` (views, from_blob, no-op transfers).
  bool is_alias_of(const Tensor& other) const;

  // ---- metadata
  IntArrayRef sizes() const;
  IntArrayRef strides() const;
  int64_t size(int64_t dim) const;  // negative dims count from the end
  int64_t stride(int64_t dim) const;
  int64_t dim() const;
  int64_t numel() const;
  int64_t storage_offset() const;
  // The element type as LibTorch returns it (x.dtype() == kFloat compares; it prints "float").
  TypeMeta dtype() const { return TypeMeta::fromScalarType(scalar_type()); }
  ScalarType scalar_type() const;
  Device device() const;
  TensorOptions options() const { return TensorOptions(scalar_type()).device(device()); }
  bool is_cpu() const { return device().is_cpu(); }
  bool is_cuda() const { return device().is_cuda(); }
  int get_device() const;  // -1 for cpu, the index for cuda (Tensor.get_device)
  bool is_contiguous() const;
  bool is_floating_point() const { return ember::isFloatingType(scalar_type()); }
  size_t element_size() const { return ember::elementSize(scalar_type()); }
  size_t nbytes() const { return static_cast<size_t>(numel()) * element_size(); }
  bool requires_grad() const;
  const Tensor& requires_grad_(bool requires_grad = true) const;

  // ---- autograd (more in autograd.h)
  // The gradient a backward pass accumulated into this leaf; undefined until one has.
  const Tensor& grad() const;
  Tensor& mutable_grad() const;  // to reset it: t.mutable_grad() = Tensor()
  // Accumulates d(this)/d(leaf) into every leaf's grad(); `gradient` may be omitted for a
  // one-element tensor. Without retain_graph the graph's saved tensors are freed.
  void backward(const Tensor& gradient = Tensor(),
                std::optional<bool> retain_graph = std::nullopt) const;
  void retain_grad() const;  // a non-leaf keeps its grad() too
  bool retains_grad() const;
  bool is_leaf() const;  // no grad_fn: created by the user, or by ops not recording
  std::shared_ptr<autograd::Node> grad_fn() const;  // the op that made it, e.g. AddmmBackward0
  int64_t output_nr() const;                        // which output of grad_fn this is
  // Bumped by every in-place write to the storage; autograd uses it to detect a saved tensor
  // that was modified before backward.
  uint32_t version() const;
  // Makes this handle (and every copy of it) refer to new_data's memory, shape and dtype while
  // keeping its autograd identity (requires_grad, grad): how Module::to() moves parameters in
  // place (PyTorch's `param.data = ...`).
  void set_data(const Tensor& new_data) const;

  // ---- host access (CPU tensors only; CUDA tensors throw and tell you to call .cpu())
  void* data_ptr() const;  // raw pointer to the first element, any device
  template <class T>
  T* data_ptr() const {
    return static_cast<T*>(typed_host_ptr(CppTypeToScalarType<T>::value));
  }
  // The elements of a contiguous CPU tensor, writable in place.
  template <class T>
  std::span<T> span() const {
    return std::span<T>(static_cast<T*>(contiguous_host_ptr(CppTypeToScalarType<T>::value)),
                        static_cast<size_t>(numel()));
  }
  Scalar item() const;  // the one element of a one-element tensor
  template <class T>
  T item() const {
    return item().to<T>();
  }
  // A copy of the elements in row-major order, converted to T.
  template <class T>
  std::vector<T> to_vector() const {
    Tensor c = to(Device::cpu(), CppTypeToScalarType<T>::value).contiguous();
    const T* p = c.data_ptr<T>();
    return std::vector<T>(p, p + c.numel());
  }

  // ---- transfers: a new tensor, or this one when nothing changes (and copy is false)
  // non_blocking=true: a copy from pinned memory to a GPU, or from a GPU to the CPU (the result is
  // then in pinned memory, as PyTorch's), runs asynchronously to the host. Unlike PyTorch's, such
  // a result is safe to read at once: the first host access to its bytes waits for the copy.
  // LibTorch's overloads: to(kCUDA), to("cpu"), to(kDouble), to(x.options()), to(other). The
  // result keeps this tensor's strides unless memory_format asks for another layout
  // (Note [Preserved strides]).
  Tensor to(TensorOptions options = {}, bool non_blocking = false, bool copy = false,
            std::optional<MemoryFormat> memory_format = std::nullopt) const;
  Tensor to(ScalarType dtype, bool non_blocking = false, bool copy = false,
            std::optional<MemoryFormat> memory_format = std::nullopt) const;
  Tensor to(TypeMeta dtype, bool non_blocking = false, bool copy = false) const {
    return to(dtype.toScalarType(), non_blocking, copy);
  }
  Tensor to(Device device, TypeMeta dtype, bool non_blocking = false, bool copy = false) const {
    return to(device, dtype.toScalarType(), non_blocking, copy);
  }
  Tensor to(Device device, ScalarType dtype, bool non_blocking = false, bool copy = false,
            std::optional<MemoryFormat> memory_format = std::nullopt) const;
  Tensor to(const Tensor& other, bool non_blocking = false, bool copy = false,
            std::optional<MemoryFormat> memory_format = std::nullopt) const;
  Tensor cuda(int index = -1, bool non_blocking = false) const;
  Tensor cpu(bool non_blocking = false) const;
  // non_blocking=true from a GPU: asynchronous into pinned memory (the first host access to it
  // waits for the copy); into ordinary CPU memory the copy has finished when copy_ returns.
  Tensor& copy_(const Tensor& src, bool non_blocking = false) const;
  // A copy in page-locked ("pinned") host memory, from which non_blocking copies to a GPU run
  // asynchronously; this tensor itself when it is pinned already (torch.Tensor.pin_memory). CPU
  // tensors only, and it needs a GPU: it throws like a CUDA device would without one.
  Tensor pin_memory() const;
  // Whether the memory is ember's page-locked memory (pin_memory(), or a non_blocking copy from a
  // GPU); false without a GPU, never throws.
  bool is_pinned() const;
  // Declares that work queued on `stream` (of this tensor's device) uses this tensor's memory, so
  // that when the tensor is freed its memory is reused only after that work, as PyTorch's
  // Tensor.record_stream; needed for any stream other than the one the tensor was made on.
  void record_stream(const Stream& stream) const;
  // This tensor when its strides are those of memory_format already, else a copy laid out so.
  Tensor contiguous(MemoryFormat memory_format = MemoryFormat::Contiguous) const;
  // A copy, with this tensor's strides unless memory_format asks for another layout.
  Tensor clone(std::optional<MemoryFormat> memory_format = std::nullopt) const;
  Tensor detach() const;

  // ---- random fills in place and memory formats (LibTorch's)
  // The fills draw from ember's generator (manual_seed reproduces them) on any device, and
  // accept any dtype LibTorch's do. uniform_: U[from, to); normal_: N(mean, std^2) (floating
  // dtypes); bernoulli_: 1 with probability p (a number, or a tensor broadcast to this one's
  // shape), else 0; random_: integers in [from, to), to defaulting to the dtype's largest value
  // + 1 (2^mantissa + 1 for floating dtypes, as LibTorch).
  Tensor& uniform_(double from = 0, double to = 1) const;
  Tensor& normal_(double mean = 0, double std = 1) const;
  Tensor& bernoulli_(double p = 0.5) const;
  Tensor& bernoulli_(const Tensor& p) const;
  Tensor bernoulli() const;  // 1 with probability this tensor's values, elementwise
  Tensor bernoulli(double p) const;
  Tensor& random_(int64_t from, std::optional<int64_t> to) const;
  Tensor& random_(int64_t to) const;
  Tensor& random_() const;
  // Whether the strides are those memory_format gives this shape (is_contiguous() for
  // Contiguous; the channels-last formats hold only for 4-d and 5-d tensors).
  bool is_contiguous(MemoryFormat memory_format) const;

  // ---- views (share storage)
  Tensor view(IntArrayRef shape) const;
  Tensor reshape(IntArrayRef shape) const;
  Tensor view_as(const Tensor& other) const { return view(other.sizes()); }
  Tensor reshape_as(const Tensor& other) const { return reshape(other.sizes()); }
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  Tensor t() const;
  Tensor permute(IntArrayRef dims) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t dim) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor expand(IntArrayRef shape) const;
  Tensor expand_as(const Tensor& other) const { return expand(other.sizes()); }
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor select(int64_t dim, int64_t index) const;
  Tensor slice(int64_t dim, std::optional<int64_t> start = std::nullopt,
               std::optional<int64_t> end = std::nullopt, int64_t step = 1) const;
  Tensor operator[](int64_t index) const { return select(0, index); }
  // x.index({1, Slice(0, 2), None, Ellipsis}) as in LibTorch / Python's x[1, 0:2, None, ...].
  // One index may be a tensor: a bool mask (x[mask], a copy of the selected elements, waiting
  // for their count on a GPU) or integers (x[:, idx], a copy of the selected rows).
  Tensor index(std::initializer_list<TensorIndex> indices) const;
  // x.index_put_({mask}, 0) as LibTorch / Python's x[mask] = 0: writes `value` (the same dtype,
  // broadcast to the shape index() would return) into the elements index() would select. Where
  // an integer index repeats a position, one of its values lands there, as in PyTorch.
  Tensor& index_put_(std::initializer_list<TensorIndex> indices, const Tensor& value);
  Tensor& index_put_(std::initializer_list<TensorIndex> indices, Scalar value);

  // ---- the elementwise ops as methods: every name of ember/elementwise_names.h, each with its
  // in-place form. In-place methods are const, as LibTorch's: they write the data, not the
  // handle, so `for (const auto& p : params) p.grad().zero_()` works.
#define EMBER_UNARY_METHODS(name) \
  Tensor name() const;            \
  Tensor& name##_() const;
  EMBER_PUBLIC_UNARY_OPS(EMBER_UNARY_METHODS)
#undef EMBER_UNARY_METHODS
#define EMBER_BINARY_METHODS(name, Other, ALPHA) \
  Tensor name(const Other& other ALPHA) const;   \
  Tensor& name##_(const Other& other ALPHA) const;
#define EMBER_NO_ALPHA
#define EMBER_ALPHA , const Scalar& alpha = 1
#define EMBER_BINARY_TENSOR_METHODS(name) EMBER_BINARY_METHODS(name, Tensor, EMBER_NO_ALPHA)
#define EMBER_BINARY_SCALAR_METHODS(name) \
  EMBER_BINARY_TENSOR_METHODS(name) EMBER_BINARY_METHODS(name, Scalar, EMBER_NO_ALPHA)
#define EMBER_BINARY_ALPHA_METHODS(name) \
  EMBER_BINARY_METHODS(name, Tensor, EMBER_ALPHA) EMBER_BINARY_METHODS(name, Scalar, EMBER_ALPHA)
  EMBER_PUBLIC_BINARY_ALPHA_OPS(EMBER_BINARY_ALPHA_METHODS)
  EMBER_PUBLIC_BINARY_SCALAR_OPS(EMBER_BINARY_SCALAR_METHODS)
  EMBER_PUBLIC_BINARY_TENSOR_OPS(EMBER_BINARY_TENSOR_METHODS)
#undef EMBER_BINARY_ALPHA_METHODS
#undef EMBER_BINARY_SCALAR_METHODS
#undef EMBER_BINARY_TENSOR_METHODS
#undef EMBER_ALPHA
#undef EMBER_NO_ALPHA
#undef EMBER_BINARY_METHODS
  Tensor pow(const Scalar& exponent) const;
  Tensor& pow_(const Scalar& exponent) const;
  Tensor clamp(const std::optional<Scalar>& min,
               const std::optional<Scalar>& max = std::nullopt) const;
  Tensor& clamp_(const std::optional<Scalar>& min,
                 const std::optional<Scalar>& max = std::nullopt) const;
  Tensor& fill_(const Scalar& value) const;
  Tensor& zero_() const;
  Tensor& masked_fill_(const Tensor& mask, const Scalar& value) const;

  // ---- operators: -x and ~x (bitwise_not, `not` on bool), and the compound assignments, as
  // LibTorch's members, so that x[0] += 1 writes into x. <<= and >>= shift (ember additions).
  Tensor operator-() const;
  Tensor operator~() const;
#define EMBER_COMPOUND_OPERATOR(op)         \
  Tensor& operator op(const Tensor& other); \
  Tensor& operator op(const Scalar& other);
  EMBER_COMPOUND_OPERATOR(+=)
  EMBER_COMPOUND_OPERATOR(-=)
  EMBER_COMPOUND_OPERATOR(*=)
  EMBER_COMPOUND_OPERATOR(/=)
  EMBER_COMPOUND_OPERATOR(&=)
  EMBER_COMPOUND_OPERATOR(|=)
  EMBER_COMPOUND_OPERATOR(^=)
  EMBER_COMPOUND_OPERATOR(<<=)
  EMBER_COMPOUND_OPERATOR(>>=)
#undef EMBER_COMPOUND_OPERATOR

  Tensor sum(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor sum(IntArrayRef dims, bool keepdim = false,
             std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor mean() const;
  Tensor mean(IntArrayRef dims, bool keepdim = false) const;
  Tensor max() const;
  Tensor min() const;
  Tensor argmax(std::optional<int64_t> dim = std::nullopt, bool keepdim = false) const;
  Tensor argmin(std::optional<int64_t> dim = std::nullopt, bool keepdim = false) const;
  Tensor all() const;
  Tensor any() const;
  Tensor norm(double p = 2.0) const;

  Tensor matmul(const Tensor& other) const;
  Tensor mm(const Tensor& other) const;
  Tensor softmax(int64_t dim) const;
  Tensor log_softmax(int64_t dim) const;
  Tensor masked_fill(const Tensor& mask, Scalar value) const;
  Tensor masked_select(const Tensor& mask) const;
  Tensor nonzero() const;
  Tensor flip(IntArrayRef dims) const;
  Tensor repeat(IntArrayRef repeats) const;
  Tensor tril(int64_t diagonal = 0) const;
  Tensor triu(int64_t diagonal = 0) const;

  // A string as std::cout << tensor prints it (PyTorch's repr).
  std::string str() const;

 private:
  void* typed_host_ptr(ScalarType requested) const;
  void* contiguous_host_ptr(ScalarType requested) const;

  friend struct detail::TensorImplAccess;
  std::shared_ptr<detail::TensorImpl> impl_;
};

EMBER_API std::ostream& operator<<(std::ostream& os, const Tensor& t);

// ---- indexing helpers for Tensor::index
struct NoneIndex {};
struct EllipsisIndex {};
inline constexpr NoneIndex None{};
inline constexpr EllipsisIndex Ellipsis{};

// A bound of a Slice: a number, or None / std::nullopt for the start or end of the dim, so that
// LibTorch's Slice(None, 2) reads the same here.
struct SliceBound {
  std::optional<int64_t> value;
  SliceBound(std::nullopt_t = std::nullopt) {}  // NOLINT
  SliceBound(NoneIndex) {}                      // NOLINT
  template <std::integral T>
  requires(!std::same_as<T, bool>) SliceBound(T v)
      : value(static_cast<int64_t>(v)) {}  // NOLINT: any integer, size_t too
  template <std::integral T>
  SliceBound(std::optional<T> v) {  // NOLINT
    if (v) value = static_cast<int64_t>(*v);
  }
};
struct Slice {
  std::optional<int64_t> start, stop;
  int64_t step = 1;
  Slice(SliceBound start_ = {}, SliceBound stop_ = {}, int64_t step_ = 1)
      : start(start_.value), stop(stop_.value), step(step_) {}
};

class TensorIndex {
 public:
  enum class Kind : uint8_t { Integer, Slice, None, Ellipsis, Tensor };
  TensorIndex(int64_t i) : kind_(Kind::Integer), integer_(i) {}                 // NOLINT
  TensorIndex(int i) : kind_(Kind::Integer), integer_(i) {}                     // NOLINT
  TensorIndex(Slice s) : kind_(Kind::Slice), slice_(s) {}                       // NOLINT
  TensorIndex(NoneIndex) : kind_(Kind::None) {}                                 // NOLINT
  TensorIndex(EllipsisIndex) : kind_(Kind::Ellipsis) {}                         // NOLINT
  TensorIndex(ember::Tensor t) : kind_(Kind::Tensor), tensor_(std::move(t)) {}  // NOLINT
  Kind kind() const { return kind_; }
  int64_t integer() const { return integer_; }
  const Slice& slice() const { return slice_; }
  const ember::Tensor& tensor() const { return tensor_; }

 private:
  Kind kind_;
  int64_t integer_ = 0;
  Slice slice_;
  ember::Tensor tensor_;
};

}  // namespace ember
