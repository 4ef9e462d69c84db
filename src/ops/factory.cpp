// Factories: literals, constant fills, ranges, eye, random draws, *_like and from_blob.
#include <cmath>
#include <utility>
#include <vector>

#include "core/check.h"
#include "core/stride_order.h"
#include "core/tensor_impl.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "kernels/elementwise_stubs.h"
#include "ops/promotion.h"
#include "ops/random_draw.h"

namespace ember {
namespace {

// Every factory's last step. A new tensor starts at version 0, as PyTorch's: the fill or the
// random draw that made its values is not a write users see (_version()).
Tensor finish(Tensor t, const TensorOptions& options) {
  detail::impl_of(t)->storage->version = 0;
  if (options.requires_grad()) t.requires_grad_(true);
  return t;
}

ScalarType dtype_of(const TensorOptions& options) { return options.dtype().toScalarType(); }

// The memory format a factory's options and its memory_format argument name (LibTorch refuses
// both at once), or `fallback`.
MemoryFormat format_of(const char* op, const TensorOptions& options,
                       std::optional<MemoryFormat> memory_format, MemoryFormat fallback) {
  EMBER_CHECK_T(ValueError, !(options.has_memory_format() && memory_format), "[", op,
                "] Cannot set memory_format both in TensorOptions and explicit argument; please "
                "delete the redundant setter.");
  return memory_format.value_or(options.memory_format_opt().value_or(fallback));
}

// What a value alone makes: Bool, Long, or the default dtype (LibTorch's infer_full_options).
ScalarType dtype_for(const Scalar& value) {
  return value.isBoolean()         ? kBool
         : value.isIntegral(false) ? kLong
                                   : get_default_dtype_as_scalartype();
}

// LibTorch's compute_desired_dtype: C++ int and int64_t make Long, float and double the default
// dtype, every other element type its own.
ScalarType desired_dtype(ScalarType element_type) {
  switch (element_type) {
    case kInt:
    case kLong: return kLong;
    case kFloat:
    case kDouble: return get_default_dtype_as_scalartype();
    case kBool:
    case kByte:
    case kChar:
    case kShort:
    case kHalf:
    case kBFloat16: return element_type;
  }
  return element_type;
}

Tensor random(IntArrayRef shape, const TensorOptions& options, kernels::RandomKind kind, double a,
              double b) {
  Tensor t(detail::empty_impl(shape, dtype_of(options), options.device()));
  ops::draw(t, kind, a, b);
  return finish(t, options);
}

// linspace's values, evaluated from both ends as PyTorch's kernel, so that the last one is
// exactly `end`; one step is `start`.
std::vector<double> linspace_values(double start, double end, int64_t steps, const char* op) {
  EMBER_CHECK_T(ValueError, steps >= 0, "[", op, "] number of steps must be non-negative");
  std::vector<double> values(static_cast<size_t>(steps));
  const double step = steps > 1 ? (end - start) / static_cast<double>(steps - 1) : 0.0;
  const int64_t half = steps == 1 ? 1 : steps / 2;
  for (int64_t i = 0; i < steps; ++i)
    values[i] = i < half ? start + step * static_cast<double>(i)
                         : end - step * static_cast<double>(steps - 1 - i);
  return values;
}

// A 1-d tensor of `values` converted to the options' dtype (the default dtype unless given).
Tensor from_doubles(std::vector<double> values, const TensorOptions& options) {
  return finish(from_blob(values.data(), {static_cast<int64_t>(values.size())}, kDouble)
                    .to(options.device(), dtype_of(options), false, true),
                options);
}

}  // namespace

NestedList::NestedList(std::initializer_list<NestedList> children) {
  shape_.push_back(static_cast<int64_t>(children.size()));
  const NestedList* first = children.size() ? children.begin() : nullptr;
  for (const NestedList& c : children) {
    EMBER_CHECK_T(ValueError, c.shape_ == first->shape_,
                  "[tensor] expected a rectangular nested list: found sub-lists of shapes ",
                  IntArrayRef(first->shape_), " and ", IntArrayRef(c.shape_));
    // LibTorch refuses mixed element types; ember promotes them, as Python's torch.tensor does
    // ({1, 2.5} is the default dtype), so that every list LibTorch accepts means the same.
    if (c.element_type_)
      element_type_ =
          element_type_ ? promoteTypes(*element_type_, *c.element_type_) : c.element_type_;
    scalars_.insert(scalars_.end(), c.scalars_.begin(), c.scalars_.end());
  }
  if (first) shape_.insert(shape_.end(), first->shape_.begin(), first->shape_.end());
}

Tensor tensor(NestedList values, TensorOptions options) {
  const ScalarType element_type = values.element_type().value_or(kFloat);
  const ScalarType dtype = options.has_dtype() ? dtype_of(options) : desired_dtype(element_type);
  // A bare scalar (tensor(3.5)) is 0-dim; a list gives its shape. Values are gathered exactly
  // (int64 or float64) and converted once.
  const IntArrayRef shape = values.shape().empty() ? IntArrayRef() : IntArrayRef(values.shape());
  Tensor t;
  if (isFloatingType(element_type)) {
    std::vector<double> buf;
    for (const Scalar& s : values.scalars()) buf.push_back(s.toDouble());
    t = from_blob(buf.data(), shape, kDouble).to(options.device(), dtype, false, true);
  } else {
    std::vector<int64_t> buf;
    for (const Scalar& s : values.scalars()) buf.push_back(s.toLong());
    t = from_blob(buf.data(), shape, kLong).to(options.device(), dtype, false, true);
  }
  return finish(t, options);
}

namespace detail {
Tensor tensor_from_elements(const void* data, int64_t count, ScalarType type,
                            const TensorOptions& options) {
  const ScalarType dtype = options.has_dtype() ? dtype_of(options) : desired_dtype(type);
  // from_blob only reads here: the copy (copy = true) owns its memory.
  const Tensor t =
      from_blob(const_cast<void*>(data), {count}, type).to(options.device(), dtype, false, true);
  return finish(t, options);
}
}  // namespace detail

Tensor scalar_tensor(Scalar value, TensorOptions options) {
  const ScalarType dtype = dtype_of(options);
  ops::check_fits("scalar_tensor", value, dtype);
  return finish(ops::scalar_to_tensor(value, dtype, options.device()), options);
}

Tensor empty(IntArrayRef size, TensorOptions options, std::optional<MemoryFormat> memory_format) {
  const MemoryFormat format = format_of("empty", options, memory_format, MemoryFormat::Contiguous);
  EMBER_CHECK_T(ValueError, format != MemoryFormat::Preserve,
                "[empty] Preserve memory format is unsupported: there is no tensor to preserve");
  return finish(Tensor(detail::empty_impl(size, dtype_of(options), options.device(), format)),
                options);
}
Tensor zeros(IntArrayRef size, TensorOptions options) {
  return full(size, 0, options.dtype(dtype_of(options)));
}
Tensor ones(IntArrayRef size, TensorOptions options) {
  return full(size, 1, options.dtype(dtype_of(options)));
}

Tensor full(IntArrayRef size, Scalar value, TensorOptions options) {
  if (!options.has_dtype()) options = options.dtype(dtype_for(value));
  Tensor t = empty(size, options.requires_grad(false));
  t.fill_(value);
  return finish(t, options);
}

Tensor empty_strided(IntArrayRef size, IntArrayRef stride, TensorOptions options) {
  return finish(
      Tensor(detail::empty_strided_impl(size, stride, dtype_of(options), options.device())),
      options);
}

Tensor arange(const Scalar& end, TensorOptions options) { return arange(0, end, 1, options); }
Tensor arange(const Scalar& start, const Scalar& end, TensorOptions options) {
  return arange(start, end, 1, options);
}
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, TensorOptions options) {
  const bool all_integers =
      start.isIntegral(false) && end.isIntegral(false) && step.isIntegral(false);
  if (!options.has_dtype())
    options = options.dtype(all_integers ? kLong : get_default_dtype_as_scalartype());
  const double s = start.toDouble(), e = end.toDouble(), st = step.toDouble();
  EMBER_CHECK_T(ValueError, st != 0, "[arange] step must be nonzero");
  EMBER_CHECK_T(ValueError, (st > 0 && e >= s) || (st < 0 && e <= s),
                "[arange] upper bound and larger bound inconsistent with step sign");
  const auto n = static_cast<int64_t>(std::ceil((e - s) / st));
  if (all_integers) {  // exact int64 values, no float64 round trip
    Tensor r(detail::empty_impl({n}, kLong, Device::cpu()));
    int64_t* q = r.data_ptr<int64_t>();
    for (int64_t i = 0; i < n; ++i) q[i] = start.toLong() + step.toLong() * i;
    return finish(r.to(options.device(), dtype_of(options)), options);
  }
  std::vector<double> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) values[i] = s + st * static_cast<double>(i);
  return from_doubles(std::move(values), options);
}

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, TensorOptions options) {
  return from_doubles(linspace_values(start.toDouble(), end.toDouble(), steps, "linspace"),
                      options);
}

Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base,
                TensorOptions options) {
  std::vector<double> values = linspace_values(start.toDouble(), end.toDouble(), steps, "logspace");
  for (double& v : values) v = std::pow(base, v);
  return from_doubles(std::move(values), options);
}

Tensor eye(int64_t n, TensorOptions options) { return eye(n, n, options); }
Tensor eye(int64_t n, int64_t m, TensorOptions options) {
  EMBER_CHECK_T(ValueError, n >= 0 && m >= 0, "[eye] n and m must be non-negative, got ", n,
                " and ", m);
  Tensor t = zeros({n, m}, options.dtype(dtype_of(options)).requires_grad(false));
  const int64_t k = n < m ? n : m;
  if (k > 0)
    Tensor(detail::view_impl(*detail::impl_of(t), {k}, {m + 1}, 0)).fill_(1);  // the diagonal
  return finish(t, options);
}

Tensor rand(IntArrayRef size, TensorOptions options) {
  EMBER_CHECK_T(TypeError, isFloatingType(dtype_of(options)),
                "[rand] expected a floating dtype, got ", dtype_of(options));
  return random(size, options, kernels::RandomKind::Uniform, 0.0, 1.0);
}
Tensor randn(IntArrayRef size, TensorOptions options) {
  EMBER_CHECK_T(TypeError, isFloatingType(dtype_of(options)),
                "[randn] expected a floating dtype, got ", dtype_of(options));
  return random(size, options, kernels::RandomKind::Normal, 0.0, 1.0);
}
Tensor randint(int64_t low, int64_t high, IntArrayRef size, TensorOptions options) {
  EMBER_CHECK_T(ValueError, low < high,
                "[randint] random_ expects 'from' to be less than 'to', but got from=", low,
                " >= to=", high);
  return random(size, options, kernels::RandomKind::Integer, static_cast<double>(low),
                static_cast<double>(high));
}
Tensor randint(int64_t high, IntArrayRef size, TensorOptions options) {
  return randint(0, high, size, options);
}

// Fisher-Yates on the host over one integer draw per element (as PyTorch's CPU randperm), then
// one copy to the options' device.
Tensor randperm(int64_t n, TensorOptions options) {
  EMBER_CHECK_T(ValueError, n >= 0, "[randperm] n must be non-negative, got ", n);
  const Tensor keys(detail::empty_impl({n}, kLong, Device::cpu()));
  ops::draw(keys, kernels::RandomKind::Integer, 0.0, 0x1p62);
  const int64_t* key = keys.data_ptr<int64_t>();
  Tensor perm(detail::empty_impl({n}, kLong, Device::cpu()));
  int64_t* p = perm.data_ptr<int64_t>();
  for (int64_t i = 0; i < n; ++i) p[i] = i;
  for (int64_t i = n - 1; i > 0; --i) std::swap(p[i], p[key[i] % (i + 1)]);
  // Long unless the options name a dtype: randperm's own default, not the default dtype.
  return finish(perm.to(options.device(), options.has_dtype() ? dtype_of(options) : kLong),
                options);
}

namespace {

// LibTorch's like-factory options: self's dtype and device unless the options name theirs.
TensorOptions like_options(const Tensor& self, const TensorOptions& options) {
  return self.options().merge_in(options).memory_format(std::nullopt);
}

// An uninitialised tensor like `self`, in the layout memory_format (or the options') asks for:
// Note [Preserved strides].
Tensor new_like(const char* op, const Tensor& self, const TensorOptions& options,
                std::optional<MemoryFormat> memory_format) {
  const MemoryFormat format = format_of(op, options, memory_format, MemoryFormat::Preserve);
  const TensorOptions o = like_options(self, options);
  return Tensor(detail::empty_like_impl(*detail::impl_of(self), dtype_of(o), o.device(), format));
}

}  // namespace

Tensor empty_like(const Tensor& self, TensorOptions options,
                  std::optional<MemoryFormat> memory_format) {
  return finish(new_like("empty_like", self, options, memory_format), options);
}
Tensor zeros_like(const Tensor& self, TensorOptions options,
                  std::optional<MemoryFormat> memory_format) {
  return full_like(self, 0, options, memory_format);
}
Tensor ones_like(const Tensor& self, TensorOptions options,
                 std::optional<MemoryFormat> memory_format) {
  return full_like(self, 1, options, memory_format);
}
Tensor full_like(const Tensor& self, const Scalar& fill_value, TensorOptions options,
                 std::optional<MemoryFormat> memory_format) {
  Tensor t = new_like("full_like", self, options, memory_format);
  t.fill_(fill_value);
  return finish(t, options);
}
Tensor rand_like(const Tensor& self, TensorOptions options,
                 std::optional<MemoryFormat> memory_format) {
  return finish(new_like("rand_like", self, options, memory_format).uniform_(), options);
}
Tensor randn_like(const Tensor& self, TensorOptions options,
                  std::optional<MemoryFormat> memory_format) {
  return finish(new_like("randn_like", self, options, memory_format).normal_(), options);
}
Tensor randint_like(const Tensor& self, int64_t high, TensorOptions options,
                    std::optional<MemoryFormat> memory_format) {
  return randint_like(self, 0, high, options, memory_format);
}
Tensor randint_like(const Tensor& self, int64_t low, int64_t high, TensorOptions options,
                    std::optional<MemoryFormat> memory_format) {
  return finish(new_like("randint_like", self, options, memory_format).random_(low, high), options);
}

Tensor from_blob(void* data, IntArrayRef sizes, const TensorOptions& options) {
  return from_blob(data, sizes, nullptr, options);
}

Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, const TensorOptions& options) {
  return from_blob(data, sizes, strides, nullptr, options);
}

Tensor from_blob(void* data, IntArrayRef sizes, const std::function<void(void*)>& deleter,
                 const TensorOptions& options) {
  detail::checked_numel(sizes, "from_blob");
  int64_t strides[detail::kMaxDims];
  int64_t s = 1;
  for (int64_t i = static_cast<int64_t>(sizes.size()) - 1; i >= 0; --i) {
    strides[i] = s;
    s *= std::max<int64_t>(sizes[i], 1);
  }
  return from_blob(data, sizes, IntArrayRef(strides, sizes.size()), deleter, options);
}

Tensor from_blob(void* data, IntArrayRef shape, IntArrayRef strides,
                 const std::function<void(void*)>& deleter, const TensorOptions& options) {
  EMBER_CHECK_T(ValueError, !options.device().is_cuda(),
                "[from_blob] can't wrap external memory as a ", options.device(),
                " tensor: ember only uses GPU memory it allocated itself. Wrap the buffer on the "
                "CPU and move it with .to(",
                options.device(), ")");
  const int64_t extent = detail::strided_extent(shape, strides, "from_blob");
  EMBER_CHECK_T(ValueError, data != nullptr || extent == 0, "[from_blob] data is a null pointer");
  ScalarType dtype = options.dtype().toScalarType();
  auto storage = std::make_shared<detail::StorageImpl>(
      data, static_cast<size_t>(extent) * elementSize(dtype), Device::cpu(), nullptr);
  storage->deleter = deleter;
  auto impl = std::make_shared<detail::TensorImpl>();
  impl->storage = std::move(storage);
  impl->dtype = dtype;
  impl->set_geometry(shape, strides);
  return finish(Tensor(std::move(impl)), options);
}

}  // namespace ember
