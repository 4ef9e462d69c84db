// Matrix products checked against a naive triple loop in double: BLAS and loop paths, strided
// and broadcast operands, PyTorch's matmul shape rules, zero sizes and error messages.
#include <cmath>
#include <limits>
#include <vector>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

using test::error_of;
using test::expect_close;

// a @ b for a: [batch, m, k] and b: [batch, k, n] (2-D means one batch), in double, row-major.
std::vector<double> naive_bmm(const Tensor& a, const Tensor& b) {
  Tensor a3 = a.dim() == 2 ? a.unsqueeze(0) : a, b3 = b.dim() == 2 ? b.unsqueeze(0) : b;
  int64_t batch = a3.size(0), m = a3.size(1), k = a3.size(2), n = b3.size(2);
  std::vector<double> x = a3.to_vector<double>(), y = b3.to_vector<double>();
  std::vector<double> out(static_cast<size_t>(batch * m * n), 0.0);
  for (int64_t p = 0; p < batch; ++p)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t q = 0; q < k; ++q) s += x[(p * m + i) * k + q] * y[(p * k + q) * n + j];
        out[(p * m + i) * n + j] = s;
      }
  return out;
}

// The values of matmul(a, b) by naive loops: vectors become a row (left) or a column (right),
// batch dims are broadcast by the test's own expand to `batch`.
std::vector<double> naive_matmul(const Tensor& a, const Tensor& b, std::vector<int64_t> batch) {
  Tensor a2 = a.dim() == 1 ? a.unsqueeze(0) : a, b2 = b.dim() == 1 ? b.unsqueeze(1) : b;
  int64_t count = 1;
  for (int64_t s : batch) count *= s;
  auto flat = [&](const Tensor& t) {
    std::vector<int64_t> shape = batch;
    shape.insert(shape.end(), {t.size(-2), t.size(-1)});
    return t.expand(shape).reshape({count, t.size(-2), t.size(-1)});
  };
  return naive_bmm(flat(a2), flat(b2));
}

Tensor random(IntArrayRef shape, ScalarType dtype = kFloat32) {
  if (isIntegralType(dtype, false)) return randint(-9, 10, shape, TensorOptions(dtype));
  return randn(shape, TensorOptions(kFloat64)).to(dtype);
}

// Tolerances for a sum of k products: float32 and the 16-bit floats round each step.
double tolerance(ScalarType dtype) {
  switch (dtype) {
    case kFloat64: return 1e-12;
    case kFloat32: return 1e-5;
    case kFloat16: return 2e-2;
    case kBFloat16: return 5e-2;
    case kBool:
    case kUInt8:
    case kInt8:
    case kInt16:
    case kInt32:
    case kInt64: return 0;  // integers are exact
  }
  return 0;
}

void expect_mm(const Tensor& a, const Tensor& b) {
  double tol = tolerance(a.scalar_type());
  Tensor c = mm(a, b);
  EXPECT_EQ(c.scalar_type(), a.scalar_type());
  expect_close(c, {a.size(0), b.size(1)}, naive_bmm(a, b), tol, tol * 10);
}

TEST(Matmul, MmMatchesNaiveForEveryDtype) {
  manual_seed(1);
  for (ScalarType dtype : {kFloat32, kFloat64, kFloat16, kBFloat16, kInt64, kInt32, kInt16}) {
    SCOPED_TRACE(toString(dtype));
    expect_mm(random({5, 7}, dtype), random({7, 3}, dtype));
    expect_mm(random({37, 300}, dtype), random({300, 270}, dtype));  // several loop tiles
  }
}

TEST(Matmul, Int64IsExact) {
  Tensor a = tensor({{1, 2, 3}, {4, 5, 6}}), b = tensor({{7, 8}, {9, 10}, {11, 12}});
  test::expect_values<int64_t>(mm(a, b), {2, 2}, {58, 64, 139, 154});
  // Beyond float's 24-bit mantissa: the sum is done in int64, not through a float BLAS.
  Tensor big = full({1, 2}, (int64_t{1} << 40) + 1);
  test::expect_values<int64_t>(mm(big, full({2, 1}, 3)), {1, 1}, {6 * ((int64_t{1} << 40) + 1)});
}

TEST(Matmul, StridedOperands) {
  manual_seed(2);
  for (ScalarType dtype : {kFloat32, kFloat64, kInt64}) {
    SCOPED_TRACE(toString(dtype));
    Tensor at = random({7, 5}, dtype).t(), bt = random({3, 7}, dtype).t();  // BLAS transposes
    Tensor a = random({5, 7}, dtype), b = random({7, 3}, dtype);
    expect_mm(at, b);
    expect_mm(a, bt);
    expect_mm(at, bt);
    expect_mm(random({5, 10}, dtype).narrow(1, 2, 7), b);     // row stride 10
    expect_mm(random({5, 14}, dtype).slice(1, 0, 14, 2), b);  // column stride 2: copied
    expect_mm(random({1, 7}, dtype).expand({5, 7}), b);       // row stride 0
    expect_mm(a, random({7, 1}, dtype).expand({7, 3}));       // column stride 0
    expect_mm(random({9, 12}, dtype).slice(0, 0, 9, 2).narrow(1, 1, 7).t().t(), bt);
  }
}

TEST(Matmul, LargeFloatThroughBlas) {
  manual_seed(3);
  Tensor a = random({300, 200}), b = random({250, 200}).t();
  expect_close(matmul(a, b), {300, 250}, naive_bmm(a, b), 1e-4, 1e-4);
}

// Few rows and many more columns: the columns are split over the threads in 16-column runs
// (kGemmFewRowsPerThread), here with a last run of 13, for both layouts of each operand and with
// beta accumulating into c.
TEST(Matmul, FewRowsSplitTheirColumns) {
  manual_seed(4);
  const int saved_threads = get_num_threads();
  set_num_threads(2);
  for (ScalarType dtype : {kFloat32, kFloat64}) {
    SCOPED_TRACE(toString(dtype));
    const double tol = tolerance(dtype) * 10;
    for (int64_t m : {3, 64}) {
      Tensor a = random({m, 700}, dtype), at = random({700, m}, dtype).t();
      Tensor b = random({700, 333}, dtype), bt = random({333, 700}, dtype).t();
      expect_close(mm(a, b), {m, 333}, naive_bmm(a, b), tol, tol);
      expect_close(mm(at, bt), {m, 333}, naive_bmm(at, bt), tol, tol);
      Tensor c = random({m, 333}, dtype);
      std::vector<double> want = naive_bmm(a, bt), before = c.to_vector<double>();
      for (size_t i = 0; i < want.size(); ++i) want[i] = 0.5 * before[i] + 2.0 * want[i];
      expect_close(addmm(c, a, bt, 0.5, 2.0), {m, 333}, want, tol, tol);
    }
  }
  set_num_threads(saved_threads);
}

struct ShapeCase {
  std::vector<int64_t> a, b, out, batch;  // batch: the broadcast batch dims of the reference
};

TEST(Matmul, ShapesFollowPyTorch) {
  // Output shapes as torch.matmul gives them.
  std::vector<ShapeCase> cases = {
      {{3}, {3}, {}, {}},
      {{2, 3}, {3}, {2}, {}},
      {{3}, {3, 4}, {4}, {}},
      {{2, 3}, {3, 4}, {2, 4}, {}},
      {{5, 2, 3}, {3}, {5, 2}, {5}},
      {{5, 2, 3}, {3, 4}, {5, 2, 4}, {5}},
      {{3}, {5, 3, 4}, {5, 4}, {5}},
      {{2, 3}, {5, 3, 4}, {5, 2, 4}, {5}},
      {{5, 2, 3}, {5, 3, 4}, {5, 2, 4}, {5}},
      {{5, 1, 2, 3}, {4, 3, 2}, {5, 4, 2, 2}, {5, 4}},
      {{1, 2, 3}, {6, 3, 4}, {6, 2, 4}, {6}},
      {{7, 1, 2, 3}, {1, 5, 3, 4}, {7, 5, 2, 4}, {7, 5}},
      {{2, 1, 4, 3}, {3}, {2, 1, 4}, {2, 1}},
  };
  manual_seed(4);
  for (ScalarType dtype : {kFloat32, kFloat64, kInt64, kFloat16}) {
    for (const ShapeCase& c : cases) {
      SCOPED_TRACE(::testing::Message()
                   << toString(dtype) << " " << IntArrayRef(c.a) << " @ " << IntArrayRef(c.b));
      Tensor a = random(c.a, dtype), b = random(c.b, dtype);
      double tol = tolerance(dtype);
      expect_close(matmul(a, b), c.out, naive_matmul(a, b, c.batch), tol, tol * 10);
    }
  }
}

TEST(Matmul, BroadcastBatchOfTransposedMatrices) {
  manual_seed(5);
  Tensor a = random({4, 1, 6, 3}).transpose(-1, -2);  // [4, 1, 3, 6], BLAS transposes
  Tensor b = random({5, 6, 2});
  expect_close(matmul(a, b), {4, 5, 3, 2}, naive_matmul(a, b, {4, 5}), 1e-5, 1e-5);
  Tensor strided = random({4, 5, 6, 4}).slice(-1, 0, 4, 2);  // column stride 2
  expect_close(matmul(a, strided), {4, 5, 3, 2}, naive_matmul(a, strided, {4, 5}), 1e-5, 1e-5);
}

TEST(Matmul, ManySmallAndFewLargeBatches) {
  manual_seed(6);
  Tensor a = random({64, 8, 9}), b = random({64, 9, 7});  // parallel over batches
  expect_close(bmm(a, b), {64, 8, 7}, naive_bmm(a, b), 1e-5, 1e-5);
  Tensor c = random({2, 80, 90}, kFloat64), d = random({2, 90, 70}, kFloat64);
  expect_close(bmm(c, d), {2, 80, 70}, naive_bmm(c, d), 1e-12, 1e-12);
}

TEST(Matmul, ZeroSizes) {
  for (ScalarType dtype : {kFloat32, kInt64}) {
    SCOPED_TRACE(toString(dtype));
    EXPECT_EQ(matmul(ones({0, 3}, dtype), ones({3, 4}, dtype)).sizes(), IntArrayRef({0, 4}));
    EXPECT_EQ(matmul(ones({0, 2, 3}, dtype), ones({3, 4}, dtype)).sizes(), IntArrayRef({0, 2, 4}));
    EXPECT_EQ(matmul(ones({2, 0, 3}, dtype), ones({2, 3, 4}, dtype)).sizes(),
              IntArrayRef({2, 0, 4}));
    // k == 0: an empty sum is zero.
    expect_close(matmul(ones({2, 0}, dtype), ones({0, 4}, dtype)), {2, 4},
                 std::vector<double>(8, 0.0));
    expect_close(matmul(ones({2, 3, 0}, dtype), ones({0, 4}, dtype)), {2, 3, 4},
                 std::vector<double>(24, 0.0));
    expect_close(dot(ones({0}, dtype), ones({0}, dtype)), {}, {0.0});
    expect_close(addmm(full({2, 2}, 3, dtype), ones({2, 0}, dtype), ones({0, 2}, dtype), 2), {2, 2},
                 std::vector<double>(4, 6.0));
  }
}

TEST(Linalg, BmmMvDot) {
  manual_seed(7);
  Tensor a = random({3, 4, 5}), b = random({3, 5, 2});
  expect_close(bmm(a, b), {3, 4, 2}, naive_bmm(a, b), 1e-5, 1e-5);
  Tensor m = random({4, 5}, kFloat64), v = random({10}, kFloat64).slice(0, 0, 10, 2);
  expect_close(mv(m, v), {4}, naive_bmm(m, v.unsqueeze(1)), 1e-12, 1e-12);
  expect_close(mv(m.t().contiguous().t(), v), {4}, naive_bmm(m, v.unsqueeze(1)), 1e-12, 1e-12);
  Tensor x = tensor({1, 2, 3}), y = tensor({4, 5, 6});
  test::expect_values<int64_t>(dot(x, y), {}, {32});
  expect_close(dot(v, v), {}, naive_bmm(v.unsqueeze(0), v.unsqueeze(1)), 1e-12, 1e-12);
}

TEST(Linalg, AddmmScalesAndBroadcasts) {
  manual_seed(8);
  for (ScalarType dtype : {kFloat32, kFloat64, kInt64, kBFloat16}) {
    SCOPED_TRACE(toString(dtype));
    Tensor self = random({3}, dtype), a = random({2, 4}, dtype), b = random({4, 3}, dtype);
    std::vector<double> ab = naive_bmm(a, b), s = self.to_vector<double>(), expected;
    for (size_t i = 0; i < ab.size(); ++i) expected.push_back(2 * s[i % 3] + 3 * ab[i]);
    double tol = tolerance(dtype);
    expect_close(addmm(self, a, b, 2, 3), {2, 3}, expected, tol, tol * 10);
  }
}

TEST(Linalg, AddmmWithBetaZeroIgnoresSelf) {
  Tensor nan = full({2, 2}, std::numeric_limits<float>::quiet_NaN());
  expect_close(addmm(nan, ones({2, 3}), ones({3, 2}), 0), {2, 2}, {3, 3, 3, 3});
  EXPECT_NE(error_of([&] { addmm(ones({3, 2}), ones({2, 3}), ones({3, 2}), 0); }), "");
}

TEST(Linalg, LinearAnyLeadingDims) {
  manual_seed(9);
  Tensor w = random({4, 3}), bias = random({4});
  std::vector<double> bv = bias.to_vector<double>();
  for (std::vector<int64_t> shape : {std::vector<int64_t>{3}, {5, 3}, {2, 5, 3}, {2, 1, 5, 3}}) {
    SCOPED_TRACE(::testing::Message() << IntArrayRef(shape));
    Tensor x = random(shape);
    std::vector<int64_t> out_shape(shape.begin(), shape.end() - 1);
    out_shape.push_back(4);
    std::vector<double> xw = naive_bmm(x.reshape({-1, 3}), w.t()), with_bias = xw;
    for (size_t i = 0; i < xw.size(); ++i) with_bias[i] += bv[i % 4];
    expect_close(linear(x, w), out_shape, xw, 1e-5, 1e-5);
    expect_close(linear(x, w, bias), out_shape, with_bias, 1e-5, 1e-5);
  }
  // A transposed input (copied when folding its leading dims) and a transposed weight.
  Tensor x = random({3, 5}).t(), wt = random({3, 4}).t();
  expect_close(
      linear(x, wt, bias), {5, 4},
      [&] {
        std::vector<double> r = naive_bmm(x, wt.t());
        for (size_t i = 0; i < r.size(); ++i) r[i] += bv[i % 4];
        return r;
      }(),
      1e-5, 1e-5);
}

TEST(Linalg, DtypeErrorsNameBoth) {
  Tensor f = ones({2, 3}), l = ones({3, 2}, kInt64);
  EXPECT_EQ(error_of<TypeError>([&] { mm(f, l); }),
            "[mm] expected mat1 and mat2 to have the same dtype, but got Float and Long");
  EXPECT_EQ(error_of<TypeError>([&] { matmul(f, l); }),
            "[matmul] expected self and other to have the same dtype, but got Float and Long");
  EXPECT_EQ(error_of<TypeError>([&] {
              addmm(ones({2, 2}, kFloat64), f, f.t());
            }),
            "[addmm] expected self and mat1 to have the same dtype, but got Double and Float");
  EXPECT_EQ(error_of<TypeError>([&] {
              linear(f, ones({4, 3}), ones({4}, kFloat64));
            }),
            "[linear] expected input and bias to have the same dtype, but got Float and Double");
  EXPECT_EQ(error_of<TypeError>([&] {
              matmul(ones({2, 2}, kBool), ones({2, 2}, kBool));
            }),
            "[matmul] matrix products are not implemented for Bool tensors");
}

TEST(Linalg, ShapeErrors) {
  EXPECT_EQ(error_of<ValueError>([] {
              mm(ones({2, 3}), ones({4, 5}));
            }),
            "[mm] mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  EXPECT_EQ(error_of<ValueError>([] {
              mm(ones({2, 3, 4}), ones({4, 5}));
            }),
            "[mm] expected mat1 to be a 2-D tensor, but got a 3-D tensor");
  EXPECT_EQ(error_of<ValueError>([] {
              matmul(ones({2, 3, 4}), ones({5}));
            }),
            "[matmul] self and other shapes cannot be multiplied (2x3x4 and 5)");
  EXPECT_EQ(error_of<ValueError>([] { matmul(ones({}), ones({3})); }),
            "[matmul] both arguments need to be at least 1-D, but they are 0-D and 1-D");
  EXPECT_NE(error_of<ValueError>([] {
              matmul(ones({2, 3, 4}), ones({3, 4, 5}));
            }).find("[matmul] The size of tensor a (2) must match the size of tensor b (3)"),
            std::string::npos);
  EXPECT_EQ(error_of<ValueError>([] {
              bmm(ones({2, 3, 4}), ones({3, 4, 5}));
            }),
            "[bmm] expected batch1 and batch2 to have the same batch size, but got 2 and 3");
  EXPECT_EQ(error_of<ValueError>([] {
              mv(ones({2, 3}), ones({4}));
            }),
            "[mv] mat and vec shapes cannot be multiplied (2x3 and 4)");
  EXPECT_EQ(error_of<ValueError>([] { dot(ones({3}), ones({4})); }),
            "[dot] expected both vectors to have the same number of elements, but got 3 and 4");
  EXPECT_EQ(error_of<ValueError>([] {
              linear(ones({2, 3}), ones({4, 5}));
            }),
            "[linear] mat1 and mat2 shapes cannot be multiplied (2x3 and 5x4)");
}

TEST(Linalg, DeviceMismatchNamesTheArguments) {
  EMBER_SKIP_IF_NO_CUDA();
  // The GPU operand decides the device (PyTorch's rule), so the message names the CPU one.
  EXPECT_EQ(error_of([] {
              mm(ones({2, 2}), ones({2, 2}).cuda());
            }),
            "Expected all tensors to be on the same device, but found at least two devices, "
            "cuda:0 and cpu! ([mm] argument 'mat1' is on cpu; move it with .to(cuda:0))");
}

}  // namespace
}  // namespace ember

namespace ember::test {
namespace {

// The one-row fast path (matrix-vector BLAS, columns split over threads) against a broadcast
// multiply-and-sum, for both layouts of the right operand and with beta accumulation.
TEST(Linalg, OneRowProductsMatchBroadcastSums) {
  manual_seed(5);
  for (ScalarType dt : {kFloat32, kFloat64}) {
    Tensor a = randn({1, 300}, dt);
    Tensor b = randn({300, 4000}, dt);  // contiguous: BLAS sees b^T untransposed
    Tensor w = randn({4000, 300}, dt);  // w.t(): the Linear layout
    Tensor bias = randn({4000}, dt);
    Tensor expect_b = (a.t() * b).sum({0}, true);
    Tensor expect_w = (a * w).sum({1}).unsqueeze(0);
    double tol = dt == kFloat32 ? 1e-3 : 1e-10;
    EXPECT_TRUE(allclose(mm(a, b), expect_b, tol, tol)) << dt;
    EXPECT_TRUE(allclose(mm(a, w.t()), expect_w, tol, tol)) << dt;
    EXPECT_TRUE(allclose(addmm(bias, a, w.t(), 0.5, 2.0), bias * 0.5 + expect_w * 2.0, tol, tol))
        << dt;
    EXPECT_TRUE(allclose(linear(a.view({300}), w, bias), (expect_w + bias).view({4000}), tol, tol));
  }
}

}  // namespace
}  // namespace ember::test
