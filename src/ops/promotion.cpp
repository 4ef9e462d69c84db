// Result-type computation (Note [Result type]), scalar wrapping, and the overflow check of
// numbers written into tensors.
#include "ops/promotion.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/factory.h"
#include "kernels/elementwise_stubs.h"
#include "kernels/scalar_cast.h"

namespace ember::ops {
namespace {

using MaybeType = std::optional<ScalarType>;

MaybeType promote(MaybeType a, ScalarType b) { return a ? promote_types(*a, b) : b; }

MaybeType combine_categories(MaybeType higher, MaybeType lower) {
  if (higher && isFloatingType(*higher)) return higher;
  if (!lower) return higher;
  if (!higher) return lower;
  if (*higher == kBool || isFloatingType(*lower)) return promote_types(*higher, *lower);
  return higher;
}

// The range of a non-bool dtype, as doubles.
struct Range {
  double lowest, max;
};

Range range_of(ScalarType t) {
  switch (t) {
    case kUInt8: return {0, 255};
    case kInt8: return {-128, 127};
    case kInt16: return {-32768, 32767};
    case kInt32: return {-2147483648.0, 2147483647.0};
    case kInt64: return {-0x1p63, 0x1p63};  // max rounds up to 2^63 as a double
    case kFloat16: return {-65504, 65504};
    case kBFloat16: return {-0x1.fep127, 0x1.fep127};
    case kFloat32: return {-std::numeric_limits<float>::max(), std::numeric_limits<float>::max()};
    case kFloat64:
    case kBool: break;  // bool never overflows (overflows() asks no range of it)
  }
  return {-std::numeric_limits<double>::max(), std::numeric_limits<double>::max()};
}

bool overflows(Scalar s, ScalarType t) {
  if (t == kBool || s.isBoolean()) return false;
  const Range r = range_of(t);
  if (s.isIntegral(false)) {
    const int64_t i = s.toLong();
    // An integer wraps into an unsigned type when its magnitude fits.
    if (t == kUInt8 && i < 0) return -static_cast<double>(i) > r.max;
    return static_cast<double>(i) < r.lowest || static_cast<double>(i) > r.max;
  }
  const double d = s.toDouble();
  if (isFloatingType(t) && !std::isfinite(d)) return false;
  if (std::isnan(d)) return true;
  return d < r.lowest || d > r.max || (t == kInt64 && d == r.max);  // 2^63 is one past int64
}

}  // namespace

void check_fits(const char* op, Scalar s, ScalarType dtype) {
  EMBER_CHECK_T(ValueError, !overflows(s, dtype), "[", op, "] value cannot be converted to type ",
                dtype, " without overflow");
}

ScalarType result_type(std::initializer_list<const Tensor*> operands) {
  // Fast path: dimensioned tensors of one dtype (the common case) need no category logic.
  const detail::TensorImpl* first = detail::impl_of(*operands.begin()[0]);
  bool uniform = true;
  for (const Tensor* t : operands) {
    const detail::TensorImpl* impl = detail::impl_of(*t);
    uniform = uniform && impl && impl->ndim > 0 && impl->dtype == first->dtype;
  }
  if (uniform) return first->dtype;
  MaybeType dim_result, zero_result, wrapped_result;
  for (const Tensor* t : operands) {
    if (!t->defined()) continue;
    const detail::TensorImpl& impl = *detail::impl_of(*t);
    ScalarType current = impl.dtype;
    if (impl.wrapped_number) {
      if (isFloatingType(current)) current = get_default_dtype_as_scalartype();
      wrapped_result = promote(wrapped_result, current);
    } else if (impl.ndim > 0) {
      dim_result = promote(dim_result, current);
    } else {
      zero_result = promote(zero_result, current);
    }
  }
  MaybeType r = combine_categories(dim_result, combine_categories(zero_result, wrapped_result));
  return r.value_or(kFloat32);
}

Tensor wrap_scalar(Scalar s) {
  ScalarType dtype = s.isFloatingPoint() ? kFloat64 : s.isBoolean() ? kBool : kInt64;
  Tensor t = scalar_to_tensor(s, dtype, Device::cpu());
  detail::impl_of(t)->wrapped_number = true;
  return t;
}

Tensor scalar_to_tensor(Scalar s, ScalarType dtype, Device device) {
  // Off the CPU the value is written by fill_stub: a copy from pageable host memory would make
  // the host wait for the GPU at every `x * 2`, where a fill is one more kernel launch.
  if (!device.is_cpu()) {
    Tensor t(detail::empty_impl({}, dtype, device));
    kernels::TensorIter it =
        kernels::make_iter({"fill_", dtype, dtype, false, {}, /*check_mem_overlap=*/false}, t, {});
    kernels::fill_stub(device.type(), it, s);
    return t;
  }
  Tensor t(detail::empty_impl({}, dtype, Device::cpu()));
  void* p = detail::impl_of(t)->data();
  switch (dtype) {
    case kBool: *static_cast<bool*>(p) = kernels::scalar_cast<bool>(s); break;
    case kUInt8: *static_cast<uint8_t*>(p) = kernels::scalar_cast<uint8_t>(s); break;
    case kInt8: *static_cast<int8_t*>(p) = kernels::scalar_cast<int8_t>(s); break;
    case kInt16: *static_cast<int16_t*>(p) = kernels::scalar_cast<int16_t>(s); break;
    case kInt32: *static_cast<int32_t*>(p) = kernels::scalar_cast<int32_t>(s); break;
    case kInt64: *static_cast<int64_t*>(p) = kernels::scalar_cast<int64_t>(s); break;
    case kFloat16: *static_cast<Half*>(p) = kernels::scalar_cast<Half>(s); break;
    case kBFloat16: *static_cast<BFloat16*>(p) = kernels::scalar_cast<BFloat16>(s); break;
    case kFloat32: *static_cast<float*>(p) = kernels::scalar_cast<float>(s); break;
    case kFloat64: *static_cast<double*>(p) = kernels::scalar_cast<double>(s); break;
  }
  return t;
}

}  // namespace ember::ops

namespace ember {

ScalarType result_type(const Tensor& tensor, const Tensor& other) {
  return ops::result_type(tensor, other);
}
ScalarType result_type(const Tensor& tensor, const Scalar& other) {
  return ops::result_type(tensor, ops::wrap_scalar(other));
}
ScalarType result_type(const Scalar& scalar, const Tensor& tensor) {
  return ops::result_type(ops::wrap_scalar(scalar), tensor);
}
ScalarType result_type(const Scalar& scalar1, const Scalar& scalar2) {
  return ops::result_type(ops::wrap_scalar(scalar1), ops::wrap_scalar(scalar2));
}

}  // namespace ember
