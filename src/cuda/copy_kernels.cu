// CUDA kernels that write without computing: same-device copy with dtype conversion, and fill.
// The transfers between devices are the backend's (cuda_backend.cpp), not these.
#include "cuda/cuda_check.h"
#include "cuda/kernels.h"
#include "cuda/loops.cuh"
#include "kernels/elementwise_stubs.h"
#include "kernels/scalar_cast.h"

namespace ember::cuda {
namespace {

using namespace kernels;

// The CPU kernels write these two as lambdas; a __host__ __device__ lambda would need nvcc's
// --extended-lambda, so they are named functors here.
template <class T>
struct Identity {
  EMBER_HOST_DEVICE T operator()(T v) const { return v; }
};
template <class T>
struct Constant {
  T value;
  EMBER_HOST_DEVICE T operator()() const { return value; }
};

// x.copy_(x), or any copy whose source is its destination element for element: nothing moves
// (and cudaMemcpyAsync's source and destination must not overlap).
bool copies_onto_itself(const TensorIter& it) {
  if (it.dtypes[0] != it.dtypes[1] || it.data[0] != it.data[1]) return false;
  for (int d = 0; d < it.ndim; ++d)
    if (it.shape[d] > 1 && it.strides[0][d] != it.strides[1][d]) return false;
  return true;
}

void copy_kernel(TensorIter& it) {
  if (it.numel == 0 || copies_onto_itself(it)) return;
  if (it.dtypes[0] == it.dtypes[1] && it.is_contiguous()) {
    // Dense bytes to dense bytes: the copy engine, ordered on the current stream like a kernel.
    const impl::DeviceStream on(it.device);
    EMBER_CUDA_CHECK(cudaMemcpyAsync(it.data[0], it.data[1],
                                     static_cast<size_t>(it.numel) * elementSize(it.dtypes[0]),
                                     cudaMemcpyDeviceToDevice, on.stream),
                     "copy_");
    impl::after_launch("copy_", on.stream);
    return;
  }
  dispatch_dtype(it.dtypes[0], "copy_", [&](auto out_tag) {
    using O = typename decltype(out_tag)::type;
    dispatch_dtype(it.dtypes[1], "copy_", [&](auto in_tag) {
      using I = typename decltype(in_tag)::type;
      gpu_kernel<O, I>("copy_", it, Identity<opmath_t<I>>{});
    });
  });
}

void fill_kernel(TensorIter& it, Scalar value) {
  dispatch_dtype(it.dtypes[0], "fill_", [&](auto tag) {
    using T = typename decltype(tag)::type;
    gpu_kernel<T>("fill_", it, Constant<T>{kernels::scalar_cast<T>(value)});
  });
}

}  // namespace

void register_copy_kernels() {
  copy_stub.set(DeviceType::CUDA, &copy_kernel);
  fill_stub.set(DeviceType::CUDA, &fill_kernel);
}

}  // namespace ember::cuda
