// cumprod (the cumsum scan with a product) and its gradient, zeros included, against values from
// PyTorch 1.13; cumsum_ and cumprod_ in place.
#include <vector>

#include "test_util.h"

namespace ember {
namespace {

using test::expect_close;
using test::expect_values;

TEST(Cumprod, ValuesDtypesAndDims) {
  for (Device device : test::all_devices()) {
    Tensor x = tensor({{2.f, 0.f, 3.f, 0.f, 5.f}, {1.5f, -2.f, 4.f, 0.5f, 1.f}}).to(device);
    expect_close(x.cumprod(1).cpu(), {2, 5}, {2, 0, 0, 0, 0, 1.5, -3, -12, -6, -6});
    expect_close(cumprod(x, 0).cpu(), {2, 5}, {2, 0, 3, 0, 5, 3, 0, 12, 0, 5});
    // Integers and bool scan into int64, unless a dtype is given.
    Tensor ints = tensor({{1, 2, 3}, {4, 5, 6}}, kInt16).to(device);
    expect_values<int64_t>(ints.cumprod(1).cpu(), {2, 3}, {1, 2, 6, 4, 20, 120});
    expect_values<int64_t>(tensor({true, true, false}).to(device).cumprod(0).cpu(), {3}, {1, 1, 0});
    Tensor as_double = tensor({1, 2, 3}).to(device).cumprod(0, kFloat64);
    EXPECT_EQ(as_double.scalar_type(), kFloat64);
    expect_close(as_double.cpu(), {3}, {1, 2, 6});
  }
}

TEST(Cumprod, LongLinesMatchASequentialProduct) {
  // 5000 values near 1 along rows and along columns: every CPU and GPU path of the scan.
  Tensor x = 1 + 1e-4 * randn({3, 5000}, kFloat64);
  std::vector<double> v = x.to_vector<double>(), want(v.size());
  for (size_t r = 0; r < 3; ++r)
    for (size_t k = 0, at = r * 5000; k < 5000; ++k, ++at)
      want[at] = k == 0 ? v[at] : want[at - 1] * v[at];
  for (Device device : test::all_devices()) {
    expect_close(x.to(device).cumprod(1).cpu(), {3, 5000}, want, 1e-12, 1e-12);
    expect_close(x.t().contiguous().to(device).cumprod(0).t().cpu(), {3, 5000}, want, 1e-12, 1e-12);
  }
}

TEST(Cumprod, GradientWithAndWithoutZeros) {
  // From torch: x.cumprod(1).backward(g).
  Tensor x = tensor({{2.0, 0.0, 3.0, 0.0, 5.0}, {1.5, -2.0, 4.0, 0.5, 1.0}}).requires_grad_();
  Tensor y = x.cumprod(1);
  EXPECT_EQ(y.grad_fn()->name(), "CumprodBackward0");
  y.backward(tensor({{1.0, 2.0, 3.0, 4.0, 5.0}, {1.0, -1.0, 2.0, 0.5, 3.0}}));
  expect_close(x.grad(), {2, 5}, {1, 22, 0, 0, 0, -27, 21, -11.25, -42, -18});

  Tensor leading = tensor({0.0, 2.0, 3.0}).requires_grad_();
  leading.cumprod(0).sum().backward();
  expect_close(leading.grad(), {3}, {9, 0, 0});  // the first zero gets 1 + 2 + 2 * 3

  Tensor two_zeros = tensor({0.0, 0.0}).requires_grad_();
  two_zeros.cumprod(0).sum().backward();
  expect_close(two_zeros.grad(), {2}, {1, 0});

  Tensor columns = tensor({{1.0, 2.0}, {0.0, 3.0}, {4.0, 0.0}}).requires_grad_();
  columns.cumprod(0).backward(ones({3, 2}, kFloat64));
  expect_close(columns.grad(), {3, 2}, {1, 4, 5, 2, 0, 6});
}

TEST(Cumprod, InPlaceForms) {
  Tensor acc = tensor({{1, 2, 3}, {4, 5, 6}});
  Tensor& same = acc.cumsum_(1);
  EXPECT_TRUE(same.is_same(acc));
  expect_values<int64_t>(acc, {2, 3}, {1, 3, 6, 4, 9, 15});
  acc.cumprod_(0);
  expect_values<int64_t>(acc, {2, 3}, {1, 3, 6, 4, 27, 90});
  // Under autograd: through a clone, with the scan's history.
  Tensor leaf = tensor({1.0, 2.0, 3.0}).requires_grad_();
  Tensor z = leaf * 1;
  z.cumprod_(0);
  expect_close(z, {3}, {1, 2, 6});
  z.sum().backward();
  expect_close(leaf.grad(), {3}, {9, 4, 2});
  EXPECT_NE(test::error_of([&] {
              tensor({1, 2}, kInt32).cumsum_(0, kFloat32);
            }).find("can't be cast"),
            std::string::npos);
}

}  // namespace
}  // namespace ember
