// Note [CPU capabilities]: each copy of the reduction, softmax and elementwise kernels this CPU
// runs agrees with the baseline copy on every loop path. The copies add and compare in
// the same order, so results built from those alone are the same bits; the vector copies let the
// compiler fuse a multiply and an add into one FMA (rounded once, not twice), so results that
// multiply and add (var, std, norms, logsumexp, softmax, add with alpha, sigmoid) may differ in
// the last bits only.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cpu/capability.h"
#include "cpu/kernels.h"
#include "ember/ember.h"

namespace {

using ember::Tensor;
using ember::cpu::Capability;

struct Result {
  Tensor value;
  bool exact;  // built from additions and comparisons only
};

// Every float reduction and softmax, over views that take each loop path: contiguous rows
// (lane tails included: odd sizes), outer-dim columns (the transpose), strided rows (narrow),
// and a full reduction long enough to be split over threads.
std::vector<Result> results(ember::ScalarType dtype) {
  ember::manual_seed(11);
  const Tensor x = ember::randn({67, 1031}, dtype);
  const Tensor big = ember::randn({1 << 18}, dtype);
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<Result> r;
  for (const Tensor& t : {x, x.t(), x.narrow(1, 1, 1000), big.view({-1, 1})}) {
    for (int64_t d : {0, 1}) {
      for (const Tensor& v :
           {ember::sum(t, {d}), ember::mean(t, {d}), ember::prod(t / 2 + 1, d), ember::amax(t, {d}),
            ember::amin(t, {d}), ember::argmax(t, d), std::get<1>(ember::min(t, d)),
            ember::all(t, d), ember::any(t > 2, d)})
        r.push_back({v, true});
      for (double p : {0.0, 1.0, inf, -inf}) r.push_back({ember::norm(t, p, {d}), true});
      for (const Tensor& v :
           {ember::var(t, ember::IntArrayRef(d)), ember::std(t, {d}, 0), ember::norm(t, 2, {d}),
            ember::norm(t, 3, {d}), ember::logsumexp(t, {d}), ember::softmax(t, d),
            ember::log_softmax(t, d)})
        r.push_back({v, false});
    }
    r.push_back({ember::sum(t), true});
    r.push_back({ember::var(t), false});
  }
  // The binary arithmetic on each loop path of cpu_kernel: contiguous, one operand broadcast
  // (a scalar, a row), strided, and in place, long enough to be split over threads.
  const Tensor y = ember::randn({67, 1031}, dtype) + 3;
  const Tensor row = ember::randn({1031}, dtype);
  for (const auto& [a, b] : {std::pair{x, y},
                             {x, row},
                             {row, x},
                             {x.t(), y.t()},
                             {x.narrow(1, 1, 1000), y.narrow(1, 2, 1000)},
                             {big, ember::randn({1 << 18}, dtype)}}) {
    for (const Tensor& v :
         {a + b, a - b, a * b, a / b, a * 2.5, 1.5 / b, ember::maximum(a, b), ember::minimum(a, b),
          ember::pow(ember::abs(a), b), ember::remainder(a, b), ember::floor_divide(a, b)})
      r.push_back({v, true});
    r.push_back({ember::add(a, b, 0.3), false});
    r.push_back({(a * b).add_(b, -0.7), false});
    r.push_back({ember::where(a > 0, a, b), true});
  }
  // The unary ops, clamp and where on the contiguous and the strided path. Those that call libm
  // alone are the same bits; those that also multiply and add (sigmoid, gelu, silu) may fuse.
  for (const Tensor& t : {x, x.t(), big}) {
    for (const Tensor& v :
         {-t, ember::abs(t), ember::sign(t), ember::relu(t), ember::floor(t * 3),
          ember::ceil(t * 3), ember::round(t * 3), ember::square(t), ember::sqrt(ember::abs(t)),
          ember::rsqrt(ember::abs(t)), ember::reciprocal(t), ember::exp(t),
          ember::log(ember::abs(t)), ember::tanh(t), ember::sin(t), ember::clamp(t, -0.5, 0.7),
          ember::clamp(t, std::nullopt, 0.2), ember::where(t > 0.5, 1.0, t)})
      r.push_back({v, true});
    for (const Tensor& v : {ember::sigmoid(t), ember::gelu(t), ember::silu(t)})
      r.push_back({v, false});
  }
  return r;
}

bool same_bits(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.sizes() != b.sizes()) return false;
  Tensor ca = a.contiguous(), cb = b.contiguous();
  return std::memcmp(ca.data_ptr(), cb.data_ptr(), static_cast<size_t>(ca.nbytes())) == 0;
}

// Restores the copy the library chose when a test ends.
struct CopyScope {
  ~CopyScope() { ember::cpu::select_capability(ember::cpu::capability()); }
};

TEST(CpuCapability, EveryCopyMatchesTheBaseline) {
  CopyScope restore;
  const Capability best = ember::cpu::supported_capability();
  if (best == Capability::Baseline) GTEST_SKIP() << "this CPU or build has no vector copy";
  for (ember::ScalarType dtype : {ember::kFloat32, ember::kFloat64}) {
    const double rtol = dtype == ember::kFloat32 ? 1e-5 : 1e-13;
    ember::cpu::select_capability(Capability::Baseline);
    const std::vector<Result> expected = results(dtype);
    for (Capability c : {Capability::Avx2, Capability::Avx512}) {
      if (static_cast<int>(c) > static_cast<int>(best)) continue;
      ember::cpu::select_capability(c);
      const std::vector<Result> got = results(dtype);
      ASSERT_EQ(got.size(), expected.size());
      for (size_t i = 0; i < got.size(); ++i) {
        const Tensor& a = got[i].value;
        const Tensor& b = expected[i].value;
        if (expected[i].exact)
          EXPECT_TRUE(same_bits(a, b))
              << ember::cpu::capability_name(c) << " " << dtype << " result " << i;
        else  // an absolute term too: a fused a + alpha * b near 0 differs by an ulp of alpha * b
          EXPECT_TRUE(ember::allclose(a, b, rtol, /*atol=*/rtol, /*equal_nan=*/true))
              << ember::cpu::capability_name(c) << " " << dtype << " result " << i;
      }
    }
  }
}

// A vector copy hands the dtypes it does not serve to the baseline copy.
TEST(CpuCapability, OtherDtypesStillReduceAndAdd) {
  CopyScope restore;
  ember::cpu::select_capability(ember::cpu::supported_capability());
  Tensor i = ember::arange(1, 101, 1, ember::kInt32).view({4, 25});
  EXPECT_EQ(ember::sum(i).item<int64_t>(), 5050);
  EXPECT_EQ(ember::amax(i, {1}).to_vector<int32_t>(), (std::vector<int32_t>{25, 50, 75, 100}));
  Tensor h = ember::full({3, 5}, 0.5, ember::kFloat16);
  EXPECT_EQ(ember::sum(h).item<float>(), 7.5f);
  Tensor s = ember::softmax(ember::zeros({2, 4}, ember::kBFloat16), 1);
  EXPECT_EQ(s.to(ember::kFloat32).to_vector<float>(), std::vector<float>(8, 0.25f));
  EXPECT_EQ((i * 2 - 1).sum().item<int64_t>(), 10000);
  Tensor hb = (h + 0.25) * h;
  EXPECT_EQ(hb.to(ember::kFloat32).to_vector<float>(), std::vector<float>(15, 0.375f));
  EXPECT_EQ((i > 50).sum().item<int64_t>(), 50);
  EXPECT_EQ(ember::relu(i - 60).sum().item<int64_t>(), 820);  // 1 + 2 + ... + 40
  EXPECT_EQ(ember::amax(ember::clamp(i, 10, 20)).item<int64_t>(), 20);
  EXPECT_EQ(ember::where(i > 98, i, 0).sum().item<int64_t>(), 199);
}

// EMBER_CPU_CAPABILITY caps the copy (CTest runs this with the variable set to baseline).
TEST(CpuCapability, EnvironmentCapsTheCopy) {
  const char* env = std::getenv("EMBER_CPU_CAPABILITY");
  if (env == nullptr) GTEST_SKIP() << "EMBER_CPU_CAPABILITY is not set";
  EXPECT_EQ(std::string(ember::cpu::capability_name(ember::cpu::capability())), env);
  EXPECT_EQ(std::string(ember::cpu_capability()), env);
}

}  // namespace
