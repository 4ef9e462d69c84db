// Tensor: a shared handle to an n-dimensional array on a device, with PyTorch's semantics.
#pragma once

#include <concepts>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "ember/array_ref.h"
#include "ember/device.h"
#include "ember/dtype.h"
#include "ember/elementwise_names.h"
#include "ember/list.h"
#include "ember/macros.h"
#include "ember/memory_format.h"
#include "ember/scalar.h"
#include "ember/tensor_accessor.h"
#include "ember/tensor_options.h"

namespace ember {

namespace detail {
struct TensorImpl;
struct TensorImplAccess;  // how ember's own code reaches the impl (src/core/tensor_impl.h)
}  // namespace detail
namespace autograd {
class Node;
}

namespace indexing {
class TensorIndex;
}
class Stream;

class Tensor;
// A list of tensors as ops take it (cat, stack): a std::vector or a braced list converts.
using TensorList = ArrayRef<Tensor>;

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
  const Tensor& set_requires_grad(bool requires_grad) const {
    return requires_grad_(requires_grad);
  }

  // ---- LibTorch's other metadata, conversions and in-place shapes
  int64_t ndimension() const { return dim(); }
  Layout layout() const { return kStrided; }  // ember's tensors are all strided
  bool is_signed() const { return ember::isSignedType(scalar_type()); }
  bool is_same_size(const Tensor& other) const { return sizes() == other.sizes(); }
  std::string toString() const;  // LibTorch's type name: "CPUFloatType", "CUDALongType"
  Tensor toType(ScalarType type) const;
  Tensor type_as(const Tensor& other) const;  // to other's dtype (and device, as LibTorch)
  void reset() { impl_.reset(); }             // makes this handle undefined
  // Element access to a CPU tensor of N dims through its strides: a[1][2] = 5 writes into it.
  template <class T, size_t N>
  TensorAccessor<T, N> accessor() const& {
    return TensorAccessor<T, N>(static_cast<T*>(accessor_data(CppTypeToScalarType<T>::value, N)),
                                sizes().data(), strides().data());
  }
  template <class T, size_t N>
  TensorAccessor<T, N> accessor() && = delete;  // the accessor would outlive the tensor
  // New sizes, contiguous strides; the storage grows when it must, keeping its elements (the new
  // ones are uninitialised). Not for tensors that require grad.
  const Tensor& resize_(IntArrayRef size,
                        std::optional<MemoryFormat> memory_format = std::nullopt) const;
  // The view ops in place: this handle (and every copy of it) takes the view's geometry.
  const Tensor& t_() const;
  const Tensor& transpose_(int64_t dim0, int64_t dim1) const;
  const Tensor& squeeze_() const;
  const Tensor& squeeze_(int64_t dim) const;
  const Tensor& unsqueeze_(int64_t dim) const;

  // ---- autograd (more in autograd.h)
  // The gradient a backward pass accumulated into this leaf; undefined until one has.
  const Tensor& grad() const;
  Tensor& mutable_grad() const;  // to reset it: t.mutable_grad() = Tensor()
  // Accumulates d(this)/d(leaf) into every leaf's grad() (only the `inputs`' when given);
  // `gradient` may be omitted for a one-element tensor. retain_graph (default: create_graph)
  // keeps the graph's saved tensors; create_graph records the backward pass for a higher-order
  // gradient (autograd::backward).
  void backward(const Tensor& gradient = Tensor(), std::optional<bool> retain_graph = std::nullopt,
                bool create_graph = false, std::optional<TensorList> inputs = std::nullopt) const;
  void retain_grad() const;  // a non-leaf keeps its grad() too
  // Calls `hook(grad)` with this tensor's gradient whenever backward computes it, before it is
  // used; a hook that returns a Tensor replaces the gradient. Returns a handle for remove_hook.
  template <class Hook>
  unsigned register_hook(Hook&& hook) const {
    if constexpr (std::is_void_v<std::invoke_result_t<Hook&, Tensor>>) {
      return add_hook([h = std::forward<Hook>(hook)](const Tensor& grad) mutable {
        h(grad);
        return Tensor();
      });
    } else {
      return add_hook(std::forward<Hook>(hook));
    }
  }
  void remove_hook(unsigned handle) const;
  bool retains_grad() const;
  bool is_inference() const;  // made under InferenceMode (autograd.h)
  bool is_leaf() const;       // no grad_fn: created by the user, or by ops not recording
  std::shared_ptr<autograd::Node> grad_fn() const;  // the op that made it, e.g. AddmmBackward0
  int64_t output_nr() const;                        // which output of grad_fn this is
  // Bumped by every in-place write to the storage; autograd uses it to detect a saved tensor
  // that was modified before backward.
  uint32_t version() const;
  int64_t _version() const { return version(); }  // LibTorch's spelling
  // A view (of a view op) and the tensor it views: the first in the chain that is not a view.
  // _base() of a tensor that is not a view throws.
  bool is_view() const;
  Tensor _base() const;
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
  // The values without the history, sharing memory: detach() (see README for the difference).
  Tensor data() const { return detach(); }

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
  // Splits dim (may be negative) into sizes, one of which may be -1 (inferred); a view.
  Tensor unflatten(int64_t dim, IntArrayRef sizes) const;
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
  // ---- as_strided
  // The elements of this tensor's storage at `size` and `stride` from `storage_offset` (this
  // tensor's own when not given), as LibTorch's: strides and offset count from the storage's
  // start, not from this tensor's first element.
  Tensor as_strided(IntArrayRef size, IntArrayRef stride,
                    std::optional<int64_t> storage_offset = std::nullopt) const;
  // x[i] as LibTorch: select(0, i); i may be an integral Scalar or a 0-dim integer tensor (read
  // on the host, a wait on a GPU).
  Tensor operator[](int64_t index) const { return select(0, index); }
  Tensor operator[](const Scalar& index) const;
  Tensor operator[](const Tensor& index) const;
  // x.index({1, Slice(0, 2), None, "...", mask}) as LibTorch / Python's x[1, 0:2, None, ..., mask]
  // (include/ember/indexing.h). Integers, slices, None and "..." give a view; tensor indices
  // (integers or bool masks, several broadcast together, Python's advanced indexing) a copy of
  // the selected elements (a mask waits for its count on a GPU).
  Tensor index(std::initializer_list<indexing::TensorIndex> indices) const;
  Tensor index(std::span<const indexing::TensorIndex> indices) const;
  // x.index({rows, cols}) with tensor indices only; an empty optional is Python's `:`.
  Tensor index(const List<std::optional<Tensor>>& indices) const;
  // x.index_put_({mask}, 0) as LibTorch / Python's x[mask] = 0: writes `value` (the same dtype
  // through a tensor index, broadcast to the shape index() would return) into the elements
  // index() would select, in place: the time grows with the selection. Where a position repeats,
  // one of its values lands, as in PyTorch; with accumulate (the List form) they all add up.
  Tensor& index_put_(std::initializer_list<indexing::TensorIndex> indices, const Tensor& value);
  Tensor& index_put_(std::initializer_list<indexing::TensorIndex> indices, const Scalar& value);
  Tensor& index_put_(std::span<const indexing::TensorIndex> indices, const Tensor& value);
  Tensor& index_put_(std::span<const indexing::TensorIndex> indices, const Scalar& value);
  Tensor& index_put_(const List<std::optional<Tensor>>& indices, const Tensor& values,
                     bool accumulate = false) const;
  Tensor index_put(const List<std::optional<Tensor>>& indices, const Tensor& values,
                   bool accumulate = false) const;

  // ---- the elementwise ops as methods: every name of ember/elementwise_names.h, each with its
  // in-place form. In-place methods are const, as LibTorch's: they write the data, not the
  // handle, so `for (const auto& p : params) p.grad().zero_()` works.
#define EMBER_UNARY_METHODS(name) \
  Tensor name() const;            \
  Tensor& name##_() const;
  EMBER_PUBLIC_UNARY_OPS(EMBER_UNARY_METHODS)
#undef EMBER_UNARY_METHODS
#define EMBER_PARAMETRIC_UNARY_METHODS(name, ...) \
  Tensor name(__VA_ARGS__) const;                 \
  Tensor& name##_(__VA_ARGS__) const;
  EMBER_PUBLIC_PARAMETRIC_UNARY_OPS(EMBER_PARAMETRIC_UNARY_METHODS)
#undef EMBER_PARAMETRIC_UNARY_METHODS
  Tensor prelu(const Tensor& weight) const;
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
  // Bounds as tensors broadcast with this one (and promote, as maximum/minimum do).
  Tensor clamp(const std::optional<Tensor>& min = {}, const std::optional<Tensor>& max = {}) const;
  Tensor& clamp_(const std::optional<Tensor>& min = {},
                 const std::optional<Tensor>& max = {}) const;
  Tensor clamp_min(const Scalar& min) const;
  Tensor clamp_min(const Tensor& min) const;
  Tensor clamp_max(const Scalar& max) const;
  Tensor clamp_max(const Tensor& max) const;
  Tensor& clamp_min_(const Scalar& min) const;
  Tensor& clamp_min_(const Tensor& min) const;
  Tensor& clamp_max_(const Scalar& max) const;
  Tensor& clamp_max_(const Tensor& max) const;
  Tensor& fill_(const Scalar& value) const;
  Tensor& zero_() const;
  Tensor& masked_fill_(const Tensor& mask, const Scalar& value) const;
  // Fills the slices at `index` (int64) along `dim`.
  Tensor index_fill(int64_t dim, const Tensor& index, const Scalar& value) const;
  Tensor& index_fill_(int64_t dim, const Tensor& index, const Scalar& value) const;

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
  // LibTorch's spellings of the shifts: x.__lshift__(2) is x.bitwise_left_shift(2).
  Tensor __lshift__(const Scalar& other) const { return bitwise_left_shift(other); }
  Tensor __lshift__(const Tensor& other) const { return bitwise_left_shift(other); }
  Tensor __rshift__(const Scalar& other) const { return bitwise_right_shift(other); }
  Tensor __rshift__(const Tensor& other) const { return bitwise_right_shift(other); }
  Tensor& __ilshift__(const Scalar& other) const { return bitwise_left_shift_(other); }
  Tensor& __ilshift__(const Tensor& other) const { return bitwise_left_shift_(other); }
  Tensor& __irshift__(const Scalar& other) const { return bitwise_right_shift_(other); }
  Tensor& __irshift__(const Tensor& other) const { return bitwise_right_shift_(other); }

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

  // ---- reductions, scans, sorting and selection (LibTorch's methods)
  // Along one dim: (values, indices), the first index among ties. With a tensor: elementwise,
  // as maximum and minimum.
  std::tuple<Tensor, Tensor> max(int64_t dim, bool keepdim = false) const;
  std::tuple<Tensor, Tensor> min(int64_t dim, bool keepdim = false) const;
  Tensor max(const Tensor& other) const;
  Tensor min(const Tensor& other) const;
  Tensor amax(IntArrayRef dim = {}, bool keepdim = false) const;
  Tensor amin(IntArrayRef dim = {}, bool keepdim = false) const;
  Tensor all(int64_t dim, bool keepdim = false) const;
  Tensor any(int64_t dim, bool keepdim = false) const;
  // Bessel-corrected unless `unbiased` is false; `correction` (PyTorch 2's Scalar) divides by
  // N - correction. Empty `dim` means every dim. As in LibTorch, x.std(0) and x.var(1) reduce
  // over that dim (an int), while x.var(true) or x.var(false) reduce everything.
  Tensor std(bool unbiased = true) const;
  Tensor std(IntArrayRef dim, bool unbiased = true, bool keepdim = false) const;
  Tensor std(IntArrayRef dim, const std::optional<Scalar>& correction, bool keepdim = false) const;
  Tensor std(int dim) const;
  Tensor var(bool unbiased = true) const;
  Tensor var(IntArrayRef dim, bool unbiased = true, bool keepdim = false) const;
  Tensor var(IntArrayRef dim, const std::optional<Scalar>& correction, bool keepdim = false) const;
  Tensor var(int dim) const;
  Tensor prod(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor prod(int64_t dim, bool keepdim = false,
              std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor cumsum(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor& cumsum_(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor cumprod(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor& cumprod_(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  // Sorting is always stable; the `stable` forms exist for LibTorch's signatures.
  std::tuple<Tensor, Tensor> sort(int64_t dim = -1, bool descending = false) const;
  std::tuple<Tensor, Tensor> sort(std::optional<bool> stable, int64_t dim = -1,
                                  bool descending = false) const;
  Tensor argsort(int64_t dim = -1, bool descending = false) const;
  Tensor argsort(bool stable, int64_t dim = -1, bool descending = false) const;
  std::tuple<Tensor, Tensor> topk(int64_t k, int64_t dim = -1, bool largest = true,
                                  bool sorted = true) const;
  Tensor bmm(const Tensor& mat2) const;
  Tensor mv(const Tensor& vec) const;
  Tensor dot(const Tensor& tensor) const;
  Tensor index_select(int64_t dim, const Tensor& index) const;
  Tensor gather(int64_t dim, const Tensor& index, bool sparse_grad = false) const;
  Tensor scatter(int64_t dim, const Tensor& index, const Tensor& src) const;
  Tensor scatter(int64_t dim, const Tensor& index, const Scalar& value) const;
  Tensor& scatter_(int64_t dim, const Tensor& index, const Tensor& src) const;
  Tensor& scatter_(int64_t dim, const Tensor& index, const Scalar& value) const;
  Tensor scatter_add(int64_t dim, const Tensor& index, const Tensor& src) const;
  Tensor& scatter_add_(int64_t dim, const Tensor& index, const Tensor& src) const;
  std::vector<Tensor> split(int64_t split_size, int64_t dim = 0) const;
  std::vector<Tensor> split(IntArrayRef split_size, int64_t dim = 0) const;
  std::vector<Tensor> split_with_sizes(IntArrayRef split_sizes, int64_t dim = 0) const;
  std::vector<Tensor> chunk(int64_t chunks, int64_t dim = 0) const;
  std::vector<Tensor> unbind(int64_t dim = 0) const;
  // This tensor where `condition` holds, `other` elsewhere.
  Tensor where(const Tensor& condition, const Tensor& other) const;
  bool equal(const Tensor& other) const;
  bool allclose(const Tensor& other, double rtol = 1e-05, double atol = 1e-08,
                bool equal_nan = false) const;
  Tensor isclose(const Tensor& other, double rtol = 1e-05, double atol = 1e-08,
                 bool equal_nan = false) const;

  // A string as std::cout << tensor prints it (PyTorch's repr).
  std::string str() const;

 private:
  unsigned add_hook(std::function<Tensor(const Tensor&)> hook) const;
  void* accessor_data(ScalarType requested, size_t dims) const;
  void* typed_host_ptr(ScalarType requested) const;
  void* contiguous_host_ptr(ScalarType requested) const;

  friend struct detail::TensorImplAccess;
  std::shared_ptr<detail::TensorImpl> impl_;
};

EMBER_API std::ostream& operator<<(std::ostream& os, const Tensor& t);

}  // namespace ember

#include "ember/indexing.h"  // IWYU pragma: export (the items of Tensor::index hold Tensors)
