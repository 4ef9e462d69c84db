// The matrix products on every visible GPU against the CPU: matmul, mm, bmm, mv, dot, addmm and
// linear, every dtype the CPU accepts, with transposed, strided, broadcast and empty operands,
// and their gradients. Integer products must be equal, floating ones close. Skips visibly
// without a GPU.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "ember/ember.h"
#include "parity/parity_check.h"
#include "test_util.h"

namespace ember {
namespace {

using parity::expect_parity;
using parity::label;
using parity::leaf_on;

Tensor small_sample(IntArrayRef shape, ScalarType dtype) {
  if (!parity::is_floating(dtype)) return randint(-5, 5, shape).to(dtype);
  return randn(shape).to(dtype);
}

std::vector<ScalarType> product_dtypes() {
  std::vector<ScalarType> all = parity::kFloatDTypes;
  all.insert(all.end(), parity::kIntDTypes.begin(), parity::kIntDTypes.end());
  return all;
}

// Operand pairs of matmul, by the layout each puts in front of the kernel.
struct Pair {
  const char* name;
  Tensor a, b;
};
std::vector<Pair> matmul_pairs(ScalarType t) {
  return {
      {"2-D", small_sample({37, 19}, t), small_sample({19, 23}, t)},
      {"transposed", small_sample({19, 37}, t).t(), small_sample({23, 19}, t).t()},
      {"strided columns", small_sample({37, 38}, t).slice(1, 0, 38, 2), small_sample({19, 23}, t)},
      {"row slice", small_sample({37, 25}, t).narrow(1, 3, 19),
       small_sample({19, 30}, t).narrow(1, 2, 23)},
      {"batched", small_sample({4, 9, 7}, t), small_sample({4, 7, 5}, t)},
      {"broadcast batch", small_sample({2, 1, 9, 7}, t), small_sample({3, 7, 5}, t)},
      {"batch @ matrix", small_sample({3, 9, 7}, t), small_sample({7, 5}, t)},
      {"matrix @ vector", small_sample({9, 7}, t), small_sample({7}, t)},
      {"vector @ batch", small_sample({7}, t), small_sample({2, 7, 5}, t)},
      {"k = 0", small_sample({4, 0}, t), small_sample({0, 3}, t)},
      {"empty", small_sample({0, 5}, t), small_sample({5, 3}, t)},
      {"large", small_sample({130, 257}, t), small_sample({257, 65}, t)},
  };
}

TEST(LinalgParity, Matmul) {
  EMBER_SKIP_IF_NO_CUDA();
  manual_seed(11);
  for (Device device : parity::gpus())
    for (ScalarType t : product_dtypes())
      for (const Pair& p : matmul_pairs(t)) {
        // Sums of 257 products in another order (cuBLAS may split k across blocks): outputs
        // near zero then differ by more than the default float32 and float16 tolerances.
        const bool large = p.name == std::string("large");
        const double tol = large && t == kFloat16 ? 1e-2 : large && t == kFloat32 ? 1e-4 : -1;
        expect_parity(
            label(std::string("matmul ") + p.name, t, device), device,
            [&](Device d) { return matmul(p.a.to(d), p.b.to(d)); }, tol);
      }
}

TEST(LinalgParity, NamedProducts) {
  EMBER_SKIP_IF_NO_CUDA();
  manual_seed(12);
  for (Device device : parity::gpus())
    for (ScalarType t : product_dtypes()) {
      Tensor a = small_sample({6, 5}, t), b = small_sample({5, 4}, t), v = small_sample({5}, t);
      Tensor ba = small_sample({3, 6, 5}, t), bb = small_sample({3, 5, 4}, t);
      Tensor self = small_sample({6, 4}, t), row = small_sample({4}, t);
      Tensor x = small_sample({8, 5}, t), w = small_sample({4, 5}, t), bias = small_sample({4}, t);
      auto check = [&](const char* name, const std::function<Tensor(Device)>& op) {
        expect_parity(label(name, t, device), device, op);
      };
      check("mm", [&](Device d) { return mm(a.to(d), b.to(d)); });
      check("bmm", [&](Device d) { return bmm(ba.to(d), bb.to(d)); });
      check("mv", [&](Device d) { return mv(a.to(d), v.to(d)); });
      check("dot", [&](Device d) { return dot(v.to(d), v.to(d)); });
      check("addmm", [&](Device d) { return addmm(self.to(d), a.to(d), b.to(d)); });
      check("addmm beta alpha", [&](Device d) { return addmm(row.to(d), a.to(d), b.to(d), 2, 3); });
      check("linear", [&](Device d) { return linear(x.to(d), w.to(d), bias.to(d)); });
      check("linear no bias", [&](Device d) { return linear(x.to(d), w.to(d)); });
    }
}

// beta == 0 must not read the output: NaNs in self do not leak into addmm(beta = 0).
TEST(LinalgParity, BetaZeroIgnoresSelf) {
  EMBER_SKIP_IF_NO_CUDA();
  for (Device device : parity::gpus()) {
    Tensor self = full({3, 2}, NAN, device);
    Tensor out = addmm(self, ones({3, 4}, device), ones({4, 2}, device), 0, 1);
    test::expect_values<float>(out.cpu(), {3, 2}, {4, 4, 4, 4, 4, 4});
  }
}

// Gradients of products are products too (no reduction needed with 2-D operands).
TEST(LinalgParity, Gradients) {
  EMBER_SKIP_IF_NO_CUDA();
  manual_seed(13);
  for (Device device : parity::gpus())
    for (ScalarType t : {kFloat32, kFloat64}) {
      Tensor x0 = small_sample({7, 5}, t), w0 = small_sample({3, 5}, t),
             g0 = small_sample({7, 3}, t);
      for (int which : {0, 1}) {
        expect_parity(label(which ? "linear backward weight" : "linear backward input", t, device),
                      device, [&](Device d) {
                        Tensor x = leaf_on(x0, d), w = leaf_on(w0, d);
                        linear(x, w).backward(g0.to(d));
                        return which ? w.grad() : x.grad();
                      });
      }
    }
}

}  // namespace
}  // namespace ember
