// Arguments of the matrix products: every matmul case (vector, matrix, batched, broadcast batch
// dims), mm/bmm/mv/dot/addmm/linear, empty inner and outer sizes, and mismatches.
#include <cmath>

#include "gen.h"

namespace difftest {
namespace {

int64_t size(Gen& g) { return g.rng.chance(0.06) ? 0 : g.rng.uniform(1, 5); }

// A size for the second operand's inner dim: rarely one that does not match.
int64_t inner(Gen& g, int64_t k) { return g.rng.chance(0.04) ? k + 1 : k; }

DType product_dtype(Gen& g) {
  if (g.rng.chance(0.75)) return g.rng.chance(0.6) ? DType::Float32 : DType::Float64;
  return g.dtype();
}

// The second operand's dtype: matrix products do not promote, so a mismatch is an error.
DType partner(Gen& g, DType a) { return g.rng.chance(0.05) ? g.dtype() : a; }

// Mostly finite: where inf meets 0 the BLAS kernels of the two libraries may order their
// products differently, and only the position of the resulting nan would differ.
Values operand_values(Gen& g) { return g.rng.chance(0.9) ? Values::finite() : Values::general(); }

Shape batch(Gen& g) {
  Shape b(static_cast<size_t>(g.rng.uniform(0, 2)));
  for (int64_t& d : b) d = g.rng.chance(0.3) ? 1 : g.rng.uniform(0, 3);
  return b;
}

// addmm's beta and alpha: finite, and integers for integer matrices.
// - An infinite or NaN coefficient goes into BLAS, whose kernels fold it into the terms of the
//   product in their own way (inf * x - inf * y = nan, or a beta that is never applied): the
//   result depends on the BLAS library, not on ember or LibTorch.
// - PyTorch truncates a float coefficient for integer matrices where the inner size is > 0 but
//   refuses it where it is 0 (that path scales by beta with mul_): shape-dependent behaviour
//   ember does not copy.
ScalarArg coefficient(Gen& g, DType t) {
  ScalarArg s = g.scalar(t);
  if (!std::isfinite(s.value) || (!is_floating(t) && s.kind == ScalarArg::Kind::Float))
    s = g.number(static_cast<double>(g.rng.uniform(-3, 3)));
  return s;
}

Shape concat(Shape a, const Shape& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

void gen_linalg(Gen& g, OpKind op) {
  const DType a = product_dtype(g), b = partner(g, a);
  const Values va = operand_values(g), vb = operand_values(g);
  const int64_t m = size(g), k = size(g), n = size(g);
  switch (op) {
    case OpKind::Matmul: {
      // Vectors (1-D), matrices, or batches whose batch dims broadcast against each other.
      const int64_t kind_a = g.rng.uniform(1, 3), kind_b = g.rng.uniform(1, 3);
      Shape batch_a = kind_a == 3 ? batch(g) : Shape{};
      Shape batch_b =
          kind_b == 3 ? (g.rng.chance(0.5) ? batch_a : g.broadcast_partner(batch_a)) : Shape{};
      Shape sa = kind_a == 1 ? Shape{k} : concat(batch_a, {m, k});
      Shape sb = kind_b == 1 ? Shape{inner(g, k)} : concat(batch_b, {inner(g, k), n});
      g.arg("self", g.tensor(a, sa, va));
      g.arg("other", g.tensor(b, sb, vb));
      return;
    }
    case OpKind::Mm:
      g.arg("self", g.tensor(a, g.rng.chance(0.03) ? Shape{k} : Shape{m, k}, va));
      g.arg("mat2", g.tensor(b, {inner(g, k), n}, vb));
      return;
    case OpKind::Bmm: {
      const int64_t batch_size = size(g);
      g.arg("self", g.tensor(a, {batch_size, m, k}, va));
      g.arg("mat2",
            g.tensor(b, {g.rng.chance(0.04) ? batch_size + 1 : batch_size, inner(g, k), n}, vb));
      return;
    }
    case OpKind::Mv:
      g.arg("self", g.tensor(a, {m, k}, va));
      g.arg("vec", g.tensor(b, {inner(g, k)}, vb));
      return;
    case OpKind::Dot:
      g.arg("self", g.tensor(a, {k}, va));
      g.arg("tensor", g.tensor(b, {inner(g, k)}, vb));
      return;
    case OpKind::Addmm:
      // self broadcasts to the product's shape; with beta = 0 its nan and inf are ignored.
      g.arg("self", g.tensor(a, g.broadcast_partner({m, n}, /*onto=*/true), Values::general()));
      g.arg("mat1", g.tensor(b, {m, k}, va));
      g.arg("mat2", g.tensor(b, {inner(g, k), n}, vb));
      g.arg("beta", g.rng.chance(0.2) ? g.number(0) : coefficient(g, a));
      g.arg("alpha", coefficient(g, a));
      return;
    default: {  // linear: input [..., in] @ weight[out, in].T + bias[out]
      Shape lead(static_cast<size_t>(g.rng.uniform(0, 2)));
      for (int64_t& d : lead) d = size(g);
      g.arg("input", g.tensor(a, concat(lead, {k}), va));
      g.arg("weight", g.tensor(b, {n, inner(g, k)}, vb));
      g.arg("bias", g.rng.chance(0.3) ? ArgValue(NoneArg{}) : g.tensor(b, {n}, vb));
      return;
    }
  }
}

}  // namespace difftest
