// CPU kernel of the scans (cumsum, cumprod): each column block carries its running folds row by
// row, with the functor kernels::with_scan_op picks for the scan.
#include "cpu/column_blocks.h"
#include "cpu/kernels.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/functors.h"
#include "kernels/reduce_dispatch.h"
#include "kernels/reduce_functors.h"
#include "kernels/reduce_stubs.h"

namespace ember::cpu {
namespace {

using namespace kernels;

void scan_kernel(const Tensor& in, const Tensor& out, int64_t dim, ScanKind kind) {
  const Lines lines(in.sizes().data(), in.dim(), dim);
  if (in.numel() == 0) return;
  dispatch_dtype(in.scalar_type(), scan_name(kind), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Acc = scan_acc_t<T>;
    const T* x = static_cast<const T*>(in.data_ptr());
    T* y = static_cast<T*>(out.data_ptr());
    with_scan_op<Acc>(kind, [&](auto op) {
      for_each_column_block(lines, [&](int64_t base, int64_t width) {
        Acc acc[kColumnBlock];
        for (int64_t k = 0; k < width; ++k) acc[k] = op.identity();
        for (int64_t i = 0; i < lines.n; ++i) {
          int64_t row = base + i * lines.inner;
          for (int64_t k = 0; k < width; ++k) {
            acc[k] = op.reduce(acc[k], static_cast<opmath_t<T>>(x[row + k]), i);
            y[row + k] = convert<T>(acc[k]);
          }
        }
      });
    });
  });
}

}  // namespace

void register_scan_kernels() { scan_stub.set(DeviceType::CPU, &scan_kernel); }

}  // namespace ember::cpu
