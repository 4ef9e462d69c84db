// TensorImpl geometry helpers and the allocation of new tensors.
#include "core/tensor_impl.h"

#include "core/backend.h"
#include "core/check.h"

namespace ember::detail {

thread_local bool tls_inference_mode [[gnu::tls_model("initial-exec")]] = false;

void TensorImpl::set_geometry(IntArrayRef shape, IntArrayRef stride) {
  ndim = static_cast<int32_t>(shape.size());
  for (int32_t i = 0; i < ndim; ++i) {
    sizes[i] = shape[i];
    strides[i] = stride[i];
  }
  refresh();
}

void TensorImpl::set_contiguous_geometry(IntArrayRef shape) {
  ndim = static_cast<int32_t>(shape.size());
  int64_t s = 1;
  for (int32_t i = ndim - 1; i >= 0; --i) {
    sizes[i] = shape[i];
    strides[i] = s;
    s *= shape[i] > 1 ? shape[i] : 1;
  }
  numel = 1;
  for (int32_t i = 0; i < ndim; ++i) numel *= sizes[i];
  contiguous = true;
}

// Out of line and on the tensor, whose address the caller of data() holds anyway: the check
// inlined there stays a load and a branch (a call on the slot costs a few instructions more).
void TensorImpl::wait_for_pending_write() const { storage->pending_write.wait(); }

void TensorImpl::refresh() {
  numel = 1;
  for (int32_t i = 0; i < ndim; ++i) numel *= sizes[i];
  // PyTorch's rule: size-1 dims may have any stride; an empty tensor is contiguous.
  contiguous = true;
  if (numel == 0) return;
  int64_t expected = 1;
  for (int32_t i = ndim - 1; i >= 0; --i) {
    if (sizes[i] == 1) continue;
    if (strides[i] != expected) {
      contiguous = false;
      return;
    }
    expected *= sizes[i];
  }
}

bool span_fits(IntArrayRef shape) {
  int64_t span = 1;
  for (int64_t s : shape) {
    int64_t factor = s > 1 ? s : 1;
    if (span > kMaxSpan / factor) return false;
    span *= factor;
  }
  return true;
}

int64_t checked_numel(IntArrayRef shape, const char* op) {
  EMBER_CHECK_T(ValueError, shape.size() <= static_cast<size_t>(kMaxDims), "[", op,
                "] ember tensors have at most ", kMaxDims, " dimensions, got ", shape.size(),
                " (shape ", shape, ")");
  for (int64_t s : shape)
    EMBER_CHECK_T(ValueError, s >= 0, "[", op, "] negative dimension ", s, " in shape ", shape);
  EMBER_CHECK_T(ValueError, span_fits(shape), "[", op, "] shape ", shape,
                " is too large: ember tensors span at most 2^59 elements (empty dimensions "
                "counted as 1)");
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

namespace {

std::shared_ptr<StorageImpl> allocated_storage(Allocator& a, size_t nbytes, Device device) {
  return std::make_shared<StorageImpl>(a.allocate(nbytes), nbytes, device, &a);
}

// A new contiguous tensor of `shape` over the storage make_storage(nbytes) returns.
template <class MakeStorage>
std::shared_ptr<TensorImpl> new_contiguous(IntArrayRef shape, ScalarType dtype, const char* op,
                                           MakeStorage make_storage) {
  const size_t nbytes = static_cast<size_t>(checked_numel(shape, op)) * elementSize(dtype);
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = make_storage(nbytes);
  impl->dtype = dtype;
  impl->set_contiguous_geometry(shape);
  return impl;
}

// Storage of nbytes on `device` from its allocator. Inlined into empty_impl, the path of every
// op's output (Note [Small storages]).
[[gnu::always_inline]] inline std::shared_ptr<StorageImpl> device_storage(size_t nbytes,
                                                                          Device device) {
  const bool cpu = device.is_cpu() && device.index() == -1;
  if (cpu && nbytes <= InlineStorage::kInlineBytes)
    return std::make_shared<InlineStorage>(nbytes, device);  // Note [Small storages]
  if (cpu)                                                   // the hot path: no resolution needed
    return allocated_storage(backend(DeviceType::CPU).allocator(0), nbytes, device);
  const Device d = resolve_device(device);
  return allocated_storage(backend(d.type()).allocator(d.index()), nbytes, d);
}

}  // namespace

std::shared_ptr<TensorImpl> empty_impl(IntArrayRef shape, ScalarType dtype, Device device) {
  return new_contiguous(shape, dtype, "empty",
                        [device](size_t nbytes) { return device_storage(nbytes, device); });
}

int64_t strided_extent(IntArrayRef shape, IntArrayRef strides, const char* op) {
  const int64_t numel = checked_numel(shape, op);
  EMBER_CHECK_T(ValueError, shape.size() == strides.size(), "[", op, "] shape ", shape,
                " and strides ", strides, " must have the same length");
  int64_t extent = 1;  // 1 + sum((size - 1) * stride)
  for (size_t i = 0; i < shape.size(); ++i) {
    EMBER_CHECK_T(ValueError, strides[i] >= 0, "[", op,
                  "] negative strides are not supported, got ", strides);
    int64_t reach = 0;
    const bool overflow =
        shape[i] > 0 && (__builtin_mul_overflow(shape[i] - 1, strides[i], &reach) ||
                         __builtin_add_overflow(extent, reach, &extent));
    EMBER_CHECK_T(ValueError, !overflow && extent <= kMaxSpan, "[", op, "] shape ", shape,
                  " with strides ", strides,
                  " reaches too far: ember tensors span at most 2^59 elements");
  }
  return numel == 0 ? 0 : extent;
}

std::shared_ptr<TensorImpl> empty_strided_impl(IntArrayRef shape, IntArrayRef strides,
                                               ScalarType dtype, Device device) {
  const int64_t extent = strided_extent(shape, strides, "empty_strided");
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = device_storage(static_cast<size_t>(extent) * elementSize(dtype), device);
  impl->dtype = dtype;
  impl->set_geometry(shape, strides);
  return impl;
}

std::shared_ptr<TensorImpl> empty_pinned_impl(IntArrayRef shape, ScalarType dtype) {
  return new_contiguous(shape, dtype, "pin_memory", [](size_t nbytes) {
    return allocated_storage(backend(DeviceType::CUDA).host_allocator(), nbytes, Device::cpu());
  });
}

std::shared_ptr<TensorImpl> view_impl(const TensorImpl& base, IntArrayRef shape,
                                      IntArrayRef strides, int64_t offset) {
  checked_numel(shape, "view");
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = base.storage;
  impl->dtype = base.dtype;
  impl->offset = offset;
  impl->is_inference = base.is_inference;
  impl->set_geometry(shape, strides);
  return impl;
}

int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op) {
  int64_t n = ndim > 0 ? ndim : 1;  // a 0-dim tensor accepts dim 0 and -1, as in PyTorch
  EMBER_CHECK_T(IndexError, dim >= -n && dim < n, "[", op,
                "] Dimension out of range (expected to be in range of [", -n, ", ", n - 1,
                "], but got ", dim, ")");
  return dim < 0 ? dim + n : dim;
}

std::array<bool, kMaxDims> named_dims(IntArrayRef dims, int64_t ndim, const char* op) {
  std::array<bool, kMaxDims> named{};
  for (int64_t dim : dims) {
    const int64_t d = wrap_dim(dim, ndim, op);
    EMBER_CHECK_T(ValueError, !named[d], "[", op, "] dim ", d,
                  " appears multiple times in the list of dims");
    named[d] = true;
  }
  return named;
}

}  // namespace ember::detail
