// Reductions, cumsum and softmax against values computed by hand or in double here.
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "kernels/reduce_functors.h"
#include "test_util.h"

namespace ember {
namespace {

using test::error_of;
using test::expect_close;
using test::expect_values;

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kDoubleNaN = std::nan("");

// Reference reduction of a row-major [outer, n, inner] view: fold(values along n) per line.
std::vector<double> reference_lines(const Tensor& x, int64_t dim,
                                    const std::function<double(const std::vector<double>&)>& fold) {
  std::vector<double> data = x.to_vector<double>();
  int64_t outer = 1, n = x.size(dim), inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= x.size(d);
  for (int64_t d = dim + 1; d < x.dim(); ++d) inner *= x.size(d);
  std::vector<double> out;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k = 0; k < inner; ++k) {
      std::vector<double> line;
      for (int64_t i = 0; i < n; ++i) line.push_back(data[(o * n + i) * inner + k]);
      out.push_back(fold(line));
    }
  return out;
}

// As test::expect_close, but infinities and NaN must match exactly.
void expect_close_special(const Tensor& t, IntArrayRef shape, const std::vector<double>& expected,
                          double rtol = 1e-6) {
  ASSERT_EQ(t.sizes(), shape) << "shape";
  std::vector<double> got = t.to_vector<double>();
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(expected[i])) EXPECT_TRUE(std::isnan(got[i])) << "at flat index " << i;
    else if (std::isinf(expected[i])) EXPECT_EQ(got[i], expected[i]) << "at flat index " << i;
    else
      EXPECT_NEAR(got[i], expected[i], rtol * (1 + std::abs(expected[i]))) << "at flat index " << i;
  }
}

double add_all(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

TEST(ReduceSum, AllDimsKeepdimAndNegativeDims) {
  Tensor x = arange(24, kFloat32).reshape({2, 3, 4});
  expect_close(x.sum(), {}, {276});
  expect_close(sum(x, {1}), {2, 4}, {12, 15, 18, 21, 48, 51, 54, 57});
  expect_close(sum(x, {-1}, true), {2, 3, 1}, {6, 22, 38, 54, 70, 86});
  expect_close(sum(x, {0, 2}), {3}, {60, 92, 124});
  expect_close(sum(x, {2, 0}, true), {1, 3, 1}, {60, 92, 124});
  expect_close(sum(x, {0, 1, 2}, true), {1, 1, 1}, {276});
  EXPECT_EQ(x.sum().dtype(), kFloat32);
}

TEST(ReduceSum, IntegerAndBoolAccumulateInInt64) {
  Tensor i = tensor({{1, 2}, {3, 4}}, kInt32);
  EXPECT_EQ(i.sum().dtype(), kInt64);
  expect_values<int64_t>(sum(i, {0}), {2}, {4, 6});
  Tensor b = tensor({true, false, true});
  expect_values<int64_t>(b.sum(), {}, {2});
  Tensor big = full({3}, 2000000000, kInt32);  // overflows int32, not int64
  expect_values<int64_t>(big.sum(), {}, {6000000000});
  expect_values<int32_t>(i.sum(kInt32), {}, {10});
  Tensor as_half = i.sum(kFloat16);
  EXPECT_EQ(as_half.dtype(), kFloat16);
  EXPECT_EQ(as_half.item<float>(), 10.0f);
  EXPECT_EQ(tensor({0.5f, 0.25f}).sum(kFloat64).dtype(), kFloat64);
  expect_values<int32_t>(tensor({1.5f, 2.5f}).sum(kInt32), {}, {3});  // converts, then sums
}

TEST(ReduceSum, NonContiguousInputs) {
  manual_seed(1);
  Tensor base = randn({6, 10});
  Tensor transposed = base.t();                       // [10, 6], strides (1, 10)
  Tensor sliced = base.slice(1, 1, std::nullopt, 3);  // every third column
  Tensor expanded = tensor({1.0f, 2.0f, 3.0f}).expand({4, 3});
  for (const Tensor& x : {transposed, sliced, expanded}) {
    Tensor dense = x.contiguous();
    for (int64_t dim = 0; dim < 2; ++dim)
      expect_close(sum(x, {dim}), sum(dense, {dim}).sizes(), reference_lines(dense, dim, add_all),
                   1e-5, 1e-5);
    expect_close(x.sum(), {}, {add_all(dense.to_vector<double>())}, 1e-5, 1e-5);
  }
  expect_close(expanded.sum(), {}, {24});
}

TEST(ReduceSum, ZeroSizeAndZeroDim) {
  expect_close(zeros({0}).sum(), {}, {0});
  expect_close(sum(zeros({0, 3}), {0}), {3}, {0, 0, 0});
  EXPECT_EQ(sum(zeros({0, 3}), {1}).sizes(), IntArrayRef({0}));
  expect_values<int64_t>(zeros({2, 0}, kInt32).sum(), {}, {0});
  Tensor scalar = tensor({5.0f}).reshape({});
  expect_close(sum(scalar, {0}), {}, {5});
  expect_close(sum(scalar, {-1}, true), {}, {5});
  expect_close(scalar.sum(), {}, {5});
}

TEST(ReduceSum, Errors) {
  Tensor x = zeros({2, 3});
  EXPECT_EQ(error_of<IndexError>([&] { sum(x, {2}); }).rfind("[sum] Dimension out of range", 0),
            0u);
  EXPECT_EQ(error_of<ValueError>([&] {
              sum(x, {0, -2});
            }),
            "[sum] dim 0 appears multiple times in the list of dims");
}

TEST(ReduceSum, LongSumsStayAccurate) {
  // One running float accumulator would drift by ~1e-3 here; pairwise summation does not.
  const int64_t n = int64_t{1} << 22;
  Tensor x = full({n}, 0.1f);
  double expected = static_cast<double>(0.1f) * static_cast<double>(n);
  EXPECT_NEAR(x.sum().item<double>(), expected, expected * 1e-6);
  // The same along an outer dim (rows accumulated as vectors).
  Tensor rows = full({n / 4, 4}, 0.1f);
  expect_close(sum(rows, {0}), {4}, std::vector<double>(4, expected / 4), 1e-6, 0);
}

TEST(ReduceSum, OuterAndInnerDimsMatchReference) {
  manual_seed(2);
  Tensor x = randn({37, 70, 3});
  for (int64_t dim = 0; dim < 3; ++dim)
    expect_close(sum(x, {dim}), sum(x, {dim}).sizes(), reference_lines(x, dim, add_all), 1e-5,
                 1e-4);
  Tensor wide = randn({300, 129});  // several column blocks and a partial one
  expect_close(sum(wide, {0}), {129}, reference_lines(wide, 0, add_all), 1e-5, 1e-4);
  expect_close(sum(wide, {1}), {300}, reference_lines(wide, 1, add_all), 1e-5, 1e-4);
}

TEST(ReduceSum, HalfAccumulatesInFloat) {
  Tensor x = full({4096}, 0.1f).to(kFloat16);
  Tensor s = x.sum();
  EXPECT_EQ(s.dtype(), kFloat16);
  // A half accumulator would stall at 256; float accumulates 4096 * half(0.1) = 409.5.
  EXPECT_NEAR(s.item<float>(), 409.5f, 0.5f);
  Tensor b = full({3, 2}, 1.5f).to(kBFloat16);
  expect_close(sum(b, {0}), {2}, {4.5, 4.5});
}

TEST(ReduceMean, ValuesDtypesAndErrors) {
  Tensor x = arange(6, kFloat32).reshape({2, 3});
  expect_close(x.mean(), {}, {2.5});
  expect_close(mean(x, {0}), {3}, {1.5, 2.5, 3.5});
  expect_close(mean(x, {-1}, true), {2, 1}, {1, 4});
  expect_close(mean(x.t(), {1}), {3}, {1.5, 2.5, 3.5});
  EXPECT_TRUE(std::isnan(zeros({0}).mean().item<double>()));
  Tensor h = x.to(kFloat16).mean();
  EXPECT_EQ(h.dtype(), kFloat16);
  EXPECT_EQ(h.item<float>(), 2.5f);
  EXPECT_EQ(
      error_of<TypeError>([] {
        tensor({1, 2}, kInt32).mean();
      })
          .rfind("[mean] could not infer output dtype. Input dtype must be either a floating point "
                 "or complex dtype. Got: Int",
                 0),
      0u);
  EXPECT_NE(error_of<TypeError>([] { tensor({true}).mean(); }), "");
}

TEST(ReduceProd, ValuesAndDtypes) {
  Tensor x = tensor({{1, 2, 3}, {4, 5, 6}}, kInt16);
  EXPECT_EQ(prod(x).dtype(), kInt64);
  expect_values<int64_t>(prod(x), {}, {720});
  expect_values<int64_t>(prod(x, 1), {2}, {6, 120});
  expect_values<int64_t>(prod(x, 0, true), {1, 3}, {4, 10, 18});
  expect_close(prod(tensor({0.5f, 4.0f, -1.0f})), {}, {-2});
  expect_close(prod(zeros({0})), {}, {1});
  expect_values<int64_t>(prod(tensor({true, false})), {}, {0});
  expect_close(prod(x, -1, false, kFloat64), {2}, {6, 120});
}

TEST(ReduceMax, AllAndAlongDims) {
  Tensor x = tensor({{3.0f, 7.0f, 7.0f}, {-1.0f, 2.0f, -5.0f}});
  expect_close(x.max(), {}, {7});
  expect_close(x.min(), {}, {-5});
  expect_close(amax(x, {1}), {2}, {7, 2});
  expect_close(amin(x, {0}, true), {1, 3}, {-1, 2, -5});
  expect_close(amax(x, {}), {}, {7});
  auto [values, indices] = max(x, 1);
  expect_close(values, {2}, {7, 2});
  expect_values<int64_t>(indices, {2}, {1, 1});  // the first of the two 7s
  auto [mins, where] = min(x, 0, true);
  expect_close(mins, {1, 3}, {-1, 2, -5});
  expect_values<int64_t>(where, {1, 3}, {1, 1, 1});
  expect_values<int32_t>(amax(tensor({{4, -9}, {2, 8}}, kInt32), {0}), {2}, {4, 8});
  expect_values<bool>(tensor({false, true}).max(), {}, {true});
}

TEST(ReduceMax, NaNPropagates) {
  Tensor x = tensor({1.0f, NAN, 3.0f, NAN});
  EXPECT_TRUE(std::isnan(x.max().item<double>()));
  EXPECT_TRUE(std::isnan(x.min().item<double>()));
  auto [v, i] = max(x, 0);
  EXPECT_TRUE(std::isnan(v.item<double>()));
  EXPECT_EQ(i.item<int64_t>(), 1);
  EXPECT_EQ(x.argmin().item<int64_t>(), 1);
  // NaN late in a long run, where the vector lanes and threads split the work.
  Tensor long_x = zeros({100000});
  long_x.narrow(0, 99990, 1).fill_(NAN);
  EXPECT_TRUE(std::isnan(long_x.max().item<double>()));
  EXPECT_EQ(long_x.argmax().item<int64_t>(), 99990);
}

TEST(ReduceMax, ArgmaxFirstOccurrenceAndFlatIndex) {
  Tensor x = tensor({{1, 5, 5}, {5, 0, 5}});
  expect_values<int64_t>(argmax(x, 1), {2}, {1, 0});
  expect_values<int64_t>(argmin(x, 0, true), {1, 3}, {0, 1, 0});
  EXPECT_EQ(x.argmax().item<int64_t>(), 1);
  EXPECT_EQ(x.t().argmax().item<int64_t>(), 1);  // x.t() = [[1,5],[5,0],[5,5]]
  EXPECT_EQ(x.t().argmin().item<int64_t>(), 3);
  expect_values<int64_t>(argmax(x, std::nullopt, true), {1, 1}, {1});
  // Ties across lanes and threads still give the first index.
  Tensor flat = zeros({200000});
  flat.narrow(0, 150000, 1).fill_(2.0f);
  flat.narrow(0, 170000, 1).fill_(2.0f);
  EXPECT_EQ(flat.argmax().item<int64_t>(), 150000);
  EXPECT_EQ(flat.argmin().item<int64_t>(), 0);
  Tensor cols = zeros({50, 3});
  cols.narrow(0, 20, 1).fill_(1.0f);
  cols.narrow(0, 40, 1).fill_(1.0f);
  expect_values<int64_t>(argmax(cols, 0), {3}, {20, 20, 20});
}

TEST(ReduceMax, EmptyInputs) {
  EXPECT_EQ(error_of<IndexError>([] { zeros({0}).max(); }),
            "[max] Expected reduction dim to be specified for input.numel() == 0. Specify the "
            "reduction dim with the 'dim' argument.");
  EXPECT_EQ(error_of<IndexError>([] {
              max(zeros({0, 3}), 0);
            }),
            "[max] Expected reduction dim 0 to have non-zero size.");
  EXPECT_EQ(error_of<IndexError>([] {
              amin(zeros({2, 0}), {-1});
            }),
            "[amin] Expected reduction dim 1 to have non-zero size.");
  EXPECT_EQ(error_of<IndexError>([] { zeros({0}).argmax(); }).rfind("[argmax]", 0), 0u);
  auto [values, indices] = max(zeros({0, 3}), 1);
  EXPECT_EQ(values.sizes(), IntArrayRef({0}));
  EXPECT_EQ(indices.sizes(), IntArrayRef({0}));
  EXPECT_EQ(error_of<TypeError>([] { tensor({true}).argmax(); }).rfind("[argmax]", 0), 0u);
}

TEST(ReduceVar, CorrectionAndDims) {
  Tensor x = tensor({{1.0f, 2.0f, 3.0f, 4.0f}, {2.0f, 2.0f, 2.0f, 6.0f}});
  expect_close(var(x), {}, {2.5}, 1e-6);
  expect_close(var(x, 1), {2}, {5.0 / 3.0, 4.0}, 1e-6);
  expect_close(var(x, {1}, 0), {2}, {1.25, 3.0}, 1e-6);
  expect_close(ember::std(x, {0}, 1, true), {1, 4},
               {std::sqrt(0.5), 0, std::sqrt(0.5), std::sqrt(2.0)}, 1e-6);
  expect_close_special(var(x, {0}, Scalar(3)), {4},
                       {kInf, kDoubleNaN, kInf, kInf});  // m2 / max(0, n - 3)
  EXPECT_TRUE(std::isnan(var(tensor({1.0f})).item<double>()));
  EXPECT_TRUE(std::isnan(ember::std(zeros({0})).item<double>()));
  // Welford stays accurate with a large offset, where sum of squares would cancel.
  Tensor shifted = tensor({1e4f + 1, 1e4f + 2, 1e4f + 3}, kFloat32);
  expect_close(var(shifted), {}, {1.0}, 1e-6);
  expect_close(var(x.t(), 0), {2}, {5.0 / 3.0, 4.0}, 1e-6);
  EXPECT_EQ(error_of<TypeError>([] {
              var(tensor({1, 2}));
            }).rfind("[var] std and var only support floating point and complex dtypes.", 0),
            0u);
}

TEST(ReduceNorm, OrdersAndErrors) {
  Tensor x = tensor({{3.0f, -4.0f}, {0.0f, 1.0f}});
  expect_close(norm(x), {}, {std::sqrt(26.0)});
  expect_close(norm(x, 1), {}, {8});
  expect_close(norm(x, kInf), {}, {4});
  expect_close(norm(x, -kInf), {}, {0});
  expect_close(norm(x, 0), {}, {3});
  expect_close(norm(x, 3, {1}), {2}, {std::cbrt(91.0), 1}, 1e-6);
  expect_close(norm(x, 2, {0}, true), {1, 2}, {3, std::sqrt(17.0)});
  expect_close(norm(zeros({0})), {}, {0});
  expect_close(norm(x.to(kFloat16)), {}, {std::sqrt(26.0)}, 1e-3);
  EXPECT_EQ(error_of<TypeError>([] {
              norm(tensor({1, 2}));
            }).rfind("[norm] input dtype should be either floating point or complex. Got Long", 0),
            0u);
}

TEST(ReduceAnyAll, BoolIntAndEmpty) {
  Tensor b = tensor({{true, false}, {true, true}});
  expect_values<bool>(b.all(), {}, {false});
  expect_values<bool>(b.any(), {}, {true});
  expect_values<bool>(all(b, 0), {2}, {true, false});
  expect_values<bool>(any(b, 1, true), {2, 1}, {true, true});
  expect_values<bool>(tensor({0.0f, NAN}).all(), {}, {false});
  expect_values<bool>(tensor({2, -1}).all(), {}, {true});
  expect_values<bool>(zeros({0}).all(), {}, {true});
  expect_values<bool>(zeros({0}).any(), {}, {false});
  Tensor u = tensor({1, 0}, kUInt8);
  EXPECT_EQ(u.any().dtype(), kUInt8);
  expect_values<uint8_t>(u.all(), {}, {0});
}

TEST(ReduceLogSumExp, StableAndInfinite) {
  Tensor x = tensor({{1000.0f, 1000.0f}, {-1.0f, 2.0f}});
  expect_close(logsumexp(x, {1}), {2}, {1000 + std::log(2.0), 2 + std::log(1 + std::exp(-3.0))},
               1e-6);
  expect_close(logsumexp(x, {0}, true), {1, 2}, {1000, 1000});
  expect_close_special(logsumexp(tensor({-kInf, -kInf}), {0}), {}, {-kInf});
  expect_close_special(logsumexp(tensor({kInf, 1.0}), {0}), {}, {kInf});
  expect_close_special(logsumexp(tensor({kInf, kInf}), {0}), {}, {kInf});
  EXPECT_TRUE(std::isnan(logsumexp(tensor({1.0f, NAN}), {0}).item<double>()));
  expect_close_special(logsumexp(zeros({0}), {0}), {}, {-kInf});
  Tensor ints = logsumexp(tensor({0, 0}), {0});
  EXPECT_EQ(ints.dtype(), kFloat32);
  expect_close(ints, {}, {std::log(2.0)});
  manual_seed(3);
  Tensor r = randn({20, 30});
  auto lse = [](const std::vector<double>& v) {
    double s = 0;
    for (double e : v) s += std::exp(e);
    return std::log(s);
  };
  expect_close(logsumexp(r, {1}), {20}, reference_lines(r, 1, lse), 1e-5);
  expect_close(logsumexp(r, {0}), {30}, reference_lines(r, 0, lse), 1e-5);
}

TEST(ReduceCumsum, DimsDtypesAndLayouts) {
  Tensor x = arange(6, kFloat32).reshape({2, 3});
  expect_close(cumsum(x, 1), {2, 3}, {0, 1, 3, 3, 7, 12});
  expect_close(cumsum(x, 0), {2, 3}, {0, 1, 2, 3, 5, 7});
  expect_close(cumsum(x.t(), -1), {3, 2}, {0, 3, 1, 5, 2, 7});
  Tensor i = cumsum(tensor({1, 2, 3}, kInt32), 0);
  EXPECT_EQ(i.dtype(), kInt64);
  expect_values<int64_t>(i, {3}, {1, 3, 6});
  expect_values<int64_t>(cumsum(tensor({true, true, false}), 0), {3}, {1, 2, 2});
  expect_close(cumsum(tensor({1, 2}), 0, kFloat64), {2}, {1, 3});
  expect_close(cumsum(tensor({4.0f}).reshape({}), 0), {}, {4});
  EXPECT_EQ(cumsum(zeros({0, 2}), 1).sizes(), IntArrayRef({0, 2}));
  manual_seed(4);
  Tensor r = randn({3, 200, 70});  // several column blocks per outer slice
  std::vector<double> data = r.to_vector<double>(), expected(data.size());
  for (int64_t o = 0; o < 3; ++o)
    for (int64_t k = 0; k < 70; ++k) {
      double acc = 0;
      for (int64_t n = 0; n < 200; ++n)
        expected[(o * 200 + n) * 70 + k] = acc += data[(o * 200 + n) * 70 + k];
    }
  expect_close(cumsum(r, 1), {3, 200, 70}, expected, 1e-5, 1e-5);
}

std::vector<double> reference_softmax(const Tensor& x, int64_t dim, bool log) {
  std::vector<double> data = x.to_vector<double>(), out(data.size());
  int64_t outer = 1, n = x.size(dim), inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= x.size(d);
  for (int64_t d = dim + 1; d < x.dim(); ++d) inner *= x.size(d);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k = 0; k < inner; ++k) {
      auto at = [&](int64_t i) { return (o * n + i) * inner + k; };
      double m = -kInf, s = 0;
      for (int64_t i = 0; i < n; ++i) m = std::max(m, data[at(i)]);
      for (int64_t i = 0; i < n; ++i) s += std::exp(data[at(i)] - m);
      for (int64_t i = 0; i < n; ++i)
        out[at(i)] = log ? data[at(i)] - m - std::log(s) : std::exp(data[at(i)] - m) / s;
    }
  return out;
}

TEST(Softmax, MatchesReferenceAlongEveryDim) {
  manual_seed(5);
  Tensor x = randn({4, 37, 70}) * 5.0;
  for (int64_t dim = 0; dim < 3; ++dim) {
    expect_close(softmax(x, dim), x.sizes(), reference_softmax(x, dim, false), 1e-5, 1e-7);
    expect_close(log_softmax(x, dim), x.sizes(), reference_softmax(x, dim, true), 1e-5, 1e-5);
  }
  expect_close(x.softmax(-1), x.sizes(), reference_softmax(x, 2, false), 1e-5, 1e-7);
  Tensor t = x.transpose(1, 2);  // non-contiguous
  expect_close(softmax(t, 1), t.sizes(), reference_softmax(t.contiguous(), 1, false), 1e-5, 1e-7);
}

TEST(Softmax, StableWithLargeAndInfiniteValues) {
  Tensor x = tensor({{1000.0f, 1001.0f, -kInf}, {-1000.0f, -1000.0f, -1000.0f}});
  double e = std::exp(-1.0);
  expect_close(softmax(x, 1), {2, 3}, {e / (1 + e), 1 / (1 + e), 0, 1.0 / 3, 1.0 / 3, 1.0 / 3});
  EXPECT_EQ(softmax(x, 1).to_vector<float>()[2], 0.0f);  // masked entries are exactly 0
  expect_close_special(
      log_softmax(x, 1), {2, 3},
      {-1 - std::log1p(e), -std::log1p(e), -kInf, -std::log(3.0), -std::log(3.0), -std::log(3.0)});
  std::vector<double> all_masked = softmax(tensor({-kInf, -kInf}), 0).to_vector<double>();
  EXPECT_TRUE(std::isnan(all_masked[0]) && std::isnan(all_masked[1]));  // as PyTorch
  EXPECT_TRUE(std::isnan(softmax(tensor({1.0f, NAN}), 0).to_vector<double>()[0]));
}

TEST(Softmax, DtypesZeroSizeAndErrors) {
  Tensor x = tensor({{1.0f, 2.0f, 3.0f}});
  Tensor h = softmax(x.to(kFloat16), 1);
  EXPECT_EQ(h.dtype(), kFloat16);
  expect_close(h, {1, 3}, reference_softmax(x, 1, false), 2e-3, 1e-3);
  Tensor d = softmax(tensor({1, 2, 3}), 0, kFloat64);
  EXPECT_EQ(d.dtype(), kFloat64);
  expect_close(d, {3}, reference_softmax(x.reshape({3}), 0, false), 1e-12, 0);
  expect_close(softmax(tensor({2.0f}).reshape({}), 0), {}, {1});
  EXPECT_EQ(softmax(zeros({2, 0}), 1).sizes(), IntArrayRef({2, 0}));
  EXPECT_EQ(softmax(zeros({0, 3}), 1).sizes(), IntArrayRef({0, 3}));
  EXPECT_EQ(error_of<TypeError>([] {
              softmax(tensor({1, 2}), 0);
            })
                .rfind("[softmax] expected a "
                       "floating-point tensor",
                       0),
            0u);
  EXPECT_EQ(error_of<IndexError>([&] { log_softmax(x, 2); }).rfind("[log_softmax] Dimension", 0),
            0u);
}

TEST(Softmax, FastExpIsAccurate) {
  // Within 2 ulp of the double-precision exp over softmax's range, and exact at the edges.
  const float inf = std::numeric_limits<float>::infinity();
  for (float v = -87.0f; v <= 88.0f; v += 0.0137f) {
    double expected = std::exp(static_cast<double>(v));
    float ulp = std::nextafter(static_cast<float>(expected), inf) - static_cast<float>(expected);
    EXPECT_NEAR(kernels::fast_exp(v), expected, 2.0 * ulp) << "at " << v;
  }
  EXPECT_EQ(kernels::fast_exp(0.0f), 1.0f);
  EXPECT_EQ(kernels::fast_exp(-std::numeric_limits<float>::infinity()), 0.0f);
  EXPECT_EQ(kernels::fast_exp(std::numeric_limits<float>::infinity()),
            std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(kernels::fast_exp(NAN)));
}

TEST(Softmax, FastTanhIsAccurate) {
  // Within 3 ulp of the double-precision tanh (or 2e-45 near zero) on both sides of the switch
  // from the polynomial to the exponential form at 0.625, and exact at the edges.
  const float inf = std::numeric_limits<float>::infinity();
  for (float v = -12.0f; v <= 12.0f; v += 0.00731f) {
    double expected = std::tanh(static_cast<double>(v));
    float magnitude = std::fabs(static_cast<float>(expected));
    float ulp = std::nextafter(magnitude, inf) - magnitude;
    EXPECT_NEAR(kernels::fast_tanh(v), expected, 3.0 * ulp + 2e-45) << "at " << v;
  }
  EXPECT_EQ(kernels::fast_tanh(0.0f), 0.0f);
  EXPECT_EQ(kernels::fast_tanh(inf), 1.0f);
  EXPECT_EQ(kernels::fast_tanh(-inf), -1.0f);
  EXPECT_TRUE(std::isnan(kernels::fast_tanh(NAN)));
}

}  // namespace
}  // namespace ember
