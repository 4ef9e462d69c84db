// Arguments of the activations of torch.nn.functional: LibTorch's defaults and parameters that
// put a branch edge on the values inputs take (0, 0.5, 1, ...), a negative slope or a bound
// order that turns a branch around, and (rarely) what both refuse: a negative softshrink
// lambda, an odd dim for glu to halve, a prelu weight that does not match the channels, rrelu's
// lower bound above its upper.
#include "gen.h"

namespace difftest {
namespace {

double pick(Gen& g, std::vector<double> choices) { return g.rng.pick(choices); }

// glu halves `dim`: its size is even, or rarely odd.
void gen_glu(Gen& g, DType a) {
  Shape s = g.shape(1, 4);
  const int64_t dim = g.dim(static_cast<int64_t>(s.size()));
  const int64_t d = dim < 0 ? dim + static_cast<int64_t>(s.size()) : dim;
  if (d >= 0 && d < static_cast<int64_t>(s.size()))
    s[static_cast<size_t>(d)] = 2 * g.rng.uniform(0, 2) + (g.rng.chance(0.05) ? 1 : 0);
  g.arg("input", g.tensor(a, s));
  g.arg("dim", dim);
}

// prelu's weight: one slope, or one per channel (dim 1), rarely a count that matches neither.
void gen_prelu(Gen& g, DType a) {
  const Shape s = g.shape(1, 4);
  const int64_t channels = s.size() > 1 ? s[1] : 1;
  int64_t slopes = g.rng.chance(0.4) ? 1 : channels;
  if (g.rng.chance(0.05)) slopes = channels + 1;
  g.arg("input", g.tensor(a, s));
  g.arg("weight", g.tensor(a, {slopes}, Values::finite()));
}

}  // namespace

void gen_activation(Gen& g, OpKind op, DType a) {
  if (op == OpKind::Glu) return gen_glu(g, a);
  if (op == OpKind::Prelu) return gen_prelu(g, a);
  g.arg("input", g.tensor(a, g.shape()));
  switch (op) {
    case OpKind::LeakyRelu:
      g.arg("negative_slope", g.number(pick(g, {0.01, 0.2, 0.5, -0.5, 1.5})));
      return;
    case OpKind::Elu:
    case OpKind::Celu: g.arg("alpha", g.number(pick(g, {1, 0.5, 2, -1}))); return;
    case OpKind::Hardtanh:
      g.arg("min_val", g.number(pick(g, {-1, -0.5, 0, 2})));
      g.arg("max_val", g.number(pick(g, {1, 0.5, 6, -2})));
      return;
    case OpKind::Softplus:
      g.arg("beta", g.number(pick(g, {1, 2, 0.5, -1})));
      g.arg("threshold", g.number(pick(g, {20, 1, 0.5, 0})));
      return;
    case OpKind::Threshold:
      g.arg("threshold", g.number(pick(g, {0, 0.5, -1, 2.5})));
      g.arg("value", g.number(pick(g, {0, -7, 20, 0.25})));
      return;
    case OpKind::Softshrink:
    case OpKind::Hardshrink:
      g.arg("lambd", g.number(g.rng.chance(0.03) ? -1 : pick(g, {0.5, 0, 1, 0.25})));
      return;
    case OpKind::Rrelu:  // outside training (the draws differ): rarely bounds in the wrong order
      g.arg("lower", g.number(pick(g, {0.125, 0, 0.5, g.rng.chance(0.1) ? 0.9 : 0.2})));
      g.arg("upper", g.number(pick(g, {1.0 / 3, 0.5, 0.8})));
      return;
    default: return;  // selu, relu6, softsign, tanhshrink: no parameters
  }
}

}  // namespace difftest
