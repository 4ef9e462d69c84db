// Elementwise ops against hand-computed values (PyTorch's results where rules are subtle):
// broadcasting, promotion, scalars on either side, in-place rules, non-contiguous, zero-size and
// 0-dim operands, and the device check.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

using test::error_of;
using test::expect_close;
using test::expect_values;

TEST(Binary, BroadcastsRowsAndColumns) {
  Tensor col = tensor({{1.f}, {2.f}});      // [2,1]
  Tensor row = tensor({10.f, 20.f, 30.f});  // [3]
  expect_values<float>(col + row, {2, 3}, {11, 21, 31, 12, 22, 32});
  expect_values<float>(row - col, {2, 3}, {9, 19, 29, 8, 18, 28});
  expect_values<float>(col * row, {2, 3}, {10, 20, 30, 20, 40, 60});
  EXPECT_EQ(error_of<ValueError>([] {
              ones({2, 3}) + ones({4});
            }),
            "[add] The size of tensor a (3) must match the size of tensor b (4) at non-singleton "
            "dimension 1 (shapes [2, 3] and [4] cannot be broadcast together)");
}

TEST(Binary, ScalarsOnEitherSide) {
  Tensor x = tensor({1, 2, 3});
  expect_values<int64_t>(x + 1, {3}, {2, 3, 4});
  expect_values<int64_t>(10 - x, {3}, {9, 8, 7});
  expect_values<int64_t>(2 * x, {3}, {2, 4, 6});
  expect_close(x + 2.5, {3}, {3.5, 4.5, 5.5});
  expect_close(1 / tensor({2.f, 4.f}), {2}, {0.5, 0.25});
  expect_close(x / 2, {3}, {0.5, 1.0, 1.5});
  expect_values<int64_t>(add(x, tensor({1, 1, 1}), 3), {3}, {4, 5, 6});
  expect_values<int64_t>(sub(x, tensor({1, 1, 1}), 2), {3}, {-1, 0, 1});
  EXPECT_NE(
      error_of<TypeError>([&] {
        add(x, x, 0.5);
      }).find("For integral input tensors, argument alpha must not be a floating point number"),
      std::string::npos);
}

TEST(Binary, FloorDivideRemainderPowFollowPython) {
  Tensor a = tensor({-7, 7, -3, 3}), b = tensor({2, -2, 2, -2});
  expect_values<int64_t>(floor_divide(a, b), {4}, {-4, -4, -2, -2});
  expect_values<int64_t>(remainder(a, b), {4}, {1, -1, 1, -1});
  expect_values<int64_t>(a % 5, {4}, {3, 2, 2, 3});
  expect_close(remainder(tensor({-7.5, 7.5}), tensor({2.0, -2.0})), {2}, {0.5, -0.5});
  expect_close(floor_divide(tensor({-7.5, 7.5}), tensor({2.0, -2.0})), {2}, {-4, -4});
  expect_values<int64_t>(pow(tensor({2, -1, 1, 3}), tensor({-1, -3, -2, 3})), {4}, {0, -1, 1, 27});
  expect_close(pow(tensor({4.0, 9.0}), 0.5), {2}, {2, 3});
  expect_close(pow(2, tensor({1.0, 3.0})), {2}, {2, 8});
  EXPECT_EQ(error_of<ValueError>([] { floor_divide(tensor({1}), tensor({0})); }),
            "[floor_divide] ZeroDivisionError: integer division by zero");
  EXPECT_EQ(error_of<ValueError>([] { pow(tensor({2}), -1); }),
            "[pow] Integers to negative integer powers are not allowed.");
}

TEST(Binary, MaximumMinimumPropagateNaN) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> mx =
      maximum(tensor({1.0, nan, 3.0}), tensor({nan, 2.0, 1.0})).to_vector<double>();
  EXPECT_TRUE(std::isnan(mx[0]));
  EXPECT_TRUE(std::isnan(mx[1]));
  EXPECT_EQ(mx[2], 3.0);
  expect_values<int64_t>(minimum(tensor({1, 5}), tensor({3, 2})), {2}, {1, 2});
}

TEST(Compare, ProduceBoolAndPromoteFirst) {
  Tensor a = tensor({1, 2, 3});
  expect_values<bool>(a == 2, {3}, {false, true, false});
  expect_values<bool>(a != 2, {3}, {true, false, true});
  expect_values<bool>(a < 2.5, {3}, {true, true, false});  // compared in float
  expect_values<bool>(a <= tensor({1, 1, 1}), {3}, {true, false, false});
  expect_values<bool>(a > 1, {3}, {false, true, true});
  expect_values<bool>(a >= 3, {3}, {false, false, true});
  Tensor p = tensor({true, true, false}), q = tensor({true, false, false});
  expect_values<bool>(logical_and(p, q), {3}, {true, false, false});
  expect_values<bool>(logical_or(p, q), {3}, {true, true, false});
  expect_values<bool>(logical_xor(p, q), {3}, {false, true, false});
  expect_values<bool>(~p, {3}, {false, false, true});  // ~ on bool is `not`
  expect_values<bool>(logical_not(tensor({0.0, 2.0})), {2}, {true, false});
}

TEST(Where, SelectsAndPromotes) {
  Tensor c = tensor({true, false, true});
  expect_values<int64_t>(where(c, tensor({1, 2, 3}), tensor({-1, -2, -3})), {3}, {1, -2, 3});
  Tensor w = where(c, tensor({1, 2, 3}), 0.5);
  EXPECT_EQ(w.dtype(), kFloat32);
  expect_close(w, {3}, {1, 0.5, 3});
  EXPECT_EQ(error_of<TypeError>([] { where(tensor({1}), ones({1}), ones({1})); }),
            "[where] expected condition to be a boolean tensor, but got a tensor with dtype Long");
}

// The CPU loop reads a broadcast operand once (Note in cpu/loops.h): each of where's three
// operands broadcast in turn, the rest contiguous, over a strip long enough to vectorise, against
// the element rule written out.
TEST(Where, EachOperandBroadcast) {
  const int64_t n = 1000;
  std::vector<bool> mask(n);
  std::vector<float> a(n), b(n);
  for (int64_t i = 0; i < n; ++i) {
    mask[i] = (i * 7919) % 3 == 0;
    a[i] = static_cast<float>(i);
    b[i] = -static_cast<float>(i) / 4;
  }
  Tensor c = remainder(arange(0, n, 1, kInt64) * 7919, 3) == 0;
  Tensor x = arange(0, n, 1, kFloat32), y = arange(0, n, 1, kFloat32) / -4;
  std::vector<float> held_a(n), held_b(n), held_c(n);
  for (int64_t i = 0; i < n; ++i) {
    held_a[i] = mask[i] ? 2.5f : b[i];
    held_b[i] = mask[i] ? a[i] : 0.0f;
    held_c[i] = b[i];  // a false condition everywhere
  }
  EXPECT_EQ(where(c, 2.5, y).to_vector<float>(), held_a);
  EXPECT_EQ(where(c, x, 0.0).to_vector<float>(), held_b);
  EXPECT_EQ(where(tensor(false), x, y).to_vector<float>(), held_c);
  EXPECT_EQ(where(c, x, y.narrow(0, 0, 1).expand({n})).to_vector<float>(),
            where(c, x, full({n}, 0.0)).to_vector<float>());
}

TEST(InPlace, KeepsDTypeAndRefusesLossyCasts) {
  Tensor x = tensor({1, 2});
  x += 3;
  expect_values<int64_t>(x, {2}, {4, 5});
  EXPECT_EQ(error_of<TypeError>([&] { x.add_(2.5); }),
            "[add_] result type Float can't be cast to the desired output type Long");
  Tensor h = tensor({1.0, 2.0}, kFloat16);
  h.mul_(tensor({2.0}, kFloat64));  // computed in float64, stored as float16
  EXPECT_EQ(h.dtype(), kFloat16);
  expect_close(h, {2}, {2, 4});
  Tensor f = ones({2, 2});
  f.sub_(tensor({1.f, 2.f}));
  expect_values<float>(f, {2, 2}, {0, -1, 0, -1});
  EXPECT_NE(error_of<ValueError>([] {
              Tensor s = ones({2});
              s.add_(ones({2, 2}));
            }).find("output with shape [2] doesn't match the broadcast shape [2, 2]"),
            std::string::npos);
  Tensor out = empty({2, 2});
  add_out(out, tensor({1.f, 2.f}), tensor({{10.f}, {20.f}}));
  expect_values<float>(out, {2, 2}, {11, 12, 21, 22});
}

TEST(Binary, BoolRules) {
  expect_values<bool>(tensor({true, false}) + tensor({true, false}), {2}, {true, false});
  expect_values<bool>(tensor({true, false}) * tensor({true, true}), {2}, {true, false});
  EXPECT_NE(error_of<TypeError>([] { tensor({true}) - tensor({true}); }).find("logical_xor()"),
            std::string::npos);
  EXPECT_NE(error_of<TypeError>([] { -tensor({true}); }).find("logical_not()"), std::string::npos);
}

TEST(Binary, NonContiguousZeroSizeAndZeroDim) {
  Tensor a = arange(6, kFloat32).view({2, 3});
  expect_values<float>(a.t() + a.t(), {3, 2}, {0, 6, 2, 8, 4, 10});
  expect_values<float>(a.slice(1, 0, 3, 2) * 10, {2, 2}, {0, 20, 30, 50});
  Tensor e = zeros({0, 3}) + ones({3});
  EXPECT_EQ(e.sizes(), IntArrayRef({0, 3}));
  Tensor s = tensor(2.0) * tensor(3.0);
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.item<double>(), 6.0);
  expect_values<float>(tensor(2.f) + ones({2}), {2}, {3, 3});
  // Large enough to run on several threads, with a broadcast operand.
  Tensor big = arange(1 << 17, kFloat32).view({1 << 9, 1 << 8});
  Tensor r = big - big.select(1, 0).unsqueeze(1);
  std::vector<float> v = r.to_vector<float>();
  for (int64_t i = 0; i < (1 << 17); i += 997) EXPECT_EQ(v[i], static_cast<float>(i % 256));
}

TEST(Unary, MathMatchesStdAndPromotesIntegers) {
  Tensor x = tensor({-1.0, 0.0, 1.0, 2.0}, kFloat64);
  std::vector<double> in = {-1.0, 0.0, 1.0, 2.0}, e, s, t, sg, rl;
  for (double v : in) {
    e.push_back(std::exp(v));
    s.push_back(std::sin(v));
    t.push_back(std::tanh(v));
    sg.push_back(1 / (1 + std::exp(-v)));
    rl.push_back(v > 0 ? v : 0);
  }
  expect_close(exp(x), {4}, e, 1e-12);
  expect_close(sin(x), {4}, s, 1e-12);
  expect_close(tanh(x), {4}, t, 1e-12);
  expect_close(sigmoid(x), {4}, sg, 1e-12);
  expect_close(relu(x), {4}, rl);
  // Values printed by torch 1.13.
  expect_close(gelu(tensor({-1.f, 0.f, 1.f, 2.f})), {4},
               {-0.1586552858352661, 0.0, 0.8413447141647339, 1.9544999599456787}, 1e-6);
  expect_close(silu(tensor({-1.f, 0.f, 1.f, 2.f})), {4},
               {-0.2689414322376251, 0.0, 0.7310585975646973, 1.7615940570831299}, 1e-6);
  expect_close(log(tensor({1.0, std::exp(2.0)})), {2}, {0, 2}, 1e-6);
  expect_close(log1p(tensor({0.0, 1e-10}, kFloat64)), {2}, {0, 1e-10}, 1e-9);
  expect_close(expm1(tensor({1e-10}, kFloat64)), {1}, {1e-10}, 1e-9);
  expect_close(sqrt(tensor({4.0, 9.0})), {2}, {2, 3});
  expect_close(rsqrt(tensor({4.0})), {1}, {0.5});
  expect_close(reciprocal(tensor({4})), {1}, {0.25});
  EXPECT_EQ(exp(tensor({1})).dtype(), kFloat32);  // int -> float32
  EXPECT_EQ(sqrt(tensor({true})).dtype(), kFloat32);
  expect_close(round(tensor({0.5, 1.5, 2.5, -0.5, -1.5})), {5},
               {0, 2, 2, -0.0, -2});  // half to even
  expect_close(floor(tensor({-1.5, 1.5})), {2}, {-2, 1});
  expect_close(ceil(tensor({-1.5, 1.5})), {2}, {-1, 2});
  expect_values<int64_t>(abs(tensor({-3, 4})), {2}, {3, 4});
  expect_values<int64_t>(sign(tensor({-2, 0, 3})), {3}, {-1, 0, 1});
  expect_values<int64_t>(neg(tensor({-2, 3})), {2}, {2, -3});
  expect_values<int64_t>(square(tensor({-3, 4})), {2}, {9, 16});
  expect_close(cos(tensor({0.0})), {1}, {1});
  expect_close(tan(tensor({0.0})), {1}, {0});
  EXPECT_NE(error_of<TypeError>([] {
              gelu(tensor({1}));
            }).find("[gelu] expected a floating-point tensor"),
            std::string::npos);
}

// The activations with a kink or a tail: values and gradients printed by torch 1.13
// (torch.nn.functional.mish, hardsigmoid, hardswish, logsigmoid), and PyTorch's node names.
TEST(Elementwise, MishHardsigmoidHardswishLogSigmoid) {
  const std::vector<float> points{-4, -3, -1, 0, 0.5, 3, 4, 25};
  struct Case {
    Tensor (*op)(const Tensor&);
    const char* grad_fn;
    std::vector<double> values, gradients;
  };
  const Case cases[] = {
      {mish,
       "MishBackward0",
       {-0.072591752, -0.14564747, -0.30340144, 0.0, 0.37524524, 2.9865351, 3.9974129, 25.0},
       {-0.053773206, -0.093393125, 0.05921673, 0.60000002, 0.88642442, 1.021107, 1.0044327, 1.0}},
      {hardsigmoid,
       "HardsigmoidBackward0",
       {0.0, 0.0, 0.33333334, 0.5, 0.58333331, 1.0, 1.0, 1.0},
       {0.0, 0.0, 1.0 / 6, 1.0 / 6, 1.0 / 6, 0.0, 0.0, 0.0}},
      {hardswish,
       "HardswishBackward0",
       {0.0, 0.0, -0.33333334, 0.0, 0.29166666, 3.0, 4.0, 25.0},
       {0.0, -0.5, 0.16666666, 0.5, 0.66666669, 1.5, 1.0, 1.0}},
      {log_sigmoid,
       "LogSigmoidBackward0",
       {-4.0181499, -3.0485873, -1.3132617, -0.69314718, -0.47407699, -0.048587352, -0.018149929,
        -1.3887944e-11},
       {0.98201376, 0.95257413, 0.7310586, 0.5, 0.37754068, 0.047425874, 0.01798621,
        1.3887944e-11}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.grad_fn);
    Tensor x = tensor(points).requires_grad_();
    Tensor y = c.op(x);
    expect_close(y, {8}, c.values, 1e-6, 1e-6);
    EXPECT_EQ(y.grad_fn()->name(), c.grad_fn);
    y.sum().backward();
    expect_close(x.grad(), {8}, c.gradients, 1e-6, 1e-6);
  }
  EXPECT_TRUE(std::isnan(hardsigmoid(tensor({NAN})).item<float>()));
  EXPECT_THROW((void)mish(tensor({1})), TypeError);  // floating-point inputs only
}

TEST(Unary, HalfComputesInFloat) {
  Tensor h = tensor({0.5, 1.0, 2.0}, kFloat16);
  Tensor e = exp(h);
  EXPECT_EQ(e.dtype(), kFloat16);
  expect_close(e, {3}, {1.6487, 2.7183, 7.3891}, 1e-3);
  Tensor b = tensor({1.0, 4.0}, kBFloat16);
  expect_close(sqrt(b), {2}, {1, 2});
}

TEST(Clamp, BoundsNaNAndPromotion) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> c = clamp(tensor({1.0, nan, 9.0}), 2, 5).to_vector<double>();
  EXPECT_EQ(c[0], 2.0);
  EXPECT_TRUE(std::isnan(c[1]));
  EXPECT_EQ(c[2], 5.0);
  Tensor i = clamp(tensor({1, 5, 9}), 2.5, std::nullopt);
  EXPECT_EQ(i.dtype(), kFloat32);  // as torch.clamp(int_tensor, 2.5)
  expect_close(i, {3}, {2.5, 5, 9});
  expect_values<int64_t>(clamp(tensor({1, 5, 9}), std::nullopt, 4), {3}, {1, 4, 4});
  Tensor x = tensor({-2.f, 0.f, 2.f});
  x.clamp_(-1, 1);
  expect_values<float>(x, {3}, {-1, 0, 1});
}

// Writing into a tensor that an input partly shares would make the result depend on the loop's
// order; PyTorch refuses, and so does ember. The same elements in the same order (x += x) and
// disjoint parts are fine; tensors whose elements are not dense in memory are not judged.
TEST(InPlace, PartialOverlapOfInputAndOutputIsRefused) {
  const std::string partial =
      "unsupported operation: some elements of the input tensor and the written-to tensor refer "
      "to a single memory location. Please clone() the tensor before performing the operation.";
  Tensor a = arange(4, kFloat32).view({2, 2});
  EXPECT_EQ(error_of<ValueError>([&] { a += a.t(); }), "[add_] " + partial);
  EXPECT_EQ(error_of<ValueError>([&] { a.copy_(a.t()); }), "[copy_] " + partial);
  Tensor v = arange(4, kFloat32);
  EXPECT_EQ(error_of<ValueError>([&] { v.slice(0, 1, 4).add_(v.slice(0, 0, 3)); }),
            "[add_] " + partial);
  expect_values<float>(v, {4}, {0, 1, 2, 3});  // refused before anything was written
  // The same under autograd (computed on a clone first) and through a dtype cast (add_out into
  // float32 of a float64 result): refused alike.
  Tensor d = arange(4, kFloat32).view({2, 2}).requires_grad_() * 1;
  EXPECT_EQ(error_of<ValueError>([&] { d.add_(d.t()); }), "[add_] " + partial);
  Tensor x = arange(4, kFloat32);
  EXPECT_EQ(error_of<ValueError>([&] {
              Tensor out = x.slice(0, 1, 4);
              add_out(out, x.slice(0, 0, 3), ones({3}, kFloat64));
            }),
            "[add_out] " + partial);
  a += a;
  expect_values<float>(a, {2, 2}, {0, 2, 4, 6});
  v.slice(0, 0, 2).add_(v.slice(0, 2, 4));
  expect_values<float>(v, {4}, {2, 4, 2, 3});
  v.slice(0, 0, 4, 2).mul_(v.slice(0, 1, 4, 2));  // interleaved: not dense, not judged
  expect_values<float>(v, {4}, {8, 4, 6, 3});
  // An output with two elements in one place is refused too; fill_ writes one value, so it may.
  Tensor row = zeros({1, 3});
  EXPECT_NE(error_of<ValueError>([&] {
              row.expand({2, 3}).add_(1);
            })
                .find("more than one element of the written-to tensor refers to a single memory "
                      "location"),
            std::string::npos);
  row.expand({2, 3}).fill_(5);
  expect_values<float>(row, {1, 3}, {5, 5, 5});
}

// The mismatching dim is found from the right and numbered in the broadcast shape, as PyTorch.
TEST(Binary, BroadcastErrorNamesTheDimPyTorchNames) {
  EXPECT_NE(error_of<ValueError>([] {
              ones({2, 3}) + ones({3, 2});
            })
                .find("The size of tensor a (3) must match the size of tensor b (2) at "
                      "non-singleton dimension 1"),
            std::string::npos);
  EXPECT_NE(error_of<ValueError>([] {
              ones({2, 3, 4}) + ones({5, 3, 6});
            })
                .find("tensor a (4) must match the size of tensor b (6) at non-singleton "
                      "dimension 2"),
            std::string::npos);
}

TEST(DeviceCheck, NamesOpArgumentDevicesAndFix) {
  // A CPU-only check of the message through the central helper: a CUDA tensor cannot exist
  // without a GPU, so the message is checked where GPUs exist and its CPU-scalar rule here.
  expect_values<float>(ones({2}) + tensor(1.f), {2}, {2, 2});
  EMBER_SKIP_IF_NO_CUDA();
  Tensor g = ones({2}, Device("cuda:0"));
  EXPECT_EQ(error_of<ValueError>([&] { g + ones({2}); }),
            "Expected all tensors to be on the same device, but found at least two devices, "
            "cuda:0 and cpu! ([add] argument 'other' is on cpu; move it with .to(cuda:0))");
}

}  // namespace
}  // namespace ember
