// nonzero, masked_select, and Tensor::index / index_put_ with a bool mask or an integer tensor:
// values, shapes, gradients, devices and errors. Expected values were worked out by hand and
// agree with PyTorch 1.13 (x.nonzero(), x.masked_select(m), x[m], x[:, idx], x[m] = v on the
// same inputs).
#include <cmath>

#include "test_util.h"

namespace ember {
namespace {

using namespace indexing;

using test::error_of;
using test::expect_values;

// [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]] as float32.
Tensor grid() { return arange(12, kFloat32).view({3, 4}); }

TEST(Nonzero, CoordinatesInRowMajorOrder) {
  Tensor m = tensor({{0.0f, 1.5f, 0.0f}, {NAN, 0.0f, -2.0f}});  // NaN is nonzero
  expect_values<int64_t>(nonzero(m), {3, 2}, {0, 1, 1, 0, 1, 2});
  expect_values<int64_t>(tensor({false, true, true}).nonzero(), {2, 1}, {1, 2});
  // Three dims, from a transposed view.
  Tensor t = remainder(arange(8).view({2, 2, 2}).transpose(0, 2), 3) == 0;
  expect_values<int64_t>(nonzero(t), {3, 3}, {0, 0, 0, 0, 1, 1, 1, 1, 0});
}

TEST(Nonzero, EmptyAndZeroDim) {
  EXPECT_EQ(nonzero(zeros({2, 3})).sizes(), IntArrayRef({0, 2}));
  EXPECT_EQ(nonzero(zeros({0, 4})).sizes(), IntArrayRef({0, 2}));
  EXPECT_EQ(nonzero(scalar_tensor(3.0)).sizes(), IntArrayRef({1, 0}));
  EXPECT_EQ(nonzero(scalar_tensor(0.0)).sizes(), IntArrayRef({0, 0}));
  EXPECT_EQ(nonzero(ones({2})).dtype(), kInt64);
}

TEST(MaskedSelect, BroadcastsAndFlattens) {
  Tensor g = grid();
  expect_values<float>(g.masked_select(remainder(g, 3) == 0), {4}, {0, 3, 6, 9});
  expect_values<float>(masked_select(g, tensor({true, false, false, true})), {6},
                       {0, 3, 4, 7, 8, 11});
  // The input broadcasts against the mask too.
  expect_values<int64_t>(masked_select(tensor({{5}, {6}}), tensor({true, false, true})), {4},
                         {5, 5, 6, 6});
  EXPECT_EQ(masked_select(g, zeros({3, 4}, kBool)).sizes(), IntArrayRef({0}));
}

TEST(MaskedSelect, GradientReturnsToSelectedPositions) {
  Tensor x = arange(3, kFloat32).requires_grad_();
  Tensor y = masked_select(x, tensor({{true, false, true}, {false, false, true}}));
  EXPECT_EQ(y.grad_fn()->name(), "MaskedSelectBackward0");
  (y * tensor({1.0f, 2.0f, 3.0f})).sum().backward();
  expect_values<float>(x.grad(), {3}, {1, 0, 5});  // x[2] was selected in both rows
}

TEST(MaskedSelect, Errors) {
  EXPECT_EQ(error_of<TypeError>([] { masked_select(grid(), grid()); }),
            "[masked_select] masked_select: expected BoolTensor for mask, got Float");
  EXPECT_NE(error_of<ValueError>([] {
              masked_select(grid(), zeros({2}, kBool));
            }).find("[masked_select]"),
            std::string::npos);
}

TEST(IndexByTensor, BoolMask) {
  Tensor g = grid();
  expect_values<float>(g.index({g > 6}), {5}, {7, 8, 9, 10, 11});
  expect_values<float>(g.index({tensor({true, false, true})}), {2, 4}, {0, 1, 2, 3, 8, 9, 10, 11});
  expect_values<float>(g.index({Slice(), tensor({false, true, false, true})}), {3, 2},
                       {1, 3, 5, 7, 9, 11});
  // A 0-dim mask adds a dim of one (true) or of none (false), as Python's x[True].
  EXPECT_EQ(g.index({tensor(true)}).sizes(), IntArrayRef({1, 3, 4}));
  EXPECT_EQ(g.index({tensor(false)}).sizes(), IntArrayRef({0, 3, 4}));
}

TEST(IndexByTensor, IntegerTensorShapeReplacesTheDim) {
  Tensor g = grid();
  expect_values<float>(g.index({Slice(), tensor({{3, -1}, {0, 0}})}), {3, 2, 2},
                       {3, 3, 0, 0, 7, 7, 4, 4, 11, 11, 8, 8});
  expect_values<float>(g.index({tensor({2}).to(kInt32), 1}), {1}, {9});
  expect_values<float>(g.index({None, tensor({-1, 0})}), {1, 2, 4}, {8, 9, 10, 11, 0, 1, 2, 3});
}

TEST(IndexByTensor, ZeroDimIntegerTensorIsAnInteger) {
  // A select: a view, not a copy, and not counted as the one tensor index.
  Tensor g = arange(24, kFloat32).view({2, 3, 4});
  expect_values<float>(g.index({scalar_tensor(1, kInt64), Slice(), tensor({0})}), {3, 1},
                       {12, 16, 20});
  Tensor row = g.index({scalar_tensor(-1, kInt32)});
  EXPECT_TRUE(row.is_alias_of(g));
  expect_values<float>(row.select(1, 0), {3}, {12, 16, 20});
  // PyTorch takes a uint8 index as a mask; ember refuses uint8 indices of any shape.
  EXPECT_THROW(g.index({scalar_tensor(0, kUInt8)}), TypeError);
}

TEST(IndexByTensor, GradientNamesIndexBackward) {
  Tensor x = arange(4, kFloat32).requires_grad_();
  Tensor y = x.index({tensor({0, 0, 3})});
  EXPECT_EQ(y.grad_fn()->name(), "IndexBackward0");
  EXPECT_EQ(x.index({x > 1}).grad_fn()->name(), "IndexBackward0");
  y.sum().backward();
  expect_values<float>(x.grad(), {4}, {2, 0, 0, 1});
}

TEST(IndexByTensor, Errors) {
  Tensor g = grid();
  EXPECT_EQ(error_of<IndexError>([&] { g.index({tensor({5})}); }),
            "[index] index 5 is out of bounds for dimension 0 with size 3");
  EXPECT_EQ(error_of<IndexError>([&] { g.index({tensor({-4})}); }),
            "[index] index -4 is out of bounds for dimension 0 with size 3");
  EXPECT_EQ(error_of<IndexError>([&] {
              g.index({tensor({true, false})});
            }),
            "[index] The shape of the mask [2] at index 0 does not match the shape of the indexed "
            "tensor [3, 4] at index 0");
  EXPECT_EQ(error_of<TypeError>([&] { g.index({g}); }),
            "[index] tensors used as indices must be long, int or bool tensors, got Float");
  // The dim PyTorch names is the index tensor's place among the tensor indices.
  EXPECT_EQ(error_of<IndexError>([&] {
              g.index({tensor({0}), tensor({4})});
            }),
            "[index] index 4 is out of bounds for dimension 1 with size 4");
  EXPECT_EQ(error_of<IndexError>([&] {
              g.index({ones({3, 4, 1}, kBool)});
            }),
            "[index] too many indices for tensor of dimension 2 (got 3)");
  EXPECT_NE(error_of<ValueError>([&] { g.index({Tensor()}); }).find("index"), std::string::npos);
}

TEST(IndexPut, WritesWhereIndexSelects) {
  auto put = [](std::initializer_list<TensorIndex> at, const Tensor& value) {
    Tensor a = grid();
    a.index_put_(at, value);
    return a;
  };
  Tensor g = grid();
  expect_values<float>(grid().index_put_({g > 6}, 0), {3, 4}, {0, 1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0});
  expect_values<float>(put({tensor({true, false, true})}, tensor({-1.f, -2.f, -3.f, -4.f})), {3, 4},
                       {-1, -2, -3, -4, 4, 5, 6, 7, -1, -2, -3, -4});
  expect_values<float>(put({Slice(), tensor({3, -4})}, tensor({{10.f, 20.f}})), {3, 4},
                       {20, 1, 2, 10, 20, 5, 6, 10, 20, 9, 10, 10});
  expect_values<float>(grid().index_put_({Slice(1), tensor({{0}, {2}})}, 7), {3, 4},
                       {0, 1, 2, 3, 7, 5, 7, 7, 7, 9, 7, 11});
  expect_values<float>(put({g > 8}, tensor({100.f, 200.f, 300.f})), {3, 4},
                       {0, 1, 2, 3, 4, 5, 6, 7, 8, 100, 200, 300});
  expect_values<float>(put({1, Slice(1, 3)}, tensor({-5.f, -6.f})), {3, 4},
                       {0, 1, 2, 3, 4, -5, -6, 7, 8, 9, 10, 11});
  // Through a transposed view: the write reaches the base's storage.
  Tensor base = grid();
  Tensor t = base.t();
  t.index_put_({t > 9}, 1);
  expect_values<float>(base, {3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 1});
}

TEST(IndexPut, GradientFlowsWhereNothingWasWritten) {
  Tensor x = ones({3}).requires_grad_();
  Tensor y = x * 2;
  y.index_put_({tensor({0, 2})}, scalar_tensor(5.f));
  y.sum().backward();
  expect_values<float>(x.grad(), {3}, {0, 2, 0});
  EXPECT_NE(error_of<Error>([&] {
              x.index_put_({tensor({0})}, 1);
            }).find("[index_put_] a leaf Variable that requires grad"),
            std::string::npos);
  // With a slice too, and a value that requires grad: its gradient is gathered back.
  Tensor a = arange(6, kFloat32).view({2, 3}).requires_grad_();
  Tensor v = tensor({10.f, 20.f}).requires_grad_();
  Tensor z = a * 1;
  z.index_put_({Slice(), tensor({1})}, v.view({2, 1}));
  (z * arange(6, kFloat32).view({2, 3})).sum().backward();
  expect_values<float>(z, {2, 3}, {0, 10, 2, 3, 20, 5});
  expect_values<float>(a.grad(), {2, 3}, {0, 0, 2, 3, 0, 5});
  expect_values<float>(v.grad(), {2}, {1, 4});
}

TEST(IndexPut, ValueRules) {
  // Leading dims of size 1 are dropped before broadcasting; a number, or a value written into a
  // plain view, converts to the tensor's dtype.
  expect_values<float>(grid().index_put_({tensor({0})}, ones({1, 1, 4})), {3, 4},
                       {1, 1, 1, 1, 4, 5, 6, 7, 8, 9, 10, 11});
  expect_values<float>(grid().index_put_({Slice(0, 2), 0}, tensor({-1.0, -2.0})), {3, 4},
                       {-1, 1, 2, 3, -2, 5, 6, 7, 8, 9, 10, 11});
  expect_values<float>(grid().index_put_({tensor({true, false, true})}, scalar_tensor(1.0)), {3, 4},
                       {1, 1, 1, 1, 4, 5, 6, 7, 1, 1, 1, 1});
  expect_values<float>(grid().index_put_({tensor({false, true, false})}, ones({1}, kFloat64)),
                       {3, 4}, {0, 1, 2, 3, 1, 1, 1, 1, 8, 9, 10, 11});
  // A number through a mask fills along the dims after it (PyTorch's masked_fill path).
  expect_values<float>(grid().index_put_({tensor({false, true, true}), Slice(1, 3)}, 5), {3, 4},
                       {0, 1, 2, 3, 4, 5, 5, 7, 8, 5, 5, 11});
  // Through integer positions the dtypes must match, even for a number, as in PyTorch.
  EXPECT_THROW(grid().index_put_({tensor({0})}, scalar_tensor(2.5, kFloat64)), TypeError);
  // A row of an expanded tensor is one row of memory: writing it is fine.
  Tensor base = zeros({3});
  Tensor rows = base.expand({3, 3});
  rows.index_put_({0}, tensor({1.f, 2.f, 3.f}));
  expect_values<float>(base, {3}, {1, 2, 3});
}

TEST(IndexPut, Errors) {
  Tensor g = grid();
  EXPECT_EQ(error_of<IndexError>([&] { g.index_put_({tensor({3})}, 1); }),
            "[index_put_] index 3 is out of bounds for dimension 0 with size 3");
  EXPECT_EQ(error_of<IndexError>([&] { g.index_put_({tensor({-4})}, 1); }),
            "[index_put_] index -4 is out of bounds for dimension 0 with size 3");
  EXPECT_EQ(error_of<ValueError>([&] {
              g.index_put_({g > 6}, tensor({1.f, 2.f}));
            }),
            "[index_put_] shape mismatch: value tensor of shape [2] cannot be broadcast to "
            "indexing result of shape [5]");
  EXPECT_EQ(error_of<TypeError>([&] { g.index_put_({tensor({0})}, tensor({1})); }),
            "[index_put_] Index put requires the source and destination dtypes match, got Float "
            "for the destination and Long for the source");
  EXPECT_NE(error_of<ValueError>([&] { g.index_put_({0}, 1e40); }).find("[index_put_]"),
            std::string::npos);
  expect_values<float>(g, {3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});  // nothing written
}

// The same selections on every device; a CPU index works for a GPU tensor, as in PyTorch.
TEST(IndexByTensor, SameValuesOnEveryDevice) {
  for (Device d : test::all_devices()) {
    Tensor g = grid().to(d);
    expect_values<float>(g.index({tensor({true, false, true})}), {2, 4},
                         {0, 1, 2, 3, 8, 9, 10, 11});
    expect_values<float>(g.index({Slice(), tensor({-1}).to(d)}), {3, 1}, {3, 7, 11});
    expect_values<int64_t>(nonzero(remainder(g, 5) == 0), {3, 2}, {0, 0, 1, 1, 2, 2});
    expect_values<float>(masked_select(g, (g > 9).to(d)), {2}, {10, 11});
    g.index_put_({g < 2}, -1);
    g.index_put_({Slice(), tensor({3})}, tensor({{7.f}, {8.f}, {9.f}}).to(d));
    expect_values<float>(g, {3, 4}, {-1, -1, 2, 7, 4, 5, 6, 8, 8, 9, 10, 9});
  }
}

}  // namespace
}  // namespace ember
