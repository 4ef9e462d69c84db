// Tensor basics: factories and their dtype inference, metadata, views sharing storage, from_blob
// sharing memory both ways, the to() aliasing rule and host-access errors.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

using namespace indexing;

using test::error_of;
using test::expect_close;
using test::expect_values;

TEST(Factory, TensorLiteralsInferDTypes) {
  Tensor i = tensor({0, 1, 2, 3});
  EXPECT_EQ(i.dtype(), kInt64);
  expect_values<int64_t>(i, {4}, {0, 1, 2, 3});
  EXPECT_EQ(tensor({1.5, 2.0}).dtype(), kFloat32);
  EXPECT_EQ(tensor({1, 2}, kFloat64).dtype(), kFloat64);
  EXPECT_EQ(tensor({true, false}).dtype(), kBool);
  Tensor m = tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  expect_values<float>(m, {2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor s = tensor(3.5);
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.item<double>(), 3.5);
  EXPECT_EQ(tensor({}).sizes(), IntArrayRef({0}));
  EXPECT_NE(error_of<ValueError>([] {
              tensor({{1, 2}, {3}});
            }).find("[tensor] expected a rectangular"),
            std::string::npos);
}

TEST(Factory, FillsRangesAndEye) {
  expect_values<float>(ones({2, 2}), {2, 2}, {1, 1, 1, 1});
  expect_values<float>(zeros({3}), {3}, {0, 0, 0});
  EXPECT_EQ(full({2}, 7).dtype(), kInt64);
  EXPECT_EQ(full({2}, 7.0).dtype(), kFloat32);
  expect_values<int64_t>(full({2}, 7), {2}, {7, 7});
  expect_values<int64_t>(arange(5), {5}, {0, 1, 2, 3, 4});
  expect_values<int64_t>(arange(1, 10, 3), {3}, {1, 4, 7});
  expect_close(arange(0, 1, 0.25), {4}, {0, 0.25, 0.5, 0.75});
  EXPECT_EQ(arange(0, 1, 0.25).dtype(), kFloat32);
  expect_close(linspace(0, 1, 5), {5}, {0, 0.25, 0.5, 0.75, 1});
  expect_close(linspace(3.5, -2, 1), {1}, {3.5});  // one step is the start (PyTorch)
  expect_values<float>(eye(2, 3), {2, 3}, {1, 0, 0, 0, 1, 0});
  expect_values<float>(eye(0), {0, 0}, {});
  EXPECT_EQ(zeros({2, 0, 3}).numel(), 0);
  EXPECT_NE(error_of<ValueError>([] {
              zeros({2, -1});
            }).find("negative dimension -1"),
            std::string::npos);
}

TEST(Factory, LikeFormsKeepShapeDTypeDevice) {
  Tensor a = ones({2, 3}, kFloat64);
  Tensor z = zeros_like(a);
  EXPECT_EQ(z.sizes(), a.sizes());
  EXPECT_EQ(z.dtype(), kFloat64);
  EXPECT_EQ(full_like(a, 2, kInt32).dtype(), kInt32);
  expect_values<int32_t>(full_like(a, 2, kInt32), {2, 3}, {2, 2, 2, 2, 2, 2});
}

TEST(Factory, RandomIsReproducibleAndInRange) {
  manual_seed(42);
  std::vector<float> a = rand({1000}).to_vector<float>();
  manual_seed(42);
  std::vector<float> b = rand({1000}).to_vector<float>();
  EXPECT_EQ(a, b);
  double mean = std::accumulate(a.begin(), a.end(), 0.0) / a.size();
  EXPECT_NEAR(mean, 0.5, 0.05);
  for (float v : a) EXPECT_TRUE(v >= 0.0f && v < 1.0f);
  manual_seed(1);
  std::vector<double> n = randn({20000}, kFloat64).to_vector<double>();
  double m = 0, var = 0;
  for (double v : n) m += v;
  m /= n.size();
  for (double v : n) var += (v - m) * (v - m);
  var /= n.size();
  EXPECT_NEAR(m, 0.0, 0.03);
  EXPECT_NEAR(var, 1.0, 0.05);
  std::vector<int64_t> r = randint(3, 7, {500}).to_vector<int64_t>();
  for (int64_t v : r) EXPECT_TRUE(v >= 3 && v < 7);
  EXPECT_EQ(randint(3, 7, {5}).dtype(), kInt64);
  EXPECT_NE(error_of<TypeError>([] { rand({2}, kInt64); }).find("[rand]"), std::string::npos);
}

TEST(Tensor, Metadata) {
  Tensor t = zeros({2, 3, 4});
  EXPECT_EQ(t.dim(), 3);
  EXPECT_EQ(t.numel(), 24);
  EXPECT_EQ(t.size(-1), 4);
  EXPECT_EQ(t.strides(), IntArrayRef({12, 4, 1}));
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(t.element_size(), 4u);
  EXPECT_EQ(t.nbytes(), 96u);
  EXPECT_EQ(t.device(), Device("cpu"));
  EXPECT_EQ(t.get_device(), -1);
  EXPECT_EQ(error_of<IndexError>([&] { t.size(3); }),
            "[size] Dimension out of range (expected to be in range of [-3, 2], but got 3)");
}

TEST(Tensor, ViewsShareStorage) {
  Tensor a = arange(12).view({3, 4});
  Tensor t = a.t();
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_TRUE(t.is_alias_of(a));
  expect_values<int64_t>(t, {4, 3}, {0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11});
  expect_values<int64_t>(a[1], {4}, {4, 5, 6, 7});
  expect_values<int64_t>(a.select(1, -1), {3}, {3, 7, 11});
  expect_values<int64_t>(a.narrow(1, 1, 2), {3, 2}, {1, 2, 5, 6, 9, 10});
  expect_values<int64_t>(a.slice(0, 0, std::nullopt, 2), {2, 4}, {0, 1, 2, 3, 8, 9, 10, 11});
  expect_values<int64_t>(a.permute({1, 0}).contiguous(), {4, 3}, t.to_vector<int64_t>());
  expect_values<int64_t>(a.index({Slice(1, 3), 2}), {2}, {6, 10});
  expect_values<int64_t>(a.index({Ellipsis, 0}), {3}, {0, 4, 8});
  EXPECT_EQ(a.index({None, Slice(), 1}).sizes(), IntArrayRef({1, 3}));
  EXPECT_EQ(a.unsqueeze(0).sizes(), IntArrayRef({1, 3, 4}));
  EXPECT_EQ(a.unsqueeze(-1).sizes(), IntArrayRef({3, 4, 1}));
  EXPECT_EQ(a.unsqueeze(0).squeeze().sizes(), IntArrayRef({3, 4}));
  EXPECT_EQ(zeros({1, 2, 1}).squeeze(0).sizes(), IntArrayRef({2, 1}));
  EXPECT_EQ(a.flatten().sizes(), IntArrayRef({12}));
  EXPECT_EQ(a.reshape({2, -1}).sizes(), IntArrayRef({2, 6}));
  Tensor e = tensor({1, 2, 3}).expand({2, 3});
  expect_values<int64_t>(e, {2, 3}, {1, 2, 3, 1, 2, 3});
  EXPECT_EQ(e.stride(0), 0);

  // Writes through a view are seen by the base.
  Tensor row = a[0];
  row.fill_(-1);
  expect_values<int64_t>(a[0], {4}, {-1, -1, -1, -1});
}

TEST(Tensor, ViewErrorsNameTheProblem) {
  Tensor a = arange(6).view({2, 3});
  EXPECT_EQ(error_of<ValueError>([&] {
              a.view({4, 2});
            }),
            "[view] shape '[4, 2]' is invalid for input of size 6");
  EXPECT_NE(error_of<ValueError>([&] { a.t().view({6}); }).find("Use .reshape(...) instead"),
            std::string::npos);
  expect_values<int64_t>(a.t().reshape({6}), {6}, {0, 3, 1, 4, 2, 5});  // reshape copies
  EXPECT_EQ(error_of<ValueError>([&] {
              a.view({-1, -1});
            }),
            "[view] only one dimension can be inferred");
  EXPECT_NE(error_of<ValueError>([&] {
              a.expand({2, 4});
            }).find("The expanded size of the tensor (4) must match the existing size (3)"),
            std::string::npos);
  EXPECT_EQ(error_of<IndexError>([&] { a.select(0, 2); }),
            "[select] select(): index 2 out of range for tensor of size [2, 3] at dimension 0");
  EXPECT_EQ(error_of<IndexError>([&] { a.narrow(1, 2, 2); }),
            "[narrow] start (2) + length (2) exceeds dimension size (3).");
  EXPECT_NE(error_of<ValueError>([&] {
              a.permute({0, 0});
            }).find("repeated dim"),
            std::string::npos);
  EXPECT_NE(error_of<IndexError>([&] {
              a.index({0, 0, 0});
            }).find("too many indices"),
            std::string::npos);
}

TEST(Tensor, FromBlobSharesMemoryBothWays) {
  float buf[6] = {1, 2, 3, 4, 5, 6};
  Tensor t = from_blob(buf, {2, 3}, kFloat32);
  expect_values<float>(t, {2, 3}, {1, 2, 3, 4, 5, 6});
  buf[0] = 100;  // caller -> tensor
  EXPECT_EQ(t.to_vector<float>()[0], 100.0f);
  t.mul_(2);  // tensor -> caller
  EXPECT_EQ(buf[5], 12.0f);
  EXPECT_EQ(t.data_ptr<float>(), buf);
  // Strided: every other element.
  Tensor s = from_blob(buf, {3}, {2}, kFloat32);
  expect_values<float>(s, {3}, {200, 6, 10});
  bool deleted = false;
  {
    Tensor owned = from_blob(
        buf, {6}, [&](void* p) { deleted = (p == buf); }, kFloat32);
  }
  EXPECT_TRUE(deleted);
  EXPECT_NE(error_of<ValueError>([&] {
              from_blob(buf, {6}, Device("cuda:0"));
            }).find("[from_blob] can't wrap external memory as a cuda:0 tensor"),
            std::string::npos);
}

TEST(Tensor, ToReturnsSameTensorWhenNothingChanges) {
  Tensor x = ones({2, 3});
  EXPECT_TRUE(x.to(Device("cpu")).is_same(x));
  EXPECT_TRUE(x.cpu().is_same(x));
  EXPECT_TRUE(x.to(kFloat32).is_same(x));
  Tensor c = x.to(Device("cpu"), false, /*copy=*/true);
  EXPECT_FALSE(c.is_same(x));
  EXPECT_FALSE(c.is_alias_of(x));
  Tensor d = x.to(kFloat64);
  EXPECT_EQ(d.dtype(), kFloat64);
  expect_values<double>(d, {2, 3}, {1, 1, 1, 1, 1, 1});
  expect_values<int32_t>(tensor({1.7, -1.7, 2.5}).to(kInt32), {3}, {1, -1, 2});  // truncation
  expect_values<bool>(tensor({0.0, 0.5}).to(kBool), {2}, {false, true});
  expect_values<uint8_t>(tensor({-1}).to(kUInt8), {1}, {255});
}

TEST(Tensor, HostAccess) {
  Tensor x = tensor({1.f, 2.f, 3.f});
  std::span<float> s = x.span<float>();
  s[1] = 20;
  EXPECT_EQ(x.to_vector<float>()[1], 20.0f);
  EXPECT_EQ(x[2].item<float>(), 3.0f);
  EXPECT_EQ(x[2].item<int>(), 3);
  EXPECT_EQ(error_of<TypeError>([&] { x.data_ptr<int64_t>(); }),
            "[data_ptr] expected scalar type Long but found Float");
  EXPECT_EQ(error_of<ValueError>([&] { x.item(); }),
            "[item] a Tensor with 3 elements cannot be converted to Scalar");
  EXPECT_NE(error_of([&] {
              x.view({3, 1}).t().expand({2, 3}).span<float>();
            }).find("not contiguous"),
            std::string::npos);
}

TEST(Tensor, CopyBroadcastsAndConverts) {
  Tensor dst = zeros({2, 3});
  dst.copy_(tensor({1, 2, 3}));
  expect_values<float>(dst, {2, 3}, {1, 2, 3, 1, 2, 3});
  Tensor t = zeros({3, 2}).t();  // non-contiguous destination
  t.copy_(arange(6).view({2, 3}));
  expect_values<float>(t, {2, 3}, {0, 1, 2, 3, 4, 5});
  EXPECT_NE(error_of<ValueError>([&] { dst.copy_(ones({4})); }).find("[copy_]"), std::string::npos);
  Tensor h = arange(4).to(kFloat16).to(kBFloat16).to(kFloat64);
  expect_values<double>(h, {4}, {0, 1, 2, 3});
}

TEST(Tensor, CloneAndDetachAndContiguous) {
  Tensor a = arange(6).view({2, 3});
  Tensor c = a.clone();
  EXPECT_FALSE(c.is_alias_of(a));
  Tensor d = a.detach();
  EXPECT_TRUE(d.is_alias_of(a));
  EXPECT_TRUE(a.contiguous().is_same(a));
  Tensor t = a.t().contiguous();
  EXPECT_TRUE(t.is_contiguous());
  expect_values<int64_t>(t, {3, 2}, {0, 3, 1, 4, 2, 5});
}

TEST(Tensor, RequiresGradOnlyForFloatingPoint) {
  Tensor x = ones({2});
  EXPECT_FALSE(x.requires_grad());
  x.requires_grad_();
  EXPECT_TRUE(x.requires_grad());
  EXPECT_TRUE(ones({2}, TensorOptions().requires_grad(true)).requires_grad());
  EXPECT_NE(error_of<TypeError>([] {
              tensor({1}).requires_grad_();
            }).find("Only Tensors of floating point and complex dtype can require gradients"),
            std::string::npos);
}

// An undefined tensor (default-constructed, or a grad() no backward reached) throws a
// ValueError naming the accessor or the op's argument, never dereferences null.
TEST(Tensor, UndefinedTensorsThrowInsteadOfCrashing) {
  Tensor u, x = ones({2, 2});
  const std::string hint =
      "undefined tensor (a default-constructed Tensor, or the grad() of a tensor that no "
      "backward has reached); check defined() first";
  EXPECT_EQ(error_of<ValueError>([&] { (void)u.sizes(); }), "[sizes] called on an " + hint);
  EXPECT_EQ(error_of<ValueError>([&] { (void)(u + x); }), "[add] argument 'self' is an " + hint);
  EXPECT_EQ(error_of<ValueError>([&] { x.add_(u); }), "[add_] argument 'other' is an " + hint);
  EXPECT_EQ(error_of<ValueError>([&] { (void)u.grad_fn(); }), "[grad_fn] called on an " + hint);
  EXPECT_EQ(error_of<ValueError>([&] { (void)u.version(); }), "[version] called on an " + hint);
  const std::vector<std::function<void()>> ops = {
      [&] { (void)u.dim(); },      [&] { (void)u.dtype(); },   [&] { (void)(x * u); },
      [&] { (void)(u == x); },     [&] { (void)u.sum(); },     [&] { (void)norm(u); },
      [&] { (void)matmul(x, u); }, [&] { (void)cat({x, u}); }, [&] { (void)u.to(kFloat64); },
      [&] { (void)u.view({4}); },  [&] { (void)relu(u); },     [&] { (void)u.grad(); },
      [&] { (void)u.is_leaf(); },  [&] { u.retain_grad(); },   [&] { (void)u.clone(); },
      [&] { (void)u.detach(); },   [&] { (void)u.t(); },       [&] { (void)u.item(); },
  };
  for (size_t i = 0; i < ops.size(); ++i)
    EXPECT_NE(error_of<ValueError>(ops[i]).find("undefined tensor"), std::string::npos) << i;
  EXPECT_FALSE(u.requires_grad());  // as LibTorch: ops test optional operands this way
  expect_values<float>(linear(x, x, u), {2, 2}, {2, 2, 2, 2});  // an undefined bias is none
}

// index() names the dimension of the tensor indexed, as PyTorch's x[0, 3] does.
TEST(Tensor, IndexErrorNamesTheIndexedDim) {
  EXPECT_EQ(error_of<IndexError>([] {
              (void)ones({2, 3}).index({0, 3});
            }),
            "[index] index 3 is out of bounds for dimension 1 with size 3");
  EXPECT_EQ(error_of<IndexError>([] {
              (void)ones({2, 3, 4}).index({Ellipsis, 4});
            }),
            "[index] index 4 is out of bounds for dimension 2 with size 4");
  // LibTorch's Slice(None, 2) spelling.
  expect_values<int64_t>(arange(5).index({Slice(None, 2)}), {2}, {0, 1});
  expect_values<int64_t>(arange(5).index({Slice(3, None)}), {2}, {3, 4});
  const size_t two = 2;  // any integer type, and optionals of them
  expect_values<int64_t>(arange(5).index({Slice(two, std::optional<int>(4))}), {2}, {2, 3});
  expect_values<int64_t>(arange(5).index({Slice(std::optional<int>(), -3)}), {2}, {0, 1});
}

// The LibTorch method forms with a number: x.add(1), x.gt(0), x.norm().
TEST(Tensor, MethodFormsTakeNumbers) {
  Tensor x = tensor({-1.f, 2.f});
  expect_values<float>(x.add(1), {2}, {0, 3});
  expect_values<float>(x.sub(1, 2), {2}, {-3, 0});
  expect_values<float>(x.mul(2).div(4), {2}, {-0.5, 1});
  expect_values<bool>(x.gt(0), {2}, {false, true});
  expect_values<bool>(x.le(x), {2}, {true, true});
  expect_values<bool>(x.eq(2), {2}, {false, true});
  EXPECT_NEAR(x.norm().item<double>(), std::sqrt(5.0), 1e-6);
  EXPECT_NEAR(x.norm(1).item<double>(), 3.0, 1e-6);
}

// A Scalar prints as LibTorch's does: std::cout << t.item().
TEST(Tensor, ScalarsPrintLikeLibTorch) {
  std::ostringstream os;
  os << tensor({2.5f}).item() << " " << tensor({int64_t{3}}).item() << " " << tensor({true}).item();
  EXPECT_EQ(os.str(), "2.5 3 true");
  std::ostringstream half;  // Half and BFloat16 still print through their float value
  half << Half(1.5f) << " " << BFloat16(2.0f);
  EXPECT_EQ(half.str(), "1.5 2");
}

TEST(Tensor, ThreadsSetting) {
  int before = get_num_threads();
  set_num_threads(1);
  EXPECT_EQ(get_num_threads(), 1);
  Tensor big = ones({1 << 18});
  EXPECT_EQ((big + big).to_vector<float>()[12345], 2.0f);
  set_num_threads(before);
  EXPECT_THROW(set_num_threads(0), ValueError);
}

}  // namespace
}  // namespace ember

namespace ember {
namespace {

// An allocation that cannot succeed is an OutOfMemoryError naming the size, and the process
// goes on allocating normally afterwards. (In sanitizer builds the hook below makes ASan's
// allocator fail such a request as malloc does instead of aborting the process.)
TEST(Tensor, CpuOutOfMemoryNamesTheSizeAndRecovers) {
  std::string msg = test::error_of<OutOfMemoryError>([] { empty({int64_t{1} << 50}); });
  EXPECT_EQ(msg,
            "[ember] CPU out of memory: tried to allocate 4.00 PiB (4503599627370496 bytes). Free "
            "some tensors or use smaller shapes.");
  test::expect_values<float>(ones({2}), {2}, {1, 1});
}

}  // namespace
}  // namespace ember

// AddressSanitizer reads its defaults from this hook in the program it runs in (ember_tests).
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }
