// toDLPack / fromDLPack: ember tensors in and out of DLPack's DLManagedTensor, without copies.
//
// Note [DLPack ownership]
// Export: the DLManagedTensor's manager_ctx holds a reference to the tensor's storage and copies
// of its sizes and strides (so a later resize_ of the tensor cannot change what the consumer
// reads); its deleter drops them. Import: the new tensor's storage wraps the producer's memory,
// and its deleter, run by the StorageImpl destructor when the last tensor or view sharing it
// dies, calls the producer's deleter once. Both sides follow PyTorch's DLConvertor.cpp: data is
// the first element's address and byte_offset 0 on export (PyTorch's import ignores
// byte_offset, so a non-zero one would be misread there); on import byte_offset is honoured.
#include <dlpack/dlpack.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <utility>

#include "core/backend.h"
#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/dlpack.h"

namespace ember {
namespace {

// Note [Bool in DLPack]
// DLPack 0.6 (Debian's header) has no bool type code: LibTorch 1.13 refuses to export Bool, and
// PyTorch 2.x sends DLPack 0.8's kDLBool = 6, which consumers built on 0.6 (LibTorch 1.13 among
// them) refuse. ember sends Bool as 8-bit kDLUInt, which every consumer reads (as uint8), and
// reads kDLBool as Bool; an 8-bit kDLUInt comes back as Byte.
constexpr uint8_t kDLBoolCode = 6;

struct DLTypeOf {
  uint8_t code;
  uint8_t bits;
};
// Indexed by ScalarType, in its enum order.
constexpr DLTypeOf kDLTypes[] = {
    {kDLUInt, 8}, {kDLUInt, 8},   {kDLInt, 8},     {kDLInt, 16},   {kDLInt, 32},
    {kDLInt, 64}, {kDLFloat, 16}, {kDLBfloat, 16}, {kDLFloat, 32}, {kDLFloat, 64},
};
static_assert(std::size(kDLTypes) == static_cast<size_t>(kNumScalarTypes));

ScalarType scalar_type_of_dl(DLDataType type) {
  EMBER_CHECK(type.lanes == 1, "[fromDLPack] vector types (lanes = ", type.lanes,
              ") are not supported; ember tensors hold one value per element");
  if (type.code == kDLBoolCode && type.bits == 8) return kBool;
  // From Byte on: 8-bit kDLUInt is Byte, never Bool (Note [Bool in DLPack]).
  for (int i = static_cast<int>(kByte); i < kNumScalarTypes; ++i)
    if (kDLTypes[i].code == type.code && kDLTypes[i].bits == type.bits)
      return static_cast<ScalarType>(i);
  detail::fail<Error>("[fromDLPack] unsupported DLPack dtype (code ", int{type.code}, ", ",
                      int{type.bits},
                      " bits); ember reads signed integers of 8 to 64 bits, 8-bit "
                      "unsigned, 16/32/64-bit floats, bfloat16 and bool");
}

// Export (Note [DLPack ownership]).
struct ExportedTensor {
  std::shared_ptr<detail::StorageImpl> storage;
  int64_t sizes[detail::kMaxDims];
  int64_t strides[detail::kMaxDims];
  DLManagedTensor managed{};
};

void delete_exported(DLManagedTensor* self) {
  delete static_cast<ExportedTensor*>(self->manager_ctx);
}

// Note [Foreign GPU memory]
// ember's kernels run asynchronously on its streams, which the producer of an imported GPU
// tensor knows nothing of: if its deleter frees the memory at once (into its own caching
// allocator, say), work ember queued may still read or write it. So ember waits for the device
// before handing GPU memory back. A failing wait means the GPU's work is over anyway (a sticky
// error), and a destructor must not throw: the memory is released regardless.
void wait_then_release(int device_index, const std::function<void()>& release) noexcept {
  try {
    detail::backend(DeviceType::CUDA).synchronize(device_index);
  } catch (const Error&) {  // see the Note: nothing left running on the device
  }
  release();
}

Device device_of_dl(const DLDevice& device) {
  switch (device.device_type) {
    case kDLCPU:
    case kDLCUDAHost:  // page-locked host memory: a CPU tensor
      return Device::cpu();
    case kDLCUDA:
      EMBER_CHECK(device.device_id >= 0 && device.device_id < 128, "[fromDLPack] device_id ",
                  device.device_id, " is not a valid CUDA device index");
      return detail::resolve_device(Device::cuda(device.device_id));
    case kDLOpenCL:
    case kDLVulkan:
    case kDLMetal:
    case kDLVPI:
    case kDLROCM:
    case kDLROCMHost:
    case kDLExtDev:
    case kDLCUDAManaged: break;
  }
  detail::fail<Error>("[fromDLPack] unsupported DLPack device type ",
                      static_cast<int>(device.device_type),
                      "; ember reads kDLCPU, kDLCUDAHost and kDLCUDA tensors");
}

// The tensor over `dl`'s memory; `release` runs once when its storage dies. Every check comes
// before the storage exists, so a refused tensor releases nothing.
Tensor wrap_dl_tensor(const DLTensor& dl, std::function<void()> release) {
  EMBER_CHECK(dl.ndim >= 0 && dl.ndim <= detail::kMaxDims, "[fromDLPack] ndim ", dl.ndim,
              " is out of range; ember tensors have 0 to ", detail::kMaxDims, " dimensions");
  EMBER_CHECK(dl.ndim == 0 || dl.shape != nullptr, "[fromDLPack] shape is a null pointer");
  const ScalarType dtype = scalar_type_of_dl(dl.dtype);
  const Device device = device_of_dl(dl.device);
  IntArrayRef shape(dl.shape, static_cast<size_t>(dl.ndim));
  int64_t contiguous[detail::kMaxDims];
  IntArrayRef strides(dl.strides, static_cast<size_t>(dl.ndim));
  if (dl.strides == nullptr) {  // DLPack 0.6: null strides mean a compact row-major tensor
    detail::checked_numel(shape, "fromDLPack");
    int64_t s = 1;
    for (int i = dl.ndim - 1; i >= 0; --i) {
      contiguous[i] = s;
      s *= std::max<int64_t>(shape[i], 1);
    }
    strides = IntArrayRef(contiguous, static_cast<size_t>(dl.ndim));
  }
  const int64_t extent = detail::strided_extent(shape, strides, "fromDLPack");
  EMBER_CHECK(dl.data != nullptr || extent == 0, "[fromDLPack] data is a null pointer");

  void* data = static_cast<char*>(dl.data) + dl.byte_offset;
  auto storage = std::make_shared<detail::StorageImpl>(
      data, static_cast<size_t>(extent) * elementSize(dtype), device, nullptr);
  if (device.is_cuda())
    storage->deleter = [index = device.index(), release = std::move(release)](void*) {
      wait_then_release(index, release);
    };
  else storage->deleter = [release = std::move(release)](void*) { release(); };
  auto impl = std::make_shared<detail::TensorImpl>();
  impl->storage = std::move(storage);
  impl->dtype = dtype;
  impl->set_geometry(shape, strides);
  return Tensor(std::move(impl));
}

}  // namespace

DLManagedTensor* toDLPack(const Tensor& src) {
  const detail::TensorImpl& impl = detail::defined_impl(detail::impl_of(src), "toDLPack");
  auto exported = std::make_unique<ExportedTensor>();
  exported->storage = impl.storage;
  for (int d = 0; d < impl.ndim; ++d) {
    exported->sizes[d] = impl.sizes[d];
    // As PyTorch (its gh-83069): a dim of size 0 or 1 gets stride 1, which consumers that test
    // contiguity from the strides expect; no element is addressed through it.
    exported->strides[d] = impl.sizes[d] < 2 ? 1 : impl.strides[d];
  }
  DLTensor& dl = exported->managed.dl_tensor;
  dl.data = impl.data();  // waits for a pending copy into the bytes
  const Device device = impl.device();
  dl.device = device.is_cuda() ? DLDevice{kDLCUDA, device.index()} : DLDevice{kDLCPU, 0};
  dl.ndim = impl.ndim;
  const DLTypeOf type = kDLTypes[static_cast<int>(impl.dtype)];
  dl.dtype = DLDataType{type.code, type.bits, 1};
  dl.shape = exported->sizes;
  dl.strides = exported->strides;
  dl.byte_offset = 0;
  exported->managed.manager_ctx = exported.get();
  exported->managed.deleter = delete_exported;
  return &exported.release()->managed;
}

Tensor fromDLPack(DLManagedTensor* src) {
  EMBER_CHECK(src != nullptr, "[fromDLPack] the DLManagedTensor is a null pointer");
  return wrap_dl_tensor(src->dl_tensor, [src] {
    if (src->deleter != nullptr) src->deleter(src);  // DLPack allows a producer without one
  });
}

Tensor fromDLPack(const DLManagedTensor* src) {
  // Ownership moves to the tensor, which calls the deleter: LibTorch's const is nominal.
  return fromDLPack(const_cast<DLManagedTensor*>(src));
}

Tensor fromDLPack(DLManagedTensor* src, std::function<void(void*)> deleter) {
  if (!deleter) return fromDLPack(src);  // as PyTorch: the producer's own deleter then
  EMBER_CHECK(src != nullptr, "[fromDLPack] the DLManagedTensor is a null pointer");
  return wrap_dl_tensor(src->dl_tensor, [data = src->dl_tensor.data, deleter = std::move(deleter)] {
    deleter(data);
  });
}

}  // namespace ember
