// CPU kernels that write without computing: copy with dtype conversion, fill, random draws.
#include <cstring>

#include "core/tensor_impl.h"
#include "cpu/kernels.h"
#include "cpu/loops.h"
#include "kernels/elementwise_stubs.h"
#include "kernels/philox.h"
#include "kernels/scalar_cast.h"

namespace ember::cpu {
namespace {

using namespace kernels;

void copy_kernel(TensorIter& it) {
  if (it.dtypes[0] == it.dtypes[1] && it.is_contiguous()) {
    size_t esize = elementSize(it.dtypes[0]);
    parallel_for(it.numel, kGrainSize * 8, [&](int64_t b, int64_t e) {
      std::memcpy(it.data[0] + b * esize, it.data[1] + b * esize, (e - b) * esize);
    });
    return;
  }
  dispatch_dtype(it.dtypes[0], "copy_", [&](auto out_tag) {
    using O = typename decltype(out_tag)::type;
    dispatch_dtype(it.dtypes[1], "copy_", [&](auto in_tag) {
      using I = typename decltype(in_tag)::type;
      cpu_kernel<O, I>(it, [](opmath_t<I> v) { return v; });
    });
  });
}

void fill_kernel(TensorIter& it, Scalar value) {
  dispatch_dtype(it.dtypes[0], "fill_", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = kernels::scalar_cast<T>(value);
    cpu_kernel<T>(it, [v]() { return v; });
  });
}

void random_kernel(const Tensor& out, RandomKind kind, double a, double b, uint64_t seed,
                   uint64_t offset) {
  dispatch_dtype(out.scalar_type(), "random", [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = static_cast<T*>(out.data_ptr());
    parallel_for(out.numel(), kGrainSize / 8, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const auto idx = static_cast<uint64_t>(i);
        // The value math is shared with the CUDA kernel: Note [CPU and CUDA random streams].
        // convert, not static_cast: defined for any v (Note [Float to integer conversion]).
        if (kind == RandomKind::Integer) {
          p[i] =
              convert<T>(convert<opmath_t<T>>(integer_value(a, b, random_bits(seed, offset, idx))));
          continue;
        }
        const double v = kind == RandomKind::Normal
                             ? normal_value(a, b, seed, offset, idx)
                             : uniform_value<T>(a, b, random_bits(seed, offset, idx));
        p[i] = convert<T>(convert<opmath_t<T>>(v));
      }
    });
  });
}

}  // namespace

void register_copy_kernels() {
  using namespace kernels;
  copy_stub.set(DeviceType::CPU, &copy_kernel);
  fill_stub.set(DeviceType::CPU, &fill_kernel);
  random_stub.set(DeviceType::CPU, &random_kernel);
}

}  // namespace ember::cpu
