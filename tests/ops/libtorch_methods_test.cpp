// The reductions, sorting and selection as LibTorch's methods: the overloads whose choice
// matters (max/min tuples, std/var), and the forms that are new (scatter with a value in
// place, where's Scalar and one-argument forms, isclose), against values from PyTorch 1.13.
#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

#include "test_util.h"

namespace ember {
namespace {

using test::expect_close;
using test::expect_values;

Tensor data() { return tensor({{3.f, 1.f, 4.f}, {1.5f, 5.f, 9.f}}); }

TEST(LibTorchMethods, MaxAndMinAlongADimAreTuples) {
  auto [values, indices] = data().max(1);
  expect_close(values, {2}, {4, 9});
  expect_values<int64_t>(indices, {2}, {2, 2});
  auto [low, where_low] = data().min(0, /*keepdim=*/true);
  expect_close(low, {1, 3}, {1.5, 1, 4});
  expect_values<int64_t>(where_low, {1, 3}, {1, 0, 0});
  // Ties give the first index; a tensor argument is elementwise.
  expect_values<int64_t>(std::get<1>(tensor({2, 7, 7, 1, 1}).max(0)), {}, {1});
  expect_values<int64_t>(std::get<1>(tensor({2, 7, 7, 1, 1}).min(0)), {}, {3});
  expect_close(data().max(full({3}, 2.f)), {2, 3}, {3, 2, 4, 2, 5, 9});
  expect_close(max(data(), zeros({3})), {2, 3}, {3, 1, 4, 1.5, 5, 9});
  expect_close(data().amin(std::vector<int64_t>{0, 1}), {}, {1});
}

TEST(LibTorchMethods, StdAndVarOverloads) {
  const Tensor x = data();
  expect_close(x.var(), {}, {8.441667}, 1e-5);
  expect_close(x.var(true), {}, {8.441667}, 1e-5);  // unbiased, not dims = {1}
  expect_close(var(x, true), {}, {8.441667}, 1e-5);
  expect_close(x.var(false), {}, {7.034722}, 1e-5);
  expect_close(x.std(false), {}, {2.652305}, 1e-5);
  expect_close(x.std(0), {3}, {1.06066, 2.828427, 3.535534}, 1e-5);  // an int is a dim
  expect_close(x.var(1), {2}, {2.333333, 14.083333}, 1e-5);
  expect_close(x.std({1}, false, true), {2, 1}, {1.247219, 3.064129}, 1e-5);
  // The correction form (PyTorch 2's Scalar): N - 2 and N - 0.
  expect_close(x.var({1}, Scalar(2)), {2}, {4.666667, 28.166667}, 1e-5);
  expect_close(std(x, {0}, Scalar(0)), {3}, {0.75, 2, 2.5}, 1e-5);
  EXPECT_TRUE(std::isnan(ones({1}).var().item<float>()));
}

TEST(LibTorchMethods, SortArgsortAndTopk) {
  const Tensor ties = tensor({3, 1, 3, 2, 1});
  auto [sorted, order] = ties.sort(/*stable=*/true, 0, /*descending=*/true);
  expect_values<int64_t>(sorted, {5}, {3, 3, 2, 1, 1});
  expect_values<int64_t>(order, {5}, {0, 2, 3, 1, 4});
  expect_values<int64_t>(data().argsort(1, true), {2, 3}, {2, 0, 1, 2, 1, 0});
  auto [top, where_top] = data().topk(2, -1, /*largest=*/false);
  expect_close(top, {2, 2}, {1, 3, 1.5, 5});
  expect_values<int64_t>(where_top, {2, 2}, {1, 0, 0, 1});
}

TEST(LibTorchMethods, ScatterWithAValueAndInPlace) {
  const Tensor spots = tensor({{0, 3}, {1, 2}, {2, 0}});
  expect_close(zeros({3, 4}).scatter(1, spots, 2.5), {3, 4},
               {2.5, 0, 0, 2.5, 0, 2.5, 2.5, 0, 2.5, 0, 2.5, 0});
  Tensor z = zeros({3, 4});
  Tensor& same = z.scatter_(0, tensor({{2, 1, 0, 1}}), full({1, 4}, 7.f));
  EXPECT_TRUE(same.is_same(z));
  z.scatter_(1, spots, -1.5);
  expect_close(z, {3, 4}, {-1.5, 0, 7, -1.5, 0, -1.5, -1.5, 7, -1.5, 0, -1.5, 0});
  Tensor counts = zeros({5}, kInt64);
  counts.scatter_add_(0, tensor({4, 1, 4, 4, 0}), ones({5}, kInt64));
  expect_values<int64_t>(counts, {5}, {1, 1, 0, 0, 3});
  // Under autograd the in-place scatter records the scatter's gradient.
  Tensor leaf = ones({2, 2}).requires_grad_();
  Tensor y = leaf * 2;
  y.scatter_(1, tensor({{1}, {0}}), 0);
  y.sum().backward();
  expect_close(leaf.grad(), {2, 2}, {2, 0, 0, 2});
}

TEST(LibTorchMethods, WhereForms) {
  const Tensor x = arange(6, kFloat32).view({2, 3});
  const Tensor big = x > 2;
  expect_close(x.where(big, -x), {2, 3}, {0, -1, -2, 3, 4, 5});
  const Tensor ints = where(big, 1, 0);
  EXPECT_EQ(ints.scalar_type(), kInt64);
  expect_values<int64_t>(ints, {2, 3}, {0, 0, 0, 1, 1, 1});
  EXPECT_EQ(where(big, 2.5, 1).scalar_type(), kFloat32);  // the default float
  expect_close(where(big, 1.5, x), {2, 3}, {0, 1, 2, 1.5, 1.5, 1.5});
  const std::vector<Tensor> at = where(x.fmod(2) == 0);
  ASSERT_EQ(at.size(), 2u);
  expect_values<int64_t>(at[0], {3}, {0, 0, 1});
  expect_values<int64_t>(at[1], {3}, {0, 2, 1});
  const std::vector<Tensor> scalar = where(scalar_tensor(true));  // a 0-dim condition: one index
  ASSERT_EQ(scalar.size(), 1u);
  expect_values<int64_t>(scalar[0], {1}, {0});
}

TEST(LibTorchMethods, IscloseAndAllclose) {
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  const Tensor a = tensor({1.0, 2.0, nan, inf, 1e-9}, kFloat32);
  const Tensor b = tensor({1.0 + 1e-6, 2.1, nan, inf, 0.0}, kFloat32);
  expect_values<bool>(a.isclose(b), {5}, {true, false, false, true, true});
  expect_values<bool>(isclose(a, b, 1e-5, 1e-8, /*equal_nan=*/true), {5},
                      {true, false, true, true, true});
  expect_values<bool>(a.isclose(b, 0.1), {5}, {true, true, false, true, true});
  EXPECT_FALSE(a.allclose(b));
  EXPECT_TRUE(a.narrow(0, 0, 2).allclose(b.narrow(0, 0, 2), 0.1));
  expect_values<bool>(tensor({1, 5}).isclose(tensor({2, 5}), 0, 1), {2}, {true, true});
  EXPECT_NE(test::error_of([&] { a.isclose(b.to(kFloat64)); }).find("Float did not match Double"),
            std::string::npos);
  EXPECT_TRUE(a.narrow(0, 0, 2).equal(a.narrow(0, 0, 2).clone()));
  EXPECT_FALSE(a.narrow(0, 0, 2).equal(b.narrow(0, 0, 2)));
  EXPECT_FALSE(a.equal(a.clone()));  // NaN is not equal to itself
}

TEST(LibTorchMethods, SplitChunkAndUnbindAreViews) {
  const Tensor x = arange(12, kFloat32).view({3, 4});
  const std::vector<Tensor> rows = x.unbind();
  ASSERT_EQ(rows.size(), 3u);
  expect_close(rows[2], {4}, {8, 9, 10, 11});
  const std::vector<Tensor> columns = x.unbind(1);
  ASSERT_EQ(columns.size(), 4u);
  expect_close(columns[1], {3}, {1, 5, 9});
  EXPECT_EQ(x.split_with_sizes({2, 1})[1].storage_offset(), 8);
  EXPECT_EQ(x.chunk(2, 1)[1].storage_offset(), 2);
}

}  // namespace
}  // namespace ember
