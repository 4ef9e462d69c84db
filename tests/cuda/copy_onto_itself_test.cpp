// copy_ from a tensor onto its own elements changes nothing (the CUDA kernel then moves no byte,
// src/cuda/copy_kernels.cu), while a source that starts at the same address but walks it
// differently is still copied. On every device.
#include <gtest/gtest.h>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

using test::expect_values;

TEST(CopyOntoItself, SameElementsStayAndOtherStridesCopy) {
  for (Device device : test::all_devices()) {
    SCOPED_TRACE(device.str());
    Tensor x = arange(6, TensorOptions(kFloat32).device(device)).view({2, 3});
    x.copy_(x);
    expect_values<float>(x, {2, 3}, {0, 1, 2, 3, 4, 5});
    Tensor columns = x.t();
    columns.copy_(columns);
    expect_values<float>(x, {2, 3}, {0, 1, 2, 3, 4, 5});
    // The first element everywhere: same address, stride 0.
    Tensor row = x[1];
    row.copy_(row.narrow(0, 0, 1).expand({3}));
    expect_values<float>(x, {2, 3}, {0, 1, 2, 3, 3, 3});
  }
}

}  // namespace
}  // namespace ember
