// CPU kernel of cumsum: each column block carries its running sums row by row.
#include "cpu/column_blocks.h"
#include "cpu/kernels.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/functors.h"
#include "kernels/reduce_functors.h"
#include "kernels/reduce_stubs.h"
#include "kernels/wrap_int.h"

namespace ember::cpu {
namespace {

using namespace kernels;

void cumsum_kernel(const Tensor& in, const Tensor& out, int64_t dim) {
  const Lines lines(in.sizes().data(), in.dim(), dim);
  if (in.numel() == 0) return;
  dispatch_dtype(in.scalar_type(), "cumsum", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Acc = cumsum_acc_t<T>;
    const T* x = static_cast<const T*>(in.data_ptr());
    T* y = static_cast<T*>(out.data_ptr());
    for_each_column_block(lines, [&](int64_t base, int64_t width) {
      Acc acc[kColumnBlock] = {};
      for (int64_t i = 0; i < lines.n; ++i) {
        int64_t row = base + i * lines.inner;
        for (int64_t k = 0; k < width; ++k) {
          acc[k] = wrap_add(acc[k], static_cast<Acc>(static_cast<opmath_t<T>>(x[row + k])));
          y[row + k] = convert<T>(acc[k]);
        }
      }
    });
  });
}

}  // namespace

void register_cumsum_kernels() { cumsum_stub.set(DeviceType::CPU, &cumsum_kernel); }

}  // namespace ember::cpu
