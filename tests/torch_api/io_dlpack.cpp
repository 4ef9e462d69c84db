// Issue 24: DLPack as LibTorch's ATen/DLConvertor.h has it: what at::toDLPack says of a tensor
// (data pointer, shape, strides in elements, byte_offset, dtype codes, device), and at::fromDLPack
// taking it back without a copy.
#include <cstdint>

#include "torch_api.h"

#ifdef TORCH_API_AGAINST_LIBTORCH
#include <ATen/DLConvertor.h>
#else
#include <dlpack/dlpack.h>
#endif

namespace {

c10::IntArrayRef shape_of(const DLTensor& dl) {
  return c10::IntArrayRef(dl.shape, static_cast<size_t>(dl.ndim));
}
c10::IntArrayRef strides_of(const DLTensor& dl) {
  return c10::IntArrayRef(dl.strides, static_cast<size_t>(dl.ndim));
}

void describes_a_view() {
  torch::Tensor base = torch::arange(24, torch::kFloat).reshape({4, 6});
  torch::Tensor view = base.narrow(1, 1, 4).t();
  DLManagedTensor* managed = at::toDLPack(view);
  const DLTensor& dl = managed->dl_tensor;
  SHOW(dl.ndim);
  SHOW(shape_of(dl));
  SHOW(strides_of(dl));
  SHOW(dl.byte_offset);
  SHOW(dl.data == view.data_ptr());
  SHOW(static_cast<int>(dl.device.device_type));
  SHOW(dl.device.device_id);
  torch::Tensor back = at::fromDLPack(managed);
  SHOW(back);
  SHOW(back.strides());
  SHOW(back.data_ptr() == view.data_ptr());
  back.mul_(-1);  // the same memory: base changes too
  SHOW(base);
}

void dtype_codes() {
  // Not Bool: LibTorch 1.13 refuses to export it (ember sends it as uint8, Note [Bool in DLPack]).
  for (torch::ScalarType type :
       {torch::kUInt8, torch::kInt8, torch::kInt16, torch::kInt32, torch::kInt64, torch::kFloat16,
        torch::kBFloat16, torch::kFloat32, torch::kFloat64}) {
    torch::Tensor t = torch::ones({2}, type);
    DLManagedTensor* managed = at::toDLPack(t);
    SHOW(type);
    SHOW(static_cast<int>(managed->dl_tensor.dtype.code));
    SHOW(static_cast<int>(managed->dl_tensor.dtype.bits));
    SHOW(static_cast<int>(managed->dl_tensor.dtype.lanes));
    SHOW(at::fromDLPack(managed).scalar_type());
  }
}

}  // namespace

void io_dlpack() {
  torch_api::section("io: DLPack views");
  describes_a_view();
  torch_api::section("io: DLPack dtype codes");
  dtype_codes();
}
