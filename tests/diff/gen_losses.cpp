// Arguments of the losses that followed mse/nll/cross_entropy: regression losses against a target
// of the input's (or a broadcast) shape, probabilities for binary_cross_entropy and kl_div, ±1
// targets for the margin losses, class indices for the multi-class margins. The first input is
// always `input` and every loss has `reduction` (0 none, 1 mean, 2 sum; kl_div: batchmean for 1).
#include <vector>

#include "gen.h"

namespace difftest {
namespace {

Values loss_values() { return Values::finite(); }

double draw(Gen& g, std::vector<double> choices) { return g.rng.pick(choices); }

// A tensor of ±1 (as float) of this shape: the margin losses' targets.
TensorRef signs(Gen& g, DType a, const Shape& s) {
  std::vector<double> v(static_cast<size_t>(numel(s)));
  for (double& x : v) x = g.rng.chance(0.5) ? 1.0 : -1.0;
  return g.tensor_of(a, s, std::move(v));
}

// A plain tensor of eighths strictly between 0 and 1 (with `one`, up to 1): where a probability
// of exactly 0 or 1 meets a log, PyTorch clamps the value and not the gradient, which both
// libraries then differ over (the closing notes of issue 23 record it).
TensorRef fractions(Gen& g, DType a, const Shape& s, bool one) {
  std::vector<double> v(static_cast<size_t>(numel(s)));
  for (double& x : v) x = static_cast<double>(g.rng.uniform(1, one ? 8 : 7)) / 8;
  return g.tensor_of(a, s, std::move(v));
}

// [N, C] or (sometimes) unbatched [C].
Shape rows(Gen& g, int64_t columns) {
  if (g.rng.chance(0.2)) return {columns};
  return {g.rng.uniform(0, 3), columns};
}

// l1, smooth_l1, huber: a target of the input's shape or one that broadcasts onto it.
void gen_regression(Gen& g, OpKind op, DType a) {
  const Shape s = g.shape();
  g.arg("input", g.tensor(a, s, loss_values()));
  g.arg("target",
        g.tensor(a, g.rng.chance(0.8) ? s : g.broadcast_partner(s, /*onto=*/true), loss_values()));
  if (op == OpKind::SmoothL1Loss) g.arg("beta", g.number(draw(g, {1, 0.5, 0, 2})));
  if (op == OpKind::HuberLoss) g.arg("delta", g.number(draw(g, {1, 0.5, 2})));
}

void gen_probabilities(Gen& g, OpKind op, DType a) {
  const Shape s = g.shape();
  if (op == OpKind::Bce) {
    g.arg("input", fractions(g, a, s, /*one=*/false));
    g.arg("target", g.tensor(a, s, Values::range(0, 1)));
    g.arg("weight", g.rng.chance(0.4)
                        ? ArgValue(NoneArg{})
                        : ArgValue(g.tensor(a, g.broadcast_partner(s, true), Values::range(0, 2))));
    return;
  }
  const bool log_target = g.rng.chance(0.5);
  g.arg("input", g.tensor(a, s, Values::range(-3, 0)));
  g.arg("target", log_target ? g.tensor(a, s, Values::range(-3, 0)) : fractions(g, a, s, true));
  g.arg("log_target", log_target);
}

void gen_margin(Gen& g, OpKind op, DType a) {
  if (op == OpKind::CosineEmbeddingLoss) {
    const Shape s = rows(g, g.rng.uniform(1, 3));
    g.arg("input", g.tensor(a, s, loss_values()));
    g.arg("input2", g.tensor(a, s, loss_values()));
    g.arg("target", signs(g, a, s.size() == 1 ? Shape{} : Shape{s[0]}));
    g.arg("margin", g.number(draw(g, {0, 0.3, -0.5})));
    return;
  }
  const Shape s = g.shape();
  g.arg("input", g.tensor(a, s, loss_values()));
  if (op == OpKind::MarginRankingLoss) g.arg("input2", g.tensor(a, s, loss_values()));
  g.arg("target", signs(g, a, s));
  if (op != OpKind::SoftMarginLoss) g.arg("margin", g.number(draw(g, {0, 1, 0.5})));
}

void gen_multilabel_soft_margin(Gen& g, DType a) {
  const int64_t classes = g.rng.uniform(1, 4);
  const Shape s = {g.rng.uniform(1, 3), classes};
  g.arg("input", g.tensor(a, s, loss_values()));
  std::vector<double> labels(static_cast<size_t>(numel(s)));
  for (double& l : labels) l = g.rng.chance(0.5) ? 1 : 0;
  g.arg("target", g.tensor_of(a, s, std::move(labels)));
  g.arg("weight", g.rng.chance(0.5) ? ArgValue(NoneArg{})
                                    : ArgValue(g.tensor(a, {classes}, Values::range(0, 2))));
}

void gen_poisson_nll(Gen& g, DType a) {
  const Shape s = g.shape();
  const bool log_input = g.rng.chance(0.5);
  g.arg("input", g.tensor(a, s, log_input ? Values::range(-2, 2) : Values::range(0.1, 3)));
  g.arg("target", g.tensor(a, s, Values::range(0, 4)));
  g.arg("log_input", log_input);
  g.arg("full", g.rng.chance(0.5));
  g.arg("eps", g.number(draw(g, {1e-8, 0.1})));
}

void gen_triplet(Gen& g, DType a) {
  const Shape s = rows(g, g.rng.uniform(1, 3));
  g.arg("input", g.tensor(a, s, loss_values()));  // the anchor
  g.arg("positive", g.tensor(a, s, loss_values()));
  g.arg("negative", g.tensor(a, s, loss_values()));
  g.arg("margin", g.number(draw(g, {1, 0.5})));
  g.arg("p", g.number(draw(g, {2, 1, 3})));
  g.arg("eps", g.number(draw(g, {1e-6, 0.1})));
  g.arg("swap", g.rng.chance(0.5));
}

// multi_margin: one class index per row; multilabel_margin: a row of class indices ended by
// the first -1.
void gen_class_margin(Gen& g, OpKind op, DType a) {
  const int64_t classes = g.rng.uniform(1, 4);
  const Shape s = rows(g, classes);
  g.arg("input", g.tensor(a, s, loss_values()));
  if (op == OpKind::MultiMarginLoss) {
    g.arg("target", g.index_tensor(s.size() == 1 ? Shape{} : Shape{s[0]}, 0,
                                   g.rng.chance(0.03) ? classes : classes - 1));
    g.arg("p", g.rng.pick(std::vector<int64_t>{1, 2}));
    g.arg("margin", g.number(draw(g, {1, 0.5})));
    g.arg("weight", g.rng.chance(0.5) ? ArgValue(NoneArg{})
                                      : ArgValue(g.tensor(a, {classes}, Values::range(0, 2))));
    return;
  }
  std::vector<double> labels(static_cast<size_t>(numel(s)));
  for (double& l : labels) l = static_cast<double>(g.rng.uniform(-1, classes - 1));
  g.arg("target", g.tensor_of(DType::Int64, s, std::move(labels)));
}

}  // namespace

void gen_loss(Gen& g, OpKind op) {
  const DType a = g.float_dtype();
  switch (op) {
    case OpKind::L1Loss:
    case OpKind::SmoothL1Loss:
    case OpKind::HuberLoss: gen_regression(g, op, a); break;
    case OpKind::Bce:
    case OpKind::KlDiv: gen_probabilities(g, op, a); break;
    case OpKind::SoftMarginLoss:
    case OpKind::MarginRankingLoss:
    case OpKind::HingeEmbeddingLoss:
    case OpKind::CosineEmbeddingLoss: gen_margin(g, op, a); break;
    case OpKind::MultiLabelSoftMarginLoss: gen_multilabel_soft_margin(g, a); break;
    case OpKind::PoissonNllLoss: gen_poisson_nll(g, a); break;
    case OpKind::TripletMarginLoss: gen_triplet(g, a); break;
    default: gen_class_margin(g, op, a); break;
  }
  g.arg("reduction", g.rng.uniform(0, 2));
}

}  // namespace difftest
