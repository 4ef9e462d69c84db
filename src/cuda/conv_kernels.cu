// CUDA im2col / col2im (conv2d, avg_pool2d and their gradients) and max pooling with indices:
// one thread per output element, the per-thread work in conv_program.h.
#include "cuda/conv_program.h"
#include "cuda/kernels.h"
#include "cuda/launch.h"
#include "ember/tensor.h"

namespace ember::cuda {
namespace {

using kernels::Window2d;

template <class T>
__global__ void __launch_bounds__(kConvThreads)
    im2col_kernel(const T* input, T* cols, Window2d w, int64_t numel) {
  const int64_t e = static_cast<int64_t>(blockIdx.x) * kConvThreads + threadIdx.x;
  if (e < numel) im2col_element(input, cols, w, e);
}

template <class T>
__global__ void __launch_bounds__(kConvThreads)
    col2im_kernel(const T* cols, T* out, Window2d w, int64_t numel) {
  const int64_t e = static_cast<int64_t>(blockIdx.x) * kConvThreads + threadIdx.x;
  if (e < numel) col2im_element(cols, out, w, e);
}

template <class T>
__global__ void __launch_bounds__(kConvThreads)
    max_pool2d_kernel(const T* input, T* values, int64_t* indices, Window2d w, int64_t numel) {
  const int64_t e = static_cast<int64_t>(blockIdx.x) * kConvThreads + threadIdx.x;
  if (e < numel) max_pool2d_element(input, values, indices, w, e);
}

using impl::device_ptr;
using impl::launch_per_element;

void im2col(const Tensor& input, const Tensor& cols, const Window2d& w) {
  launch_per_element<kConvThreads>(
      "im2col", cols, [&](auto tag, unsigned blocks, cudaStream_t stream, int64_t numel) {
        using T = typename decltype(tag)::type;
        im2col_kernel<T><<<blocks, kConvThreads, 0, stream>>>(device_ptr<const T>(input),
                                                              device_ptr<T>(cols), w, numel);
      });
}

void col2im(const Tensor& cols, const Tensor& out, const Window2d& w) {
  launch_per_element<kConvThreads>(
      "col2im", out, [&](auto tag, unsigned blocks, cudaStream_t stream, int64_t numel) {
        using T = typename decltype(tag)::type;
        col2im_kernel<T><<<blocks, kConvThreads, 0, stream>>>(device_ptr<const T>(cols),
                                                              device_ptr<T>(out), w, numel);
      });
}

void max_pool2d(const Tensor& input, const Tensor& values, const Tensor& indices,
                const Window2d& w) {
  launch_per_element<kConvThreads>(
      "max_pool2d", values, [&](auto tag, unsigned blocks, cudaStream_t stream, int64_t numel) {
        using T = typename decltype(tag)::type;
        max_pool2d_kernel<T>
            <<<blocks, kConvThreads, 0, stream>>>(device_ptr<const T>(input), device_ptr<T>(values),
                                                  device_ptr<int64_t>(indices), w, numel);
      });
}

}  // namespace

void register_conv_kernels() {
  kernels::im2col_stub.set(DeviceType::CUDA, &im2col);
  kernels::col2im_stub.set(DeviceType::CUDA, &col2im);
  kernels::max_pool2d_stub.set(DeviceType::CUDA, &max_pool2d);
}

}  // namespace ember::cuda
