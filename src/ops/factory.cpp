// Factories: literals, constant fills, ranges, eye, random draws and from_blob.
#include <atomic>
#include <cmath>

#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "kernels/elementwise_stubs.h"
#include "ops/promotion.h"

namespace ember {
namespace {

Tensor empty_tensor(IntArrayRef shape, ScalarType dtype, Device device) {
  return Tensor(detail::empty_impl(shape, dtype, device));
}

Tensor finish(Tensor t, const TensorOptions& options) {
  if (options.requires_grad()) t.requires_grad_(true);
  return t;
}

// The generator state: a seed and how many counters earlier draws used. Philox makes element i
// of a draw depend only on (seed, offset + i), so CPU results are the same for any thread count.
struct Generator {
  std::atomic<uint64_t> seed{67280421310721ull};
  std::atomic<uint64_t> offset{0};
};
Generator& generator() {
  static Generator g;
  return g;
}

Tensor random(IntArrayRef shape, const TensorOptions& options, kernels::RandomKind kind, double a,
              double b) {
  Tensor t = empty_tensor(shape, options.dtype().toScalarType(), options.device());
  uint64_t n = static_cast<uint64_t>(t.numel());
  uint64_t offset = generator().offset.fetch_add(n);
  kernels::random_stub(t.device().type(), t, kind, a, b, generator().seed.load(), offset);
  return finish(t, options);
}

}  // namespace

NestedList::NestedList(std::initializer_list<NestedList> children) {
  shape_.push_back(static_cast<int64_t>(children.size()));
  const NestedList* first = children.size() ? children.begin() : nullptr;
  for (const NestedList& c : children) {
    EMBER_CHECK_T(ValueError, c.shape_ == first->shape_,
                  "[tensor] expected a rectangular nested list: found sub-lists of shapes ",
                  IntArrayRef(first->shape_), " and ", IntArrayRef(c.shape_));
    scalars_.insert(scalars_.end(), c.scalars_.begin(), c.scalars_.end());
  }
  if (first) shape_.insert(shape_.end(), first->shape_.begin(), first->shape_.end());
}

Tensor tensor(NestedList values, TensorOptions options) {
  ScalarType inferred = kBool;
  bool any_int = false, any_float = false;
  for (const Scalar& s : values.scalars()) {
    any_int = any_int || s.isIntegral(false);
    any_float = any_float || s.isFloatingPoint();
  }
  if (any_float) inferred = kFloat32;
  else if (any_int) inferred = kInt64;
  else if (values.scalars().empty()) inferred = kFloat32;
  ScalarType dtype = options.has_dtype() ? options.dtype().toScalarType() : inferred;
  // A bare scalar (tensor(3.5)) is 0-dim; a list gives its shape. Values are gathered exactly
  // (int64 or float64) and converted once.
  IntArrayRef shape = values.shape().empty() ? IntArrayRef() : IntArrayRef(values.shape());
  Tensor t;
  if (any_float) {
    std::vector<double> buf;
    for (const Scalar& s : values.scalars()) buf.push_back(s.toDouble());
    t = from_blob(buf.data(), shape, kFloat64).to(options.device(), dtype, false, true);
  } else {
    std::vector<int64_t> buf;
    for (const Scalar& s : values.scalars()) buf.push_back(s.toLong());
    t = from_blob(buf.data(), shape, kInt64).to(options.device(), dtype, false, true);
  }
  return finish(t, options);
}

Tensor scalar_tensor(Scalar value, TensorOptions options) {
  ScalarType dtype = options.has_dtype()       ? options.dtype().toScalarType()
                     : value.isFloatingPoint() ? kFloat32
                     : value.isBoolean()       ? kBool
                                               : kInt64;
  ops::check_fits("scalar_tensor", value, dtype);
  return finish(ops::scalar_to_tensor(value, dtype, options.device()), options);
}

Tensor empty(IntArrayRef shape, TensorOptions options) {
  return finish(empty_tensor(shape, options.dtype().toScalarType(), options.device()), options);
}
Tensor zeros(IntArrayRef shape, TensorOptions options) {
  return full(shape, 0, options.dtype(options.dtype().toScalarType()));
}
Tensor ones(IntArrayRef shape, TensorOptions options) {
  return full(shape, 1, options.dtype(options.dtype().toScalarType()));
}

Tensor full(IntArrayRef shape, Scalar value, TensorOptions options) {
  ScalarType dtype = options.has_dtype()       ? options.dtype().toScalarType()
                     : value.isFloatingPoint() ? kFloat32
                     : value.isBoolean()       ? kBool
                                               : kInt64;
  Tensor t = empty_tensor(shape, dtype, options.device());
  t.fill_(value);
  return finish(t, options);
}

Tensor arange(Scalar end, TensorOptions options) { return arange(0, end, 1, options); }

Tensor arange(Scalar start, Scalar end, Scalar step, TensorOptions options) {
  bool all_int = !start.isFloatingPoint() && !end.isFloatingPoint() && !step.isFloatingPoint();
  ScalarType dtype = options.has_dtype() ? options.dtype().toScalarType()
                     : all_int           ? kInt64
                                         : kFloat32;
  double s = start.toDouble(), e = end.toDouble(), st = step.toDouble();
  EMBER_CHECK_T(ValueError, st != 0, "[arange] step must be nonzero");
  EMBER_CHECK_T(ValueError, (st > 0 && e >= s) || (st < 0 && e <= s),
                "[arange] upper bound and larger bound inconsistent with step sign");
  int64_t n = static_cast<int64_t>(std::ceil((e - s) / st));
  if (all_int && !options.has_dtype()) {  // exact int64 values, no float64 round trip
    Tensor r = empty_tensor({n}, kInt64, Device::cpu());
    int64_t* q = r.data_ptr<int64_t>();
    for (int64_t i = 0; i < n; ++i) q[i] = start.toLong() + step.toLong() * i;
    return finish(r.to(options.device()), options);
  }
  Tensor idx = empty_tensor({n}, kFloat64, Device::cpu());
  double* p = idx.data_ptr<double>();
  for (int64_t i = 0; i < n; ++i) p[i] = s + st * static_cast<double>(i);
  return finish(idx.to(options.device(), dtype), options);
}

Tensor linspace(Scalar start, Scalar end, int64_t steps, TensorOptions options) {
  EMBER_CHECK_T(ValueError, steps >= 0, "[linspace] number of steps must be non-negative");
  ScalarType dtype = options.has_dtype() ? options.dtype().toScalarType() : kFloat32;
  Tensor r = empty_tensor({steps}, kFloat64, Device::cpu());
  double* p = r.data_ptr<double>();
  double s = start.toDouble(), e = end.toDouble();
  double step = steps > 1 ? (e - s) / static_cast<double>(steps - 1) : 0.0;
  // Symmetric evaluation from both ends, as PyTorch's kernel, so the last value is exactly `end`.
  // One step is `start` (PyTorch); the loop alone would give `end`.
  int64_t half = steps == 1 ? 1 : steps / 2;
  for (int64_t i = 0; i < steps; ++i)
    p[i] = i < half ? s + step * static_cast<double>(i)
                    : e - step * static_cast<double>(steps - 1 - i);
  return finish(r.to(options.device(), dtype), options);
}

Tensor eye(int64_t n, TensorOptions options) { return eye(n, n, options); }
Tensor eye(int64_t n, int64_t m, TensorOptions options) {
  EMBER_CHECK_T(ValueError, n >= 0 && m >= 0, "[eye] n and m must be non-negative, got ", n,
                " and ", m);
  Tensor t = zeros({n, m}, options.dtype(options.dtype().toScalarType()).requires_grad(false));
  int64_t k = n < m ? n : m;
  if (k > 0)
    Tensor(detail::view_impl(*detail::impl_of(t), {k}, {m + 1}, 0)).fill_(1);  // the diagonal
  return finish(t, options);
}

void manual_seed(uint64_t seed) {
  generator().seed = seed;
  generator().offset = 0;
}

Tensor rand(IntArrayRef shape, TensorOptions options) {
  EMBER_CHECK_T(TypeError, isFloatingType(options.dtype().toScalarType()),
                "[rand] expected a floating dtype, got ", options.dtype().toScalarType());
  return random(shape, options, kernels::RandomKind::Uniform, 0.0, 1.0);
}
Tensor randn(IntArrayRef shape, TensorOptions options) {
  EMBER_CHECK_T(TypeError, isFloatingType(options.dtype().toScalarType()),
                "[randn] expected a floating dtype, got ", options.dtype().toScalarType());
  return random(shape, options, kernels::RandomKind::Normal, 0.0, 1.0);
}
Tensor randint(int64_t low, int64_t high, IntArrayRef shape, TensorOptions options) {
  EMBER_CHECK_T(ValueError, low < high,
                "[randint] random_ expects 'from' to be less than 'to', but got from=", low,
                " >= to=", high);
  if (!options.has_dtype()) options = options.dtype(kInt64);
  return random(shape, options, kernels::RandomKind::Integer, static_cast<double>(low),
                static_cast<double>(high));
}
Tensor randint(int64_t high, IntArrayRef shape, TensorOptions options) {
  return randint(0, high, shape, options);
}

namespace {
TensorOptions like_options(const Tensor& like, const TensorOptions& options) {
  TensorOptions o =
      TensorOptions(options.has_dtype() ? options.dtype().toScalarType() : like.scalar_type())
          .device(options.has_device() ? options.device() : like.device());
  return o.requires_grad(options.requires_grad());
}
}  // namespace

Tensor empty_like(const Tensor& like, TensorOptions options) {
  return empty(like.sizes(), like_options(like, options));
}
Tensor zeros_like(const Tensor& like, TensorOptions options) {
  return zeros(like.sizes(), like_options(like, options));
}
Tensor ones_like(const Tensor& like, TensorOptions options) {
  return ones(like.sizes(), like_options(like, options));
}
Tensor full_like(const Tensor& like, Scalar value, TensorOptions options) {
  return full(like.sizes(), value, like_options(like, options));
}
Tensor rand_like(const Tensor& like, TensorOptions options) {
  return rand(like.sizes(), like_options(like, options));
}
Tensor randn_like(const Tensor& like, TensorOptions options) {
  return randn(like.sizes(), like_options(like, options));
}

Tensor from_blob(void* data, IntArrayRef shape, TensorOptions options,
                 std::function<void(void*)> deleter) {
  detail::checked_numel(shape, "from_blob");
  int64_t strides[detail::kMaxDims];
  int64_t s = 1;
  for (int64_t i = static_cast<int64_t>(shape.size()) - 1; i >= 0; --i) {
    strides[i] = s;
    s *= std::max<int64_t>(shape[i], 1);
  }
  return from_blob(data, shape, IntArrayRef(strides, shape.size()), options, std::move(deleter));
}

Tensor from_blob(void* data, IntArrayRef shape, IntArrayRef strides, TensorOptions options,
                 std::function<void(void*)> deleter) {
  EMBER_CHECK_T(ValueError, !options.device().is_cuda(),
                "[from_blob] can't wrap external memory as a ", options.device(),
                " tensor: ember only uses GPU memory it allocated itself. Wrap the buffer on the "
                "CPU and move it with .to(",
                options.device(), ")");
  EMBER_CHECK_T(ValueError, shape.size() == strides.size(), "[from_blob] shape ", shape,
                " and strides ", strides, " must have the same length");
  int64_t numel = detail::checked_numel(shape, "from_blob");
  int64_t extent = 1;  // elements reachable: 1 + sum((size-1)*stride)
  for (size_t i = 0; i < shape.size(); ++i) {
    EMBER_CHECK_T(ValueError, strides[i] >= 0,
                  "[from_blob] negative strides are not supported, got ", strides);
    int64_t reach = 0;
    bool overflow = shape[i] > 0 && (__builtin_mul_overflow(shape[i] - 1, strides[i], &reach) ||
                                     __builtin_add_overflow(extent, reach, &extent));
    EMBER_CHECK_T(ValueError, !overflow && extent <= detail::kMaxSpan, "[from_blob] shape ", shape,
                  " with strides ", strides,
                  " reaches too far: ember views span at most 2^59 elements");
  }
  EMBER_CHECK_T(ValueError, data != nullptr || numel == 0, "[from_blob] data is a null pointer");
  ScalarType dtype = options.dtype().toScalarType();
  auto storage = std::make_shared<detail::StorageImpl>(
      data, numel ? static_cast<size_t>(extent) * elementSize(dtype) : 0, Device::cpu(), nullptr);
  storage->deleter = std::move(deleter);
  auto impl = std::make_shared<detail::TensorImpl>();
  impl->storage = std::move(storage);
  impl->dtype = dtype;
  impl->set_geometry(shape, strides);
  return finish(Tensor(std::move(impl)), options);
}

}  // namespace ember
