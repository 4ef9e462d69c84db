// TensorImpl and StorageImpl: what a Tensor handle points at. Views share one StorageImpl.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>

#include "core/allocator.h"
#include "core/max_dims.h"
#include "core/pending_write.h"
#include "ember/array_ref.h"
#include "ember/device.h"
#include "ember/dtype.h"
#include "ember/scalar.h"
#include "ember/tensor.h"

namespace ember::autograd {
struct AutogradMeta;
}

namespace ember::detail {

// Only tensors that take part in autograd have an AutogradMeta; its deleter lives with it.
struct AutogradMetaDeleter {
  void operator()(autograd::AutogradMeta* meta) const;
};

struct StorageImpl {
  void* data = nullptr;
  size_t nbytes = 0;
  Device device;
  Allocator* allocator = nullptr;  // owns `data` when set
  // A copy from a GPU still writing the bytes (Note [Safe non-blocking copies to the host]).
  // Declared before `deleter`, so that it is destroyed after it: the compiler then tests an
  // empty deleter once, a few instructions less per small op.
  PendingWriteSlot pending_write;
  std::function<void(void*)> deleter;  // from_blob's deleter, when given
  // Note [Version counter]: in-place writes bump it; views share it because they share the
  // storage (PyTorch keeps the counter per view family for the same reason).
  uint32_t version = 0;

  StorageImpl(void* d, size_t n, Device dev, Allocator* a)
      : data(d), nbytes(n), device(dev), allocator(a) {}
  StorageImpl(const StorageImpl&) = delete;
  StorageImpl& operator=(const StorageImpl&) = delete;
  ~StorageImpl() {
    if (allocator) {
      allocator->deallocate(data, nbytes);  // which holds the memory back from a pending copy
      return;
    }
    // from_blob memory (page-locked by its owner) goes back to the owner: a copy still writing
    // into it is waited for first.
    if (pending_write.pending()) [[unlikely]]
      pending_write.finish();
    if (deleter) deleter(data);
  }
};

// Note [Small storages]
// Tensors of at most kInlineBytes keep their elements inside the StorageImpl's own allocation,
// saving a malloc/free pair on every small op (the W1 workload: a + b on [2, 3]).
struct InlineStorage : StorageImpl {
  static constexpr size_t kInlineBytes = 64;
  alignas(16) unsigned char bytes[kInlineBytes];  // malloc's alignment: no aligned new
  InlineStorage(size_t n, Device dev) : StorageImpl(nullptr, n, dev, nullptr) { data = bytes; }
};

// InferenceMode's flag (ember/autograd.h): a tensor made while it is on is an inference tensor.
// Initial-exec: a load relative to the thread pointer, as every new tensor reads it.
extern thread_local bool tls_inference_mode [[gnu::tls_model("initial-exec")]];

struct TensorImpl {
  // User-provided so that make_shared does not zero the inline arrays first.
  TensorImpl() : is_inference(tls_inference_mode) {}

  std::shared_ptr<StorageImpl> storage;
  int64_t offset = 0;  // in elements
  int64_t numel = 1;
  int32_t ndim = 0;
  ScalarType dtype = kFloat32;
  bool contiguous = true;
  bool requires_grad = false;
  bool wrapped_number = false;  // a Scalar turned into a 0-dim tensor (x + 2.5): lowest priority
  bool is_inference;            // made under InferenceMode (a view: as its base)
  // Note [Views in autograd] (autograd/view_history.h): a view op's result keeps the tensor it
  // views (the first one that is not a view itself), so that an in-place op on the view can
  // rewrite that base's history. Null for tensors owning their storage, and for detach().
  bool view_made_without_grad = false;  // made in no-grad mode: in-place ops under grad refused
  uint32_t view_version = 0;            // the storage's version when the view's history was set
  std::shared_ptr<TensorImpl> view_base;
  std::unique_ptr<autograd::AutogradMeta, AutogradMetaDeleter> autograd;  // null: no grad state
  int64_t sizes[kMaxDims];
  int64_t strides[kMaxDims];

  Device device() const { return storage->device; }
  // The address of the first element, once any pending write to the storage has landed: every
  // host access to the bytes goes through here (Note [Safe non-blocking copies to the host]).
  char* data() const {
    if (storage->pending_write.pending()) [[unlikely]]
      wait_for_pending_write();
    return static_cast<char*>(storage->data) + offset * static_cast<int64_t>(elementSize(dtype));
  }
  IntArrayRef shape() const { return IntArrayRef(sizes, static_cast<size_t>(ndim)); }
  IntArrayRef stride_ref() const { return IntArrayRef(strides, static_cast<size_t>(ndim)); }

  // Sets sizes and strides and recomputes numel and the contiguity flag.
  void set_geometry(IntArrayRef shape, IntArrayRef stride);
  void set_contiguous_geometry(IntArrayRef shape);
  void refresh();  // numel and contiguous from sizes/strides

 private:
  void wait_for_pending_write() const;
};

// A tensor's impl, for ember's own code only: Tensor keeps it private, so that what users see of
// a tensor is its public API.
struct TensorImplAccess {
  static TensorImpl* get(const Tensor& t) { return t.impl_.get(); }
  static const std::shared_ptr<TensorImpl>& shared(const Tensor& t) { return t.impl_; }
};
inline TensorImpl* impl_of(const Tensor& t) { return TensorImplAccess::get(t); }
inline const std::shared_ptr<TensorImpl>& impl_ptr_of(const Tensor& t) {
  return TensorImplAccess::shared(t);
}

// Note [Size limits]
// A shape's span, the product of its sizes with 0 counted as 1, is at most kMaxSpan. Then its
// element count, its contiguous strides, any stride * (size - 1) of a view, and byte sizes and
// offsets (at most 8 bytes per element) all fit in int64_t with room to add them, so geometry
// math cannot overflow. No machine holds 2^59 elements; empty tensors keep their huge dims.
inline constexpr int64_t kMaxSpan = int64_t{1} << 59;

// Whether shape's span is at most kMaxSpan (sizes are assumed non-negative).
bool span_fits(IntArrayRef shape);

// Checks a shape (non-negative sizes, at most kMaxDims, span within Note [Size limits]) and
// returns its element count.
int64_t checked_numel(IntArrayRef shape, const char* op);

// A new, uninitialised, contiguous tensor on `device` (resolved to a concrete index).
std::shared_ptr<TensorImpl> empty_impl(IntArrayRef shape, ScalarType dtype, Device device);
// How many elements a view of `shape` and `strides` reaches (0 when it has none): ValueError
// naming `op` for strides of another length, negative ones, or a reach beyond kMaxSpan.
int64_t strided_extent(IntArrayRef shape, IntArrayRef strides, const char* op);
// A new, uninitialised tensor with the given strides (any non-negative ones: PyTorch's
// empty_strided), over storage reaching its farthest element.
std::shared_ptr<TensorImpl> empty_strided_impl(IntArrayRef shape, IntArrayRef strides,
                                               ScalarType dtype, Device device);
// The same on the CPU, in page-locked memory for asynchronous copies with a GPU (pin_memory). In
// a CPU-only build, or without a GPU, it throws the error CUDA devices throw there.
std::shared_ptr<TensorImpl> empty_pinned_impl(IntArrayRef shape, ScalarType dtype);
// A view of `base`'s storage with other geometry.
std::shared_ptr<TensorImpl> view_impl(const TensorImpl& base, IntArrayRef shape,
                                      IntArrayRef strides, int64_t offset);

// *impl, or ValueError naming `what` (the accessor or op) when the tensor is undefined: every
// accessor an op reads its operands through checks, so an undefined operand never reaches null.
[[noreturn]] void fail_undefined(const char* what);
inline const TensorImpl& defined_impl(const TensorImpl* impl, const char* what) {
  if (impl == nullptr) [[unlikely]]
    fail_undefined(what);
  return *impl;
}
inline constexpr const char* kUndefinedTensorHint =
    "(a default-constructed Tensor, or the grad() of a tensor that no backward has reached); "
    "check defined() first";

// The element at host address p, as the Scalar of its kind (item(), printing).
Scalar load_scalar(const void* p, ScalarType dtype);

// Wraps a dimension index (negative counts from the end); IndexError with PyTorch's message.
int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op);
// The dims of a list (reductions, flip), each wrapped as wrap_dim does, marked true; a dim named
// twice is a ValueError with PyTorch's message.
std::array<bool, kMaxDims> named_dims(IntArrayRef dims, int64_t ndim, const char* op);

}  // namespace ember::detail
