// Every reduction, cumsum, softmax and log_softmax on every dtype and every visible GPU, against
// the CPU kernels: integer, bool and index results must be equal, floating ones close (the sums
// run in another order, and the GPU's libm differs from the host's by a few ulps). Skips
// visibly without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "ember/ember.h"
#include "parity/parity_check.h"
#include "test_util.h"

namespace ember {
namespace {

using parity::expect_parity_each;
using parity::gpus;
using parity::is_floating;
using parity::kAllDTypes;
using parity::label;
using parity::sample;

// The geometries the CUDA plan treats differently: whole, along the lanes of a warp, across
// lines, several dims, strided, broadcast, split over blocks, empty, 0-dim.
struct ReduceCase {
  const char* name;
  std::vector<int64_t> shape;
  std::vector<int64_t> dims;  // empty: all
  bool transpose = false, broadcast = false;
};
const std::vector<ReduceCase> kReduceCases = {
    {"full", {2053}, {}},
    {"long full", {300000}, {}},
    {"inner", {37, 300}, {1}},
    {"short inner", {300, 5}, {-1}},
    {"outer", {300, 37}, {0}},
    {"long outer", {30000, 5}, {0}},
    {"several dims", {6, 7, 8}, {0, 2}},
    {"transposed", {40, 33}, {1}, true},
    {"broadcast", {20, 50}, {0}, false, true},
    {"empty reduced", {4, 0}, {1}},
    {"empty kept", {0, 4}, {1}},
    {"0-dim", {}, {}},
};

Tensor make(const ReduceCase& c, ScalarType dtype) {
  if (c.transpose) return sample({c.shape[1], c.shape[0]}, dtype).transpose(0, 1);
  if (c.broadcast) return sample({1, c.shape[1]}, dtype).expand(c.shape);
  return sample(c.shape, dtype);
}

// Sums run in another order on the GPU: looser than one rounding.
double reduction_tolerance(ScalarType t) {
  return t == kBFloat16 ? 1e-2 : t == kFloat16 ? 2e-3 : t == kFloat32 ? 1e-4 : 1e-10;
}

void expect_parity(const std::string& what, Device device,
                   const std::function<std::vector<Tensor>(Device)>& op) {
  expect_parity_each(what, device, op, reduction_tolerance);
}

using Dims = std::vector<int64_t>;
using ReduceOp = std::function<std::vector<Tensor>(const Tensor&, const Dims&)>;
std::vector<Tensor> one(const Tensor& t) { return {t}; }

// Ops that take one dim (or none: everything) get the case's first dim.
const std::vector<std::pair<const char*, ReduceOp>>& reductions() {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  static const std::vector<std::pair<const char*, ReduceOp>> ops = {
      {"sum", [](const Tensor& x, const Dims& d) { return one(sum(x, d)); }},
      {"mean", [](const Tensor& x, const Dims& d) { return one(mean(x, d)); }},
      {"prod",
       [](const Tensor& x, const Dims& d) { return one(d.empty() ? prod(x) : prod(x, d[0])); }},
      {"amax", [](const Tensor& x, const Dims& d) { return one(amax(x, d)); }},
      {"amin", [](const Tensor& x, const Dims& d) { return one(amin(x, d)); }},
      {"max",
       [](const Tensor& x, const Dims& d) {
         if (d.empty()) return one(max(x));
         auto [v, i] = max(x, d[0]);
         return std::vector<Tensor>{v, i};
       }},
      {"min",
       [](const Tensor& x, const Dims& d) {
         if (d.empty()) return one(min(x));
         auto [v, i] = min(x, d[0]);
         return std::vector<Tensor>{v, i};
       }},
      {"argmax",
       [](const Tensor& x, const Dims& d) { return one(d.empty() ? argmax(x) : argmax(x, d[0])); }},
      {"argmin",
       [](const Tensor& x, const Dims& d) {
         return one(d.empty() ? argmin(x) : argmin(x, d[0], /*keepdim=*/true));
       }},
      {"any",
       [](const Tensor& x, const Dims& d) { return one(d.empty() ? any(x) : any(x, d[0])); }},
      {"all",
       [](const Tensor& x, const Dims& d) { return one(d.empty() ? all(x) : all(x, d[0])); }},
      {"var", [](const Tensor& x, const Dims& d) { return one(var(x, d)); }},
      {"std", [](const Tensor& x, const Dims& d) { return one(std(x, d, 0, true)); }},
      {"logsumexp", [](const Tensor& x, const Dims& d) { return one(logsumexp(x, d)); }},
      {"norm 2", [](const Tensor& x, const Dims& d) { return one(norm(x, 2, d)); }},
      {"norm 1", [](const Tensor& x, const Dims& d) { return one(norm(x, 1, d)); }},
      {"norm 0", [](const Tensor& x, const Dims& d) { return one(norm(x, 0, d)); }},
      {"norm 3", [](const Tensor& x, const Dims& d) { return one(norm(x, 3, d)); }},
      {"norm inf", [=](const Tensor& x, const Dims& d) { return one(norm(x, kInf, d)); }},
      {"norm -inf", [=](const Tensor& x, const Dims& d) { return one(norm(x, -kInf, d)); }},
  };
  return ops;
}

TEST(ReduceParity, EveryOpDtypeAndGeometry) {
  EMBER_SKIP_IF_NO_CUDA();
  for (Device device : gpus())
    for (const auto& [name, op] : reductions())
      for (ScalarType dtype : kAllDTypes)
        for (const ReduceCase& c : kReduceCases) {
          Tensor x = make(c, dtype);
          auto fn = op;  // clang 14 cannot capture a structured binding yet (C++20 allows it)
          Dims dims = c.dims;
          expect_parity(
              std::string(name) + " " + toString(dtype) + " " + c.name + " on " + device.str(),
              device, [&](Device d) { return fn(x.to(d), dims); });
        }
}

// NaN wins max/min and their indices (the first NaN) and spreads through sums, however the GPU
// splits the elements.
TEST(ReduceParity, NaN) {
  EMBER_SKIP_IF_NO_CUDA();
  for (Device device : gpus())
    for (ScalarType dtype : {kFloat32, kFloat16, kFloat64}) {
      Tensor x = mul(randn({300, 1000}), 4).to(dtype);
      x.view({-1}).narrow(0, 12345, 1).fill_(std::nan(""));
      x.view({-1}).narrow(0, 200001, 1).fill_(std::nan(""));
      for (const auto& [name, op] : reductions())
        for (const Dims& dims : {Dims{}, Dims{0}, Dims{1}}) {
          auto fn = op;
          expect_parity(std::string(name) + " with NaN " + toString(dtype) + " on " + device.str(),
                        device, [&](Device d) { return fn(x.to(d), dims); });
        }
    }
}

TEST(CumsumParity, EveryDtypeAndLineShape) {
  EMBER_SKIP_IF_NO_CUDA();
  const std::vector<std::pair<std::vector<int64_t>, int64_t>> shapes = {
      {{3, 5000}, 1},  {{40, 100}, 1},  {{100, 9}, 1}, {{2000, 3}, 0},
      {{4, 50, 6}, 1}, {{100, 600}, 0}, {{}, 0},       {{0, 4}, 1}};
  for (Device device : gpus())
    for (ScalarType dtype : kAllDTypes)
      for (const auto& [shape, dim] : shapes) {
        Tensor x = sample(shape, dtype);
        int64_t d = dim;
        const std::string what = std::string("cumsum ") + toString(dtype) + " on " + device.str() +
                                 " dim " + std::to_string(d);
        expect_parity(what, device, [&](Device dev) { return one(cumsum(x.to(dev), d)); });
        if (dtype != kBool && !is_floating(dtype))  // wrapping into their own type
          expect_parity(what + " in its own dtype", device,
                        [&](Device dev) { return one(cumsum(x.to(dev), d, dtype)); });
      }
}

// Few lines longer than a tile are split across blocks (Note [CUDA scan plan]).
TEST(CumsumParity, FewLongLinesSplitAcrossBlocks) {
  EMBER_SKIP_IF_NO_CUDA();
  const std::vector<std::pair<std::vector<int64_t>, int64_t>> shapes = {
      {{2, 40000}, 1}, {{20000, 3}, 0}, {{3000000}, 0}};
  for (Device device : gpus()) {
    for (ScalarType dtype : {kInt32, kInt64, kFloat32, kFloat64, kFloat16, kBFloat16})
      for (const auto& [shape, dim] : shapes) {
        // Floats are multiples of 1/8, whose sums over these lengths are exact in every
        // accumulator, so the GPU's tile order and the CPU's sequential one agree (with
        // randn's values a half-precision line of millions differs near the sum's zero
        // crossings, beyond any relative tolerance).
        Tensor x = is_floating(dtype) ? div(round(mul(randn(shape), 32)), 8).to(dtype)
                                      : sample(shape, dtype);
        int64_t d = dim;
        expect_parity(label("cumsum of long lines", dtype, device) + " dim " + std::to_string(d),
                      device, [&](Device dev) { return one(cumsum(x.to(dev), d)); });
      }
  }
}

// A line of more than kScanTile^2 elements: the tiles' totals are split again. (Left out of
// bench/gpu.sh's compute-sanitizer runs, where its 67 million elements would take minutes; the
// kernels are the ones the test above runs.)
TEST(CumsumParity, ALineOfMoreThanATileSquared) {
  EMBER_SKIP_IF_NO_CUDA();
  for (Device device : gpus()) {
    const int64_t n = int64_t{8192} * 8192 + 1000;
    const Tensor counted = cumsum(ones({n}, TensorOptions().dtype(kInt32).device(device)), 0);
    EXPECT_EQ(counted.dtype(), kInt64);
    EXPECT_TRUE(equal(counted, arange(1, n + 1, 1, TensorOptions().dtype(kInt64).device(device))))
        << "cumsum of " << n << " ones on " << device;
  }
}

TEST(SoftmaxParity, EveryFloatDtypeAndLineShape) {
  EMBER_SKIP_IF_NO_CUDA();
  const std::vector<std::pair<std::vector<int64_t>, int64_t>> shapes = {
      {{7, 300}, 1},   {{100, 5}, 1}, {{2, 5000}, -1}, {{300, 7}, 0},
      {{3, 70, 9}, 1}, {{1}, 0},      {{}, 0},         {{0, 4}, 1}};
  for (Device device : gpus())
    for (ScalarType dtype : kAllDTypes)
      for (const auto& [shape, dim] : shapes)
        for (bool log : {false, true}) {
          Tensor x = sample(shape, dtype);
          int64_t d = dim;
          const std::string what = std::string(log ? "log_softmax " : "softmax ") +
                                   toString(dtype) + " on " + device.str();
          // Integer inputs are refused on both devices unless a dtype is given.
          expect_parity(what, device, [&](Device dev) {
            return one(log ? log_softmax(x.to(dev), d) : softmax(x.to(dev), d));
          });
          expect_parity(what + " as float", device, [&](Device dev) {
            return one(log ? log_softmax(x.to(dev), d, kFloat32) : softmax(x.to(dev), d, kFloat32));
          });
        }
}

// one_hot with num_classes given checks its classes in the scatter kernel, and the error naming
// the class is raised at the next wait for the GPU (Note [Index errors found by GPU kernels]);
// with num_classes inferred it waits for the classes' range from the index-range kernel.
TEST(ReduceParity, IndexRangeOfOneHot) {
  EMBER_SKIP_IF_NO_CUDA();
  using test::error_of;
  for (Device device : gpus()) {
    Tensor classes = tensor({3, 0, 7, 2, 5}, kInt64).to(device);
    std::string message = error_of<ValueError>([&] { one_hot(classes, 4).cpu(); });
    EXPECT_NE(message.find("got 7 with num_classes=4"), std::string::npos) << message;
    Tensor negative = tensor({3, -6, 2}, kInt64).to(device);
    for (int64_t num_classes : {4, -1}) {
      message = error_of<ValueError>([&] { one_hot(negative, num_classes).cpu(); });
      EXPECT_NE(message.find("got -6"), std::string::npos) << num_classes << ": " << message;
    }
    // A long index, its range reduced over split blocks: the extremes are wherever they fall.
    Tensor many = randint(0, 50, {200000}).to(device);
    many.narrow(0, 123457, 1).fill_(77);
    EXPECT_EQ(one_hot(many).size(1), 78) << device;
    many.narrow(0, 654, 1).fill_(-9);
    for (int64_t num_classes : {78, -1}) {
      message = error_of<ValueError>([&] { one_hot(many, num_classes).cpu(); });
      EXPECT_NE(message.find("got -9"), std::string::npos) << num_classes << ": " << message;
    }
    EXPECT_EQ(one_hot(tensor({2, 0}, kInt64).to(device), 3).cpu().to_vector<int64_t>(),
              (std::vector<int64_t>{0, 0, 1, 1, 0, 0}))
        << "the device is usable after the errors";
  }
}

}  // namespace
}  // namespace ember
