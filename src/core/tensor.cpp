// Tensor's metadata accessors, host access and the math methods that forward to free functions.
#include "ember/tensor.h"

#include "core/backend.h"
#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/factory.h"
#include "ember/linalg.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"
#include "ember/stream.h"
#include "ops/promotion.h"

namespace ember {
namespace {

// The tensor's impl, or the undefined-tensor error naming `what`.
const detail::TensorImpl& checked_impl(const Tensor& t, const char* what) {
  return detail::defined_impl(detail::impl_of(t), what);
}

void check_defined(const Tensor& t, const char* what) { (void)checked_impl(t, what); }

}  // namespace

bool Tensor::is_alias_of(const Tensor& other) const {
  return defined() && other.defined() && impl_->storage == other.impl_->storage;
}

IntArrayRef Tensor::sizes() const { return checked_impl(*this, "sizes").shape(); }
IntArrayRef Tensor::strides() const { return checked_impl(*this, "strides").stride_ref(); }
int64_t Tensor::size(int64_t d) const {
  EMBER_CHECK_T(IndexError, dim() > 0, "[size] Dimension specified as ", d,
                " but tensor has no dimensions");
  return impl_->sizes[detail::wrap_dim(d, dim(), "size")];
}
int64_t Tensor::stride(int64_t d) const {
  EMBER_CHECK_T(IndexError, dim() > 0, "[stride] Dimension specified as ", d,
                " but tensor has no dimensions");
  return impl_->strides[detail::wrap_dim(d, dim(), "stride")];
}
int64_t Tensor::dim() const { return checked_impl(*this, "dim").ndim; }
int64_t Tensor::numel() const { return checked_impl(*this, "numel").numel; }
int64_t Tensor::storage_offset() const { return checked_impl(*this, "storage_offset").offset; }
ScalarType Tensor::scalar_type() const { return checked_impl(*this, "scalar_type").dtype; }
Device Tensor::device() const { return checked_impl(*this, "device").device(); }
int Tensor::get_device() const { return is_cpu() ? -1 : device().index(); }
bool Tensor::is_contiguous() const { return checked_impl(*this, "is_contiguous").contiguous; }
void* Tensor::data_ptr() const { return checked_impl(*this, "data_ptr").data(); }

void* Tensor::typed_host_ptr(ScalarType requested) const {
  check_defined(*this, "data_ptr");
  EMBER_CHECK_T(TypeError, requested == scalar_type(), "[data_ptr] expected scalar type ",
                requested, " but found ", scalar_type());
  return impl_->data();
}

void* Tensor::contiguous_host_ptr(ScalarType requested) const {
  check_defined(*this, "span");
  EMBER_CHECK(is_cpu(), "[span] can't access ", device(),
              " tensor memory from the host. Use Tensor.cpu() to copy the tensor to host memory "
              "first.");
  EMBER_CHECK(is_contiguous(), "[span] the tensor is not contiguous (sizes ", sizes(), ", strides ",
              strides(), "); call .contiguous() first");
  return typed_host_ptr(requested);
}

void* Tensor::accessor_data(ScalarType requested, size_t dims) const {
  check_defined(*this, "accessor");
  EMBER_CHECK(dim() == static_cast<int64_t>(dims), "[accessor] TensorAccessor expected ", dims,
              " dims but tensor has ", dim());
  EMBER_CHECK(is_cpu(), "[accessor] can't access ", device(),
              " tensor memory from the host. Use Tensor.cpu() to copy the tensor to host memory "
              "first.");
  return typed_host_ptr(requested);
}

std::string Tensor::toString() const {
  check_defined(*this, "toString");
  return ember::str(device().is_cuda() ? "CUDA" : "CPU", scalar_type(), "Type");
}

Tensor Tensor::toType(ScalarType type) const { return to(type); }

Tensor Tensor::type_as(const Tensor& other) const { return to(other); }

Scalar Tensor::item() const {
  check_defined(*this, "item");
  EMBER_CHECK_T(ValueError, numel() == 1, "[item] a Tensor with ", numel(),
                " elements cannot be converted to Scalar");
  Tensor h = cpu();
  return detail::load_scalar(detail::impl_of(h)->data(), scalar_type());
}

// Only memory from the device's allocator has a reuse to delay (not from_blob's, nor small
// storages kept inline).
void Tensor::record_stream(const Stream& stream) const {
  check_defined(*this, "record_stream");
  EMBER_CHECK(stream.device() == device(), "[record_stream] expected a stream of the tensor's ",
              "device ", device(), ", got ", stream);
  const detail::StorageImpl& storage = *impl_->storage;
  if (storage.allocator != nullptr && storage.data != nullptr)
    detail::backend(device().type()).record_stream(storage.data, stream);
}

namespace detail {
void fail_undefined(const char* what) {
  fail<ValueError>("[", what, "] called on an undefined tensor ", kUndefinedTensorHint);
}

Scalar load_scalar(const void* p, ScalarType dtype) {
  switch (dtype) {
    case kBool: return *static_cast<const bool*>(p);
    case kUInt8: return *static_cast<const uint8_t*>(p);
    case kInt8: return *static_cast<const int8_t*>(p);
    case kInt16: return *static_cast<const int16_t*>(p);
    case kInt32: return *static_cast<const int32_t*>(p);
    case kInt64: return *static_cast<const int64_t*>(p);
    case kFloat16: return *static_cast<const Half*>(p);
    case kBFloat16: return *static_cast<const BFloat16*>(p);
    case kFloat32: return *static_cast<const float*>(p);
    case kFloat64: return *static_cast<const double*>(p);
  }
  return Scalar();
}
}  // namespace detail

// ---- handle semantics: assigning to a temporary writes into its elements
Tensor& Tensor::operator=(const Tensor& other) && { return copy_(other); }
Tensor& Tensor::operator=(Tensor&& other) && { return copy_(other); }
Tensor& Tensor::operator=(const Scalar& value) && { return fill_(value); }

Tensor& Tensor::masked_fill_(const Tensor& mask, const Scalar& value) const {
  return copy_(ember::masked_fill(*this, mask, value));
}

Tensor Tensor::sum(std::optional<ScalarType> dtype) const { return ember::sum(*this, dtype); }
Tensor Tensor::sum(IntArrayRef dims, bool keepdim, std::optional<ScalarType> dtype) const {
  return ember::sum(*this, dims, keepdim, dtype);
}
Tensor Tensor::mean() const { return ember::mean(*this); }
Tensor Tensor::mean(IntArrayRef dims, bool keepdim) const {
  return ember::mean(*this, dims, keepdim);
}
Tensor Tensor::max() const { return ember::max(*this); }
Tensor Tensor::min() const { return ember::min(*this); }
Tensor Tensor::argmax(std::optional<int64_t> dim, bool keepdim) const {
  return ember::argmax(*this, dim, keepdim);
}
Tensor Tensor::argmin(std::optional<int64_t> dim, bool keepdim) const {
  return ember::argmin(*this, dim, keepdim);
}
Tensor Tensor::all() const { return ember::all(*this); }
Tensor Tensor::any() const { return ember::any(*this); }
Tensor Tensor::norm(double p) const { return ember::norm(*this, p); }

Tensor Tensor::matmul(const Tensor& o) const { return ember::matmul(*this, o); }
Tensor Tensor::mm(const Tensor& o) const { return ember::mm(*this, o); }
Tensor Tensor::softmax(int64_t dim) const { return ember::softmax(*this, dim); }
Tensor Tensor::log_softmax(int64_t dim) const { return ember::log_softmax(*this, dim); }
Tensor Tensor::masked_fill(const Tensor& mask, Scalar value) const {
  return ember::masked_fill(*this, mask, value);
}
Tensor Tensor::masked_select(const Tensor& mask) const { return ember::masked_select(*this, mask); }
Tensor Tensor::nonzero() const { return ember::nonzero(*this); }
Tensor Tensor::flip(IntArrayRef dims) const { return ember::flip(*this, dims); }
Tensor Tensor::repeat(IntArrayRef repeats) const { return ember::repeat(*this, repeats); }
Tensor Tensor::tril(int64_t diagonal) const { return ember::tril(*this, diagonal); }
Tensor Tensor::triu(int64_t diagonal) const { return ember::triu(*this, diagonal); }

}  // namespace ember
