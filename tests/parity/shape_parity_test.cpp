// Gather, scatter and sort on every visible GPU against the CPU, every dtype: gather, scatter
// (distinct destinations), scatter_add, index_select, embedding and their gradients, the
// out-of-range error, and sort / argsort / topk with NaN, ties and long slices. Skips visibly
// without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "ember/ember.h"
#include "parity/parity_check.h"
#include "test_util.h"

namespace ember {
namespace {

using namespace indexing;

using parity::expect_parity;
using parity::label;
using parity::leaf_on;

std::vector<ScalarType> all_dtypes() {
  std::vector<ScalarType> all = parity::kFloatDTypes;
  all.insert(all.end(), parity::kIntDTypes.begin(), parity::kIntDTypes.end());
  all.push_back(kBool);
  return all;
}

// Small integers: sums are exact whatever order scatter_add's atomics take.
Tensor small_integers(IntArrayRef shape, ScalarType dtype) {
  if (dtype == kBool) return randint(0, 2, shape).to(kBool);
  return randint(-6, 7, shape).to(dtype);
}

TEST(ShapeParity, GatherScatter) {
  EMBER_SKIP_IF_NO_CUDA();
  manual_seed(51);
  for (Device device : parity::gpus())
    for (ScalarType t : all_dtypes())
      for (int64_t dim : {0, 1, 2}) {
        Tensor x = small_integers({5, 6, 4}, t), src = small_integers({5, 6, 5}, t);
        Tensor index = randint(0, x.size(dim), {4, 3, 4});
        Tensor unique = argsort(rand({4, 3, 4}), dim);  // distinct destinations along dim
        const std::string at = " dim " + std::to_string(dim);
        expect_parity(label("gather" + at, t, device), device,
                      [&](Device d) { return gather(x.to(d), dim, index.to(d)); });
        expect_parity(label("gather transposed" + at, t, device), device, [&](Device d) {
          return gather(x.to(d).transpose(0, 2).contiguous().transpose(0, 2), dim, index.to(d));
        });
        expect_parity(label("scatter" + at, t, device), device,
                      [&](Device d) { return scatter(x.to(d), dim, unique.to(d), src.to(d)); });
        expect_parity(label("scatter value" + at, t, device), device,
                      [&](Device d) { return scatter(x.to(d), dim, unique.to(d), 1); });
        expect_parity(label("scatter_add" + at, t, device), device,
                      [&](Device d) { return scatter_add(x.to(d), dim, index.to(d), src.to(d)); });
        expect_parity(label("index_select" + at, t, device), device, [&](Device d) {
          return index_select(x.to(d), dim, index.flatten().narrow(0, 0, 7).to(d));
        });
      }
}

// Many elements onto few destinations: the atomics' contention path. float32/float64 sums agree
// within rounding. A 16-bit sum is rounded after every add, so the atomics' order alone moves an
// 800-term sum of randn values by whole units; those add about 200 values of -1, 0 or 1 per
// destination instead, whose partial sums stay exact integers (below 256) in any order.
TEST(ShapeParity, ScatterAddContention) {
  EMBER_SKIP_IF_NO_CUDA();
  manual_seed(52);
  for (Device device : parity::gpus())
    for (ScalarType t : parity::kFloatDTypes) {
      const bool half = t == kFloat16 || t == kBFloat16;
      const int64_t n = half ? 1000 : 4000;
      Tensor src = half ? randint(-1, 2, {3, n}).to(t) : randn({3, n}).to(t);
      Tensor index = randint(0, 5, {3, n});
      const double tol = t == kFloat64 ? 1e-10 : t == kFloat32 ? 1e-4 : 0;
      expect_parity(
          label("scatter_add contended", t, device), device,
          [&](Device d) {
            return scatter_add(zeros({3, 5}, TensorOptions(t).device(d)), 1, index.to(d),
                               src.to(d));
          },
          tol);
    }
}

TEST(ShapeParity, EmbeddingAndGradients) {
  EMBER_SKIP_IF_NO_CUDA();
  manual_seed(53);
  for (Device device : parity::gpus()) {
    Tensor weight = randn({10, 4}), ids = randint(0, 10, {3, 5});
    expect_parity("embedding on " + device.str(), device,
                  [&](Device d) { return embedding(weight.to(d), ids.to(d)); });
    // Repeated ids: the gradient rows add up (scatter_add / index_add on the GPU).
    expect_parity(
        "embedding backward on " + device.str(), device,
        [&](Device d) {
          Tensor w = leaf_on(weight, d);
          embedding(w, ids.to(d)).backward(ones({3, 5, 4}, d));
          return w.grad();
        },
        1e-5);
    Tensor x = randn({4, 6});
    expect_parity(
        "gather backward on " + device.str(), device,
        [&](Device d) {
          Tensor xs = leaf_on(x, d);
          gather(xs, 1, remainder(ids.narrow(0, 0, 3).narrow(1, 0, 4), 6).to(d))
              .backward(ones({3, 4}, d));
          return xs.grad();
        },
        1e-5);
  }
}

TEST(ShapeParity, OutOfRangeIndex) {
  EMBER_SKIP_IF_NO_CUDA();
  for (Device device : parity::gpus()) {
    Tensor x = zeros({3, 4}, device), bad = tensor({{0, 7}}).to(device);
    // Raised at the next wait for the GPU (Note [Index errors found by GPU kernels]).
    const std::string message = test::error_of<IndexError>([&] { gather(x, 0, bad).cpu(); });
    EXPECT_NE(message.find("index 7 is out of bounds for dimension 0 with size 3"),
              std::string::npos)
        << message;
    EXPECT_THROW(scatter_add(x, 1, tensor({{-1}}).to(device), ones({1, 1}, device)).cpu(),
                 IndexError);
    // The device is still usable afterwards.
    EXPECT_EQ(gather(x, 0, tensor({{2, 1}}).to(device)).cpu().sum().item<float>(), 0.f);
  }
}

TEST(ShapeParity, SortArgsortTopk) {
  EMBER_SKIP_IF_NO_CUDA();
  manual_seed(54);
  for (Device device : parity::gpus())
    for (ScalarType t : all_dtypes())
      for (std::vector<int64_t> shape :
           {std::vector<int64_t>{4, 7, 5}, {2, 3000}, {5000}, {0, 3}}) {
        Tensor x =
            parity::is_floating(t) ? round(mul(randn(shape), 3)).to(t) : small_integers(shape, t);
        for (int64_t dim = 0; dim < x.dim(); ++dim)
          for (bool descending : {false, true}) {
            const std::string at = " " + std::to_string(shape.size()) + "-D dim " +
                                   std::to_string(dim) + (descending ? " descending" : "");
            auto values = [&](auto result) { return std::get<0>(result); };
            auto indices = [&](auto result) { return std::get<1>(result); };
            expect_parity(
                label("sort values" + at, t, device), device,
                [&](Device d) { return values(sort(x.to(d), dim, descending)); }, 0);
            expect_parity(label("sort indices" + at, t, device), device,
                          [&](Device d) { return indices(sort(x.to(d), dim, descending)); });
            expect_parity(label("argsort" + at, t, device), device,
                          [&](Device d) { return argsort(x.to(d), dim, descending); });
            const int64_t k = std::min<int64_t>(x.size(dim), 3);
            expect_parity(
                label("topk values" + at, t, device), device,
                [&](Device d) { return values(topk(x.to(d), k, dim, descending)); }, 0);
            expect_parity(label("topk indices" + at, t, device), device,
                          [&](Device d) { return indices(topk(x.to(d), k, dim, descending)); });
            // sorted=false: the same k elements; the GPU happens to return them in order, the
            // CPU need not, so compare them sorted.
            expect_parity(
                label("topk unsorted" + at, t, device), device,
                [&](Device d) {
                  Tensor v = values(topk(x.to(d), k, dim, descending, /*sorted=*/false));
                  return values(sort(v, dim, descending));
                },
                0);
          }
      }
}

TEST(ShapeParity, SortNaNAndSignedZeros) {
  EMBER_SKIP_IF_NO_CUDA();
  Tensor x = tensor({3.f, NAN, -0.f, 1.f, 0.f, -INFINITY, NAN, 1.f, INFINITY, -2.f, 0.f, 1.f});
  for (Device device : parity::gpus())
    for (ScalarType t : parity::kFloatDTypes)
      for (bool descending : {false, true}) {
        expect_parity(
            label(descending ? "sort NaN descending" : "sort NaN", t, device), device,
            [&](Device d) { return std::get<0>(sort(x.to(t).to(d), 0, descending)); }, 0);
        expect_parity(label(descending ? "argsort NaN descending" : "argsort NaN", t, device),
                      device, [&](Device d) { return argsort(x.to(t).to(d), 0, descending); });
      }
}

// The ops composed from the scan, gather, scatter and where kernels: every dtype, a strided
// input, masks with about half their elements true (nonzero's scatter then sends the other half
// to its dropped slot at once).
TEST(ShapeParity, RearrangeAndSelect) {
  EMBER_SKIP_IF_NO_CUDA();
  manual_seed(53);
  for (Device device : parity::gpus())
    for (ScalarType t : all_dtypes()) {
      Tensor x = small_integers({6, 5, 7}, t).transpose(0, 2);  // [7, 5, 6], strided
      Tensor mask = rand({7, 5, 6}) < 0.5;
      Tensor rows = randint(-7, 7, {3, 2});
      auto run = [&](const char* what, const std::function<Tensor(const Tensor&, Device)>& op) {
        expect_parity(
            label(what, t, device), device, [&](Device d) { return op(x.to(d), d); }, 0);
      };
      run("flip", [](const Tensor& v, Device) { return flip(v, {0, 2}); });
      run("repeat", [](const Tensor& v, Device) { return repeat(v, {2, 1, 3, 1}); });
      run("tril", [](const Tensor& v, Device) { return tril(v, 1); });
      run("triu", [](const Tensor& v, Device) { return triu(v, -2); });
      run("nonzero", [](const Tensor& v, Device) { return nonzero(v); });
      run("masked_select", [&](const Tensor& v, Device d) { return masked_select(v, mask.to(d)); });
      run("index mask", [&](const Tensor& v, Device) { return v.index({Slice(), mask[0]}); });
      run("index integers", [&](const Tensor& v, Device d) { return v.index({rows.to(d)}); });
      run("index_put_ mask", [&](const Tensor& v, Device d) {
        Tensor c = v.clone();
        return c.index_put_({mask.to(d)}, 1);
      });
      run("index_put_ integers", [&](const Tensor& v, Device d) {
        Tensor c = v.clone();  // distinct positions: no value depends on the write order
        return c.index_put_({Slice(), Slice(), tensor({4, -1, 0}).to(d)}, v.narrow(2, 0, 3));
      });
    }
}

}  // namespace
}  // namespace ember
