// In-place ops on views of tensors in a graph (Note [Views in autograd]): the base's history
// becomes CopySlices, the view's AsStridedBackward0, and the gradients are PyTorch's. Expected
// values come from PyTorch 1.13 running the same program in Python, with
//   x = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)
//   y = torch.tensor([10., 20.], requires_grad=True)
//   w = torch.tensor([[1., 2.], [3., 4.], [5., 6.]])
// and the Python form of each test's lines (x.grad.tolist(), ...).
#include <gtest/gtest.h>

#include <string>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

using namespace indexing;
using test::error_of;
using test::expect_close;

struct Inputs {
  Tensor x = tensor({1.0, 2.0, 3.0, 4.0, 5.0, 6.0}).view({3, 2}).requires_grad_();
  Tensor y = tensor({10.0, 20.0}).requires_grad_();
  Tensor w = tensor({1.0, 2.0, 3.0, 4.0, 5.0, 6.0}).view({3, 2});
};

TEST(InPlaceOnView, ColumnOfANonLeaf) {
  Inputs in;
  Tensor a = in.x * 1;
  a.index({Slice(), 0}).mul_(2);
  expect_close(a, {3, 2}, {2, 2, 6, 4, 10, 6});
  a.sum().backward();
  expect_close(in.x.grad(), {3, 2}, {2, 1, 2, 1, 2, 1});
}

TEST(InPlaceOnView, GraphNodesAreNamedAsPyTorch) {
  Inputs in;
  Tensor a = in.x * in.x;
  Tensor row = a[1];
  EXPECT_EQ(row.grad_fn()->name(), "SelectBackward0");
  row.add_(in.y * in.y);
  EXPECT_EQ(a.grad_fn()->name(), "CopySlices");
  EXPECT_EQ(row.grad_fn()->name(), "AsStridedBackward0");
  EXPECT_EQ(a[1].grad_fn()->name(), "SelectBackward0");  // a new view of the new history
  (a * in.w).sum().backward();
  expect_close(in.x.grad(), {3, 2}, {2, 8, 18, 32, 50, 72});
  expect_close(in.y.grad(), {2}, {60, 160});
}

TEST(InPlaceOnView, ViewsOfViews) {
  Inputs in;
  Tensor a = in.x * 2;
  Tensor v = a.t()[1].narrow(0, 1, 2);
  v.mul_(in.y[0]);
  EXPECT_EQ(v.grad_fn()->name(), "AsStridedBackward0");
  (a * in.w).sum().backward();
  expect_close(in.x.grad(), {3, 2}, {2, 4, 6, 80, 10, 120});
  expect_close(in.y.grad(), {2}, {104, 0});

  Inputs again;
  Tensor b = again.x * 1;
  b.view({6}).slice(0, 0, 6, 2).mul_(3);  // a.view(6)[::2].mul_(3)
  (b * again.w).sum().backward();
  expect_close(again.x.grad(), {3, 2}, {3, 2, 9, 4, 15, 6});
}

TEST(InPlaceOnView, TransposedViewTwice) {
  Inputs in;
  Tensor a = in.x * 1;
  Tensor v = a.transpose(0, 1);
  v.add_(ones({2, 3}));
  v.mul_(3);
  expect_close(a, {3, 2}, {6, 9, 12, 15, 18, 21});
  (a * in.w).sum().backward();
  expect_close(in.x.grad(), {3, 2}, {3, 6, 9, 12, 15, 18});
}

TEST(InPlaceOnView, IndexPutAndMaskedFillOnAView) {
  Inputs in;
  Tensor a = in.x * 1;
  a.index({Slice(1)}).index_put_({tensor({int64_t{0}, 1}), tensor({int64_t{1}, 0})}, in.y);
  (a * in.w).sum().backward();
  expect_close(in.x.grad(), {3, 2}, {1, 2, 3, 0, 0, 6});
  expect_close(in.y.grad(), {2}, {4, 5});

  // a[1:, [1, 0]] = y: the tensor index writes into the slice's view, as PyTorch's set_item.
  Inputs sliced;
  Tensor c = sliced.x * 1;
  c.index_put_({Slice(1), tensor({int64_t{1}, 0})}, sliced.y);
  EXPECT_EQ(c.grad_fn()->name(), "CopySlices");
  (c * sliced.w).sum().backward();
  expect_close(sliced.x.grad(), {3, 2}, {1, 2, 0, 0, 0, 0});
  expect_close(sliced.y.grad(), {2}, {10, 8});

  Inputs again;
  Tensor b = again.x * 1;
  b.index({Slice(1)}).masked_fill_(tensor({true, false, false, true}).view({2, 2}), 0.5);
  (b * again.w).sum().backward();
  expect_close(again.x.grad(), {3, 2}, {1, 2, 0, 4, 5, 0});
}

// The "fill a buffer" idiom: a tensor that needs no grad gets CopySlices when rows of it are
// written from tensors in a graph.
TEST(InPlaceOnView, FillingABuffer) {
  Inputs in;
  Tensor out = zeros({3, 2}, kFloat64);
  out[0].copy_(in.x[0] * in.x[0]);
  out[1] = in.y * 2;
  out[2].fill_(7);
  ASSERT_TRUE(out.requires_grad());
  EXPECT_EQ(out.grad_fn()->name(), "CopySlices");
  expect_close(out, {3, 2}, {1, 4, 20, 40, 7, 7});
  (out * in.w).sum().backward();
  expect_close(in.x.grad(), {3, 2}, {2, 8, 0, 0, 0, 0});
  expect_close(in.y.grad(), {2}, {6, 8});
}

TEST(InPlaceOnView, FillAndZeroGiveNoGradient) {
  Inputs in;
  Tensor a = in.x * in.x;
  a.index({Slice(), 1}).zero_();
  a[0].fill_(2);
  (a * in.w).sum().backward();
  expect_close(in.x.grad(), {3, 2}, {0, 0, 18, 0, 50, 0});
}

// Another view of the same base, made before the write, reads the new values: its history is
// rebuilt from the base's new one (PyTorch regenerates it the same way).
TEST(InPlaceOnView, OlderViewsFollowTheirBase) {
  Inputs in;
  Tensor a = in.x * 1;
  Tensor first_row = a[0];
  a.index({Slice(), 0}).mul_(in.y[1]);
  EXPECT_EQ(first_row.grad_fn()->name(), "AsStridedBackward0");
  (first_row * tensor({1.0, 2.0})).sum().backward();
  expect_close(in.x.grad(), {3, 2}, {20, 2, 0, 0, 0, 0});
  expect_close(in.y.grad(), {2}, {0, 1});

  Inputs again;
  Tensor b = again.x * 1;
  Tensor last_row = b[2];
  b.mul_(2);  // the base itself, in place
  (last_row * tensor({1.0, 2.0})).sum().backward();
  expect_close(again.x.grad(), {3, 2}, {0, 0, 0, 0, 2, 4});
}

// PyTorch refuses in-place ops on the pieces of split, chunk and unbind (one node makes them all);
// ember's pieces are views with a node each, so the write is recorded as on any other view.
// By hand: a = x * 1; a.split(1)[0] doubles row 0, so d a.sum() / dx is 2 there, 1 elsewhere.
TEST(InPlaceOnView, PiecesOfSplitAndUnbind) {
  Inputs in;
  Tensor a = in.x * 1;
  a.split(1)[0].mul_(2);
  a.unbind(1)[1].mul_(3);
  a.sum().backward();
  expect_close(in.x.grad(), {3, 2}, {2, 6, 1, 3, 1, 3});
}

// Writes through two overlapping views and then the base, with both views read afterwards:
//   a = x * 1; r = a[0]; c = a[:, 1]; r.mul_(y); c.add_(a[:, 0]); a.mul_(0.5)
//   ((a * w).sum() + (r * r).sum() + c.sum()).backward()
TEST(InPlaceOnView, WritesThroughOverlappingViewsAndTheBase) {
  Inputs in;
  Tensor a = in.x * 1;
  Tensor r = a[0];
  Tensor c = a.index({Slice(), 1});
  r.mul_(in.y);
  c.add_(a.index({Slice(), 0}));
  a.mul_(0.5);
  EXPECT_EQ(r.grad_fn()->name(), "AsStridedBackward0");
  EXPECT_EQ(c.grad_fn()->name(), "AsStridedBackward0");
  EXPECT_EQ(a.grad_fn()->name(), "MulBackward0");
  expect_close(a, {3, 2}, {5, 25, 1.5, 3.5, 2.5, 5.5});
  ((a * in.w).sum() + (r * r).sum() + c.sum()).backward();
  expect_close(in.x.grad(), {3, 2}, {320, 530, 4, 2.5, 6, 3.5});
  expect_close(in.y.grad(), {2}, {32, 53});
}

// Views of a buffer made before it joined a graph join it too, as in PyTorch:
//   out = torch.zeros(3, 2); row = out[0]; col = out[:, 1]; out[0].copy_(x[0] * 2)
TEST(InPlaceOnView, ViewsMadeBeforeTheirBaseJoinedAGraph) {
  Inputs in;
  Tensor out = zeros({3, 2}, kFloat64);
  Tensor row = out[0];
  Tensor col = out.index({Slice(), 1});
  EXPECT_FALSE(row.requires_grad());
  out[0].copy_(in.x[0] * 2);
  ASSERT_TRUE(row.grad_fn());
  EXPECT_EQ(row.grad_fn()->name(), "AsStridedBackward0");
  EXPECT_TRUE(row.requires_grad());
  EXPECT_FALSE(col.is_leaf());
  (row * 3 + col.sum()).sum().backward();
  expect_close(in.x.grad(), {3, 2}, {6, 10, 0, 0, 0, 0});
}

TEST(InPlaceOnView, AsStrided) {
  Inputs in;
  Tensor a = in.x * 1;
  Tensor v = a.as_strided({2, 2}, {1, 2}, 1);
  EXPECT_EQ(v.grad_fn()->name(), "AsStridedBackward0");
  v.mul_(tensor({1.0, 2.0, 3.0, 4.0}).view({2, 2}));
  (a * in.w).sum().backward();
  expect_close(in.x.grad(), {3, 2}, {1, 2, 9, 8, 20, 6});

  // An output whose elements share memory adds their gradients up.
  Tensor z = arange(6.0, TensorOptions(kFloat64)).requires_grad_();
  (z.as_strided({3, 3}, {1, 0}, 0) * arange(9.0, TensorOptions(kFloat64)).view({3, 3}))
      .sum()
      .backward();
  expect_close(z.grad(), {6}, {3, 12, 21, 0, 0, 0});
}

TEST(InPlaceOnView, AsStridedChecksItsGeometry) {
  Tensor x = zeros({6});
  EXPECT_NE(error_of([&] {
              x.as_strided({2, 2}, {1, 1}, -1);
            }).find("Tensor: invalid storage offset -1"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              x.as_strided({3, 3}, {3, 1}, 0);
            })
                .find("setStorage: sizes [3, 3], strides [3, 1], storage offset 0, and itemsize 4 "
                      "requiring a storage size of 36 are out of bounds for storage of size 24"),
            std::string::npos);
  expect_close(arange(6.0).as_strided({2, 2}, {2, 1}, 2), {2, 2}, {2, 3, 4, 5});
}

TEST(InPlaceOnView, RefusedAsInPyTorch) {
  Inputs in;  // x is itself a view (of a leaf that needs no grad), as in the Python program
  const std::string leaf_view =
      "a view of a leaf Variable that requires grad is being used in an "
      "in-place operation.";
  EXPECT_NE(error_of([&] { in.x[0].mul_(2); }).find(leaf_view), std::string::npos);
  EXPECT_NE(error_of([&] { in.x.t().add_(1); }).find(leaf_view), std::string::npos);
  EXPECT_NE(error_of([&] { in.x.mul_(2); }).find(leaf_view), std::string::npos);
  Tensor leaf = ones({3, 2}).requires_grad_();
  EXPECT_NE(error_of([&] { leaf[0].mul_(2); }).find(leaf_view), std::string::npos);

  const std::string no_grad_view =
      "A view was created in no_grad mode and is being modified "
      "inplace with grad mode enabled.";
  Tensor a = in.x * 1;
  Tensor out = zeros({3, 2}, kFloat64);
  Tensor a_row, out_row, leaf_row, x_row;
  {
    NoGradGuard no_grad;
    a_row = a[0];
    out_row = out[0];
    leaf_row = leaf[0];
    x_row = in.x[0];
  }
  EXPECT_NE(error_of([&] { a_row.mul_(2); }).find(no_grad_view), std::string::npos);
  EXPECT_NE(error_of([&] { out_row.copy_(in.y); }).find(no_grad_view), std::string::npos);
  EXPECT_NE(error_of([&] { leaf_row.mul_(2); }).find(no_grad_view), std::string::npos);
  // Neither x_row nor its base (x's) requires grad: a plain write, as in PyTorch.
  x_row.mul_(2);
  expect_close(in.x, {3, 2}, {2, 4, 3, 4, 5, 6});
  EXPECT_FALSE(out.requires_grad());
}

// Views share their base's version counter, so a write through a view after the base (or
// another view) was saved is caught at backward.
TEST(InPlaceOnView, WritesAfterASaveAreCaught) {
  Inputs in;
  Tensor a = in.x * 1;
  Tensor saved_base = a.sin();
  a[0].mul_(2);
  EXPECT_NE(
      error_of([&] { saved_base.sum().backward(); }).find("is at version 1; expected version 0"),
      std::string::npos);

  Tensor b = in.x * 1;
  Tensor saved_view = b[0].sin();
  b[1].mul_(2);
  EXPECT_NE(
      error_of([&] { saved_view.sum().backward(); }).find("is at version 1; expected version 0"),
      std::string::npos);
}

}  // namespace
}  // namespace ember
