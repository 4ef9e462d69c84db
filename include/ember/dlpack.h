// DLPack, the C struct through which array libraries share tensors without copying: LibTorch's
// at::toDLPack / at::fromDLPack (ATen/DLConvertor.h), and the to_dlpack / from_dlpack.
// Only the struct's name appears here, so programs that never touch DLPack need no dlpack.h;
// those that do include <dlpack/dlpack.h> themselves (Debian's libdlpack-dev).
#pragma once

#include <functional>

#include "ember/macros.h"
#include "ember/tensor.h"

struct DLManagedTensor;

namespace ember {

// A DLManagedTensor viewing `src`'s memory: the same data pointer (byte_offset 0), sizes and
// strides in elements, device kDLCPU or kDLCUDA with the GPU's index. It keeps src's storage
// alive until its deleter runs, which the consumer must call exactly once. Bool goes out as
// DLPack 0.6's 8-bit kDLUInt (Note [Bool in DLPack]). Throws Error for an undefined tensor.
EMBER_API DLManagedTensor* toDLPack(const Tensor& src);

// A tensor viewing `src`'s memory (data + byte_offset, with its sizes and strides) without a
// copy. It takes ownership: src->deleter(src) runs exactly once, when the last tensor or view
// sharing that memory is destroyed. kDLCPU and kDLCUDAHost (page-locked host memory) give CPU
// tensors, kDLCUDA cuda:<device_id> tensors. On error (null pointer, a dtype or device ember
// lacks, negative strides) it throws Error and takes nothing: the caller still owns src.
EMBER_API Tensor fromDLPack(DLManagedTensor* src);
// LibTorch 1.13's signature; PyTorch 2.x keeps it, deprecated, for the one above.
EMBER_API Tensor fromDLPack(const DLManagedTensor* src);
// PyTorch 2.x: as above, but when the memory is released `deleter(src->dl_tensor.data)` runs
// instead of src->deleter (for producers that track the memory themselves).
EMBER_API Tensor fromDLPack(DLManagedTensor* src, std::function<void(void*)> deleter);

// The names for the same calls (torch.utils.dlpack's).
inline DLManagedTensor* to_dlpack(const Tensor& src) { return toDLPack(src); }
inline Tensor from_dlpack(DLManagedTensor* src) { return fromDLPack(src); }

}  // namespace ember
