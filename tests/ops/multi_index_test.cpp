// Python's advanced indexing through Tensor::index / index_put_: several tensor indices
// broadcast together, mixed with integers, slices, None, "..." and true/false; index_put_ with
// accumulate; the List forms; the gradients; x[i] with a Scalar or a 0-dim tensor. Expected
// values are PyTorch 1.13's for the same expressions (x[...] and x[...] = v in Python).
#include <sstream>

#include "test_util.h"

namespace ember {
namespace {

using namespace indexing;

using test::error_of;
using test::expect_values;

Tensor cube() { return arange(24, kFloat32).view({2, 3, 4}); }
Tensor grid() { return arange(12, kFloat32).view({3, 4}); }

TEST(AdvancedIndex, IndexPairsBroadcast) {
  const Tensor m = grid();
  expect_values<float>(m.index({tensor({0, 2, 2}), tensor({1, 3, 0})}), {3}, {1, 11, 8});
  expect_values<float>(m.index({tensor({{0}, {2}}), tensor({1, 3})}), {2, 2}, {1, 3, 9, 11});
  // A bool mask is the coordinates of its true elements, paired like any index.
  expect_values<float>(m.index({tensor({true, false, true}), tensor({1, 2})}), {2}, {1, 10});
  // The List form, an empty optional taking the whole dim.
  const List<std::optional<Tensor>> cols({std::nullopt, tensor({3, 0})});
  expect_values<float>(m.index(cols), {3, 2}, {3, 0, 7, 4, 11, 8});
  // A 2-dim mask in a List covers two dims, as in at::index.
  const Tensor x = cube();
  const List<std::optional<Tensor>> mask_then_index(
      {tensor({{true, false, true}, {false, false, true}}), tensor({3, 0, 1})});
  expect_values<float>(x.index(mask_then_index), {3}, {3, 8, 21});
}

TEST(AdvancedIndex, AdjacentIndicesStayInPlaceSeparatedOnesGoFirst) {
  const Tensor x = cube();
  expect_values<float>(x.index({Slice(), tensor({0, 2}), tensor({1, 3})}), {2, 2}, {1, 11, 13, 23});
  expect_values<float>(x.index({tensor({0, 1}), Slice(), tensor({3, 0})}), {2, 3},
                       {3, 7, 11, 12, 16, 20});
  expect_values<float>(x.index({tensor({{1}, {0}}), Slice(1), tensor({0, 2})}), {2, 2, 2},
                       {16, 20, 18, 22, 4, 8, 6, 10});
  // None between them separates them too.
  expect_values<float>(x.index({None, tensor({1}), Slice(), tensor({2})}), {1, 1, 3}, {14, 18, 22});
  expect_values<float>(x.index({"...", tensor({3, 1})}), {2, 3, 2},
                       {3, 1, 7, 5, 11, 9, 15, 13, 19, 17, 23, 21});
}

TEST(AdvancedIndex, BoolItemsAndMasksBeforeOtherIndices) {
  const Tensor x = cube();
  EXPECT_EQ(x.index({true}).sizes(), IntArrayRef({1, 2, 3, 4}));
  EXPECT_EQ(x.index({Slice(), false, 1}).sizes(), IntArrayRef({2, 0, 4}));
  expect_values<float>(x.index({1, true, tensor({0, 2})}), {2, 4},
                       {12, 13, 14, 15, 20, 21, 22, 23});
  // A 2-dim mask covers two dims, so the slice after it takes the third (NumPy and PyTorch 2.x;
  // 1.13 slices the second).
  expect_values<float>(x.index({tensor({{true, false, true}, {false, false, true}}), Slice(1, 3)}),
                       {3, 2}, {1, 2, 9, 10, 21, 22});
}

TEST(AdvancedIndex, SliceItems) {
  const Tensor x = cube();
  expect_values<float>(x.index({Slice(None, None, 2), Slice(1, 3, 1), 0}), {1, 2}, {4, 8});
  EXPECT_EQ(x.index({0, Slice(3, 1)}).sizes(), IntArrayRef({0, 4}));
  const std::vector<TensorIndex> dynamic{0, Slice(1, 3)};
  expect_values<float>(x.index(dynamic), {2, 4}, {4, 5, 6, 7, 8, 9, 10, 11});
  std::ostringstream printed;
  printed << Slice(1, None, 2);
  EXPECT_EQ(printed.str(), "1:9223372036854775807:2");
  printed.str("");
  printed << std::vector<TensorIndex>{None, "...", -1, true, Slice()};
  EXPECT_EQ(printed.str(), "(None, ..., -1, true, 0:9223372036854775807:1)");
  EXPECT_EQ(error_of<ValueError>([] { Slice(0, 2, 0); }), "[Slice] slice step cannot be zero");
  EXPECT_NE(error_of<ValueError>([&] {
              x.index({Slice(None, None, -1)});
            }).find("step must be greater than zero"),
            std::string::npos);
  EXPECT_NE(error_of<ValueError>([&] { x.index({"..x"}); }).find("to represent an ellipsis"),
            std::string::npos);
}

TEST(AdvancedIndex, SubscriptWithScalarOrZeroDimTensor) {
  const Tensor x = cube();
  expect_values<float>(x[tensor(1)][2], {4}, {20, 21, 22, 23});
  EXPECT_EQ(x[Scalar(-1)].sizes(), IntArrayRef({3, 4}));
  EXPECT_NE(error_of<IndexError>([&] { (void)x[Scalar(0.5)]; }).find("integral scalars"),
            std::string::npos);
  EXPECT_NE(error_of<IndexError>([&] {
              (void)x[tensor({0, 1})];
            }).find("scalars (zero-dim)"),
            std::string::npos);
}

TEST(AdvancedIndexPut, WritesTheSelectedElementsInPlace) {
  Tensor b = zeros({2, 3, 4});
  const Tensor storage_before = b;
  b.index_put_({tensor({0, 1}), Slice(), tensor({3, 0})},
               tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}}));
  EXPECT_TRUE(b.is_same(storage_before));
  expect_values<float>(b.index({tensor({0, 1}), Slice(), tensor({3, 0})}), {2, 3},
                       {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(b.sum().item<float>(), 21.f);
  Tensor d = arange(12).view({3, 4});
  d.index_put_({Slice(1), tensor({0, 3})}, tensor({{-1}, {-2}}));
  expect_values<int64_t>(d, {3, 4}, {0, 1, 2, 3, -1, 5, 6, -1, -2, 9, 10, -2});
  // Into a transposed view: the base sees the writes.
  Tensor base = zeros({4, 3});
  base.t().index_put_({tensor({0, 2}), tensor({1, 3})}, 7);
  expect_values<float>(base, {4, 3}, {0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 7});
}

TEST(AdvancedIndexPut, AccumulateAddsRepeatedPositions) {
  Tensor a = zeros({3, 4});
  a.index_put_({tensor({0, 2, 0}), tensor({1, 1, 1})}, tensor({1.f, 2.f, 3.f}), true);
  expect_values<float>(a, {3, 4}, {0, 4, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0});
  Tensor c = zeros({2, 3, 4});
  c.index_put_({tensor({1, 1}), tensor({0, 0})}, ones({4}), true);
  expect_values<float>(c[1], {3, 4}, {2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0});
  Tensor grid_long = zeros({2, 3}, kInt64);
  grid_long.index_put_({tensor({1, 1, 0}), tensor({2, 2, 0})}, tensor({1, 2, 3}), true);
  expect_values<int64_t>(grid_long, {2, 3}, {3, 0, 0, 0, 0, 3});
  // Without accumulate one of the repeated values lands; index_put leaves self as it was.
  const Tensor once = zeros({3}).index_put({tensor({2, 2})}, tensor({4.f, 4.f}));
  expect_values<float>(once, {3}, {0, 0, 4});
}

TEST(AdvancedIndexGrad, IndexScatterAddsTheGradient) {
  Tensor y = grid().requires_grad_();
  Tensor z = y.index({tensor({{0}, {2}}), tensor({1, 1, 3})});
  EXPECT_EQ(z.grad_fn()->name(), "IndexBackward0");
  (z * arange(6, kFloat32).view({2, 3})).sum().backward();
  expect_values<float>(y.grad(), {3, 4}, {0, 1, 0, 2, 0, 0, 0, 0, 0, 7, 0, 5});
  Tensor y2 = cube().requires_grad_();
  y2.index({tensor({0, 0}), Slice(1), tensor({3, 3})}).sum().backward();
  expect_values<float>(y2.grad().index({0, Slice(), 3}), {3}, {0, 2, 2});
  EXPECT_EQ(y2.grad().sum().item<float>(), 4.f);
}

TEST(AdvancedIndexGrad, IndexPutGradients) {
  const Tensor weights = grid();
  {
    Tensor s = zeros({3, 4}).requires_grad_();
    Tensor v = tensor({1.f, 2.f, 3.f}).requires_grad_();
    Tensor t = s * 1;
    t.index_put_({tensor({0, 0, 2}), tensor({1, 1, 3})}, v, true);
    EXPECT_EQ(t.grad_fn()->name(), "IndexPutBackward0");
    expect_values<float>(t, {3, 4}, {0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3});
    (t * weights).sum().backward();
    expect_values<float>(s.grad(), {3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    expect_values<float>(v.grad(), {3}, {1, 1, 11});
  }
  {
    // Through a slice and a broadcast value: self's gradient is zero where values landed.
    Tensor s = zeros({3, 4}).requires_grad_();
    Tensor v = tensor({{5.f}, {6.f}}).requires_grad_();
    Tensor t = s * 1;
    t.index_put_({Slice(1), tensor({0, 2})}, v);
    expect_values<float>(t, {3, 4}, {0, 0, 0, 0, 5, 0, 5, 0, 6, 0, 6, 0});
    (t * weights).sum().backward();
    expect_values<float>(s.grad(), {3, 4}, {0, 1, 2, 3, 0, 5, 0, 7, 0, 9, 0, 11});
    expect_values<float>(v.grad(), {2, 1}, {10, 18});
  }
}

TEST(AdvancedIndex, Errors) {
  const Tensor a = ones({2, 3});
  EXPECT_EQ(error_of<IndexError>([&] {
              a.index({tensor({0, 1}), tensor({0, 1, 2})});
            }),
            "[index] shape mismatch: indexing tensors could not be broadcast together with "
            "shapes [2], [3]; tensor indices pair up elementwise: give them shapes that "
            "broadcast (rows.view({-1, 1}) with cols selects every row-column pair)");
  EXPECT_EQ(error_of<IndexError>([&] {
              a.index({tensor({-3}), 0});
            }),
            "[index] index -3 is out of bounds for dimension 0 with size 2");
  EXPECT_NE(error_of<IndexError>([] {
              scalar_tensor(5).index({0});
            }).find("invalid index of a 0-dim tensor"),
            std::string::npos);
  Tensor b = zeros({2, 3});
  EXPECT_EQ(error_of<IndexError>([&] {
              b.index_put_({tensor({0}), tensor({3})}, ones({1}), true);
            }),
            "[index_put_] index 3 is out of bounds for dimension 1 with size 3");
  EXPECT_EQ(error_of<IndexError>([&] {
              b.index_put_({tensor({0}), tensor({0}), tensor({0})}, ones({1}));
            }),
            "[index_put_] too many indices for tensor of dimension 2 (got 3)");
}

// The same selections and writes on every device; CPU indices work for a GPU tensor.
TEST(AdvancedIndex, SameValuesOnEveryDevice) {
  for (Device d : test::all_devices()) {
    Tensor x = cube().to(d);
    expect_values<float>(x.index({tensor({0, 1}), Slice(), tensor({3, 0}).to(d)}), {2, 3},
                         {3, 7, 11, 12, 16, 20});
    Tensor acc = zeros({3}, TensorOptions(kFloat32).device(d));
    acc.index_put_({tensor({0, 2, 0}).to(d)}, ones({3}).to(d), true);
    expect_values<float>(acc, {3}, {2, 0, 1});
    Tensor acc_long = zeros({2, 3}, TensorOptions(kInt64).device(d));
    acc_long.index_put_({tensor({1, 1}), tensor({2, 2})}, tensor({5, 6}).to(d), true);
    expect_values<int64_t>(acc_long, {2, 3}, {0, 0, 0, 0, 0, 11});
  }
}

}  // namespace
}  // namespace ember
