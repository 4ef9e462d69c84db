// Arguments of the neural-network ops (nn_ops.h) and the losses: windows that fit and (rarely)
// do not, affine parameters given or not, training and eval batch norm, class-index and
// class-probability targets.
#include <algorithm>

#include "gen.h"

namespace difftest {
namespace {

// Mostly floating: these ops refuse integers, which a few programs check.
DType nn_dtype(Gen& g) { return g.rng.chance(0.92) ? g.float_dtype() : g.dtype(); }

// Finite values throughout: where an inf meets a 0 in these ops' sums of products and in their
// formulas, whether inf or NaN comes out depends on the order and arrangement of the arithmetic,
// not on the op. (For the losses this also keeps out a src/ops/loss.cpp finding: ember masks
// ignored targets by multiplying with 0, which turns a -inf log-probability into NaN where
// PyTorch's where() gives 0.)
Values nn_values() { return Values::finite(); }

// A 2-D window argument: one value for both dims, or one each.
IntList pair(Gen& g, int64_t lo, int64_t hi) {
  if (g.rng.chance(0.5)) return {{g.rng.uniform(lo, hi)}};
  return {{g.rng.uniform(lo, hi), g.rng.uniform(lo, hi)}};
}

// [N, C, H, W] or, sometimes, unbatched [C, H, W].
Shape image(Gen& g, int64_t channels) {
  Shape s = {g.rng.uniform(0, 2), channels, g.rng.uniform(1, 6), g.rng.uniform(1, 6)};
  if (g.rng.chance(0.2)) s.erase(s.begin());
  return s;
}

// An optional tensor argument: None or a tensor.
ArgValue maybe(Gen& g, DType t, const Shape& shape) {
  return g.rng.chance(0.3) ? ArgValue(NoneArg{}) : ArgValue(g.tensor(t, shape, nn_values()));
}

void gen_conv(Gen& g, DType a) {
  const int64_t groups = g.rng.uniform(1, 2), in_per_group = g.rng.uniform(1, 2);
  const int64_t out_channels = groups * g.rng.uniform(1, 2);
  const int64_t channels = groups * in_per_group + (g.rng.chance(0.03) ? 1 : 0);
  g.arg("input", g.tensor(a, image(g, channels), nn_values()));
  Shape weight = {out_channels, in_per_group, g.rng.uniform(1, 3), g.rng.uniform(1, 3)};
  g.arg("weight", g.tensor(a, weight, nn_values()));
  g.arg("bias", maybe(g, a, {out_channels}));
  g.arg("stride", pair(g, 1, 2));
  g.arg("padding", pair(g, 0, 1));
  g.arg("dilation", pair(g, 1, 2));
  g.arg("groups", groups);
}

void gen_pool(Gen& g, OpKind op, DType a) {
  // (Finite, too, as a window of -inf has no single maximum: which element gets its gradient is
  // each library's own choice.)
  g.arg("input", g.tensor(a, image(g, g.rng.uniform(1, 3)), nn_values()));
  const int64_t kernel = g.rng.uniform(1, 3);
  g.arg("kernel_size", IntList{{kernel}});
  g.arg("stride", g.rng.chance(0.3) ? IntList{} : pair(g, 1, 3));  // [] means the kernel size
  // A dilated window can fall entirely into the padding: a maximum of -inf with no element
  // behind it, whose gradient LibTorch 1.13 writes out of bounds. So padding is undilated.
  const bool dilated = op == OpKind::MaxPool2d && g.rng.chance(0.4);
  // At most half the kernel, as both require; rarely more, which both refuse.
  const int64_t padding = g.rng.uniform(0, kernel / 2 + (g.rng.chance(0.03) ? 1 : 0));
  g.arg("padding", IntList{{dilated ? 0 : padding}});
  if (op == OpKind::MaxPool2d) {
    g.arg("dilation", dilated ? pair(g, 2, 2) : IntList{{1}});
    g.arg("ceil_mode", g.rng.chance(0.3));
  }
}

void gen_norm(Gen& g, OpKind op, DType a) {
  if (op == OpKind::LayerNorm) {
    const Shape s = g.shape(1, 4);
    const int64_t n = g.rng.uniform(1, std::min<int64_t>(2, static_cast<int64_t>(s.size())));
    Shape normalized(s.end() - n, s.end());
    if (g.rng.chance(0.03)) normalized.back() += 1;  // does not fit: an error in both
    g.arg("input", g.tensor(a, s, nn_values()));
    g.arg("normalized_shape", IntList{normalized});
    g.arg("weight", maybe(g, a, normalized));
    g.arg("bias", maybe(g, a, normalized));
    return;
  }
  // batch_norm: [N, C, *]; one value per channel in training is an error in both.
  const int64_t channels = g.rng.uniform(1, 3);
  Shape s = {g.rng.uniform(1, 4), channels};
  for (int64_t extra = g.rng.uniform(0, 2); extra > 0; --extra) s.push_back(g.rng.uniform(1, 3));
  const bool training = g.rng.chance(0.5);
  // Plain input, weight and bias: LibTorch 1.13's backward reads a strided weight as if it were
  // contiguous, and mixes up a permuted input's layout (wrong gradients, or NaN, where ember's
  // are right).
  g.arg("input", g.plain_tensor(a, s, nn_values()));
  for (const char* name : {"weight", "bias"})
    g.arg(name, g.rng.chance(0.3) ? ArgValue(NoneArg{})
                                  : ArgValue(g.plain_tensor(a, {channels}, nn_values())));
  // The running statistics are updated in place, so they are plain tensors too; eval needs
  // them, training may go without.
  const bool running = !training || g.rng.chance(0.6);
  g.arg("running_mean",
        running ? ArgValue(g.plain_tensor(a, {channels}, nn_values())) : ArgValue(NoneArg{}));
  g.arg("running_var", running ? ArgValue(g.plain_tensor(a, {channels}, Values::range(1, 3)))
                               : ArgValue(NoneArg{}));
  g.arg("training", training);
}

void gen_embedding(Gen& g, DType a) {
  const int64_t rows = g.rng.uniform(1, 6);
  g.arg("weight", g.tensor(a, {rows, g.rng.uniform(1, 4)}, nn_values()));
  // The indices are F.embedding's `input`.
  g.arg("input", g.index_tensor(g.shape(0, 2), 0, g.rng.chance(0.03) ? rows : rows - 1));
  g.arg("padding_idx",
        g.rng.chance(0.5) ? ArgValue(NoneArg{}) : ArgValue(g.rng.uniform(-rows, rows - 1)));
}

// nll_loss and cross_entropy: input [N, C], [C] or [N, C, d]; class indices [N], [] or [N, d]
// (some equal to ignore_index), or for cross_entropy class probabilities of input's shape.
void gen_classification(Gen& g, OpKind op, DType a) {
  const int64_t classes = g.rng.uniform(1, 4), batch = g.rng.uniform(0, 3);
  const int64_t form = g.rng.uniform(0, 2);
  Shape input = form == 0   ? Shape{batch, classes}
                : form == 1 ? Shape{classes}
                            : Shape{batch, classes, g.rng.uniform(1, 3)};
  Shape target = input;
  target.erase(target.begin() + (form == 1 ? 0 : 1));
  g.arg("input", g.tensor(a, input, nn_values()));
  const int64_t ignore = g.rng.chance(0.5) ? -100 : g.rng.uniform(0, classes - 1);
  if (op == OpKind::CrossEntropy && g.rng.chance(0.3)) {
    g.arg("target", g.tensor(a, input, Values::range(0, 1)));  // probabilities
  } else {
    std::vector<double> labels(static_cast<size_t>(numel(target)));
    for (double& l : labels) {
      l = static_cast<double>(g.rng.chance(0.15) ? ignore : g.rng.uniform(0, classes - 1));
      if (g.rng.chance(0.02)) l = static_cast<double>(classes);  // out of range: both refuse
    }
    g.arg("target", g.tensor_of(DType::Int64, target, std::move(labels)));
  }
  g.arg("weight", maybe(g, a, {classes}));
  g.arg("ignore_index", ignore);
  g.arg("reduction", g.rng.uniform(0, 2));
  if (op == OpKind::CrossEntropy)
    g.arg("label_smoothing", g.number(g.rng.chance(0.5) ? 0.0 : 0.25));
}

// mse_loss, binary_cross_entropy_with_logits: a target of the input's shape or one that
// broadcasts onto it.
void gen_pointwise_loss(Gen& g, OpKind op, DType a) {
  const Shape s = g.shape();
  g.arg("input", g.tensor(a, s, nn_values()));
  const bool logits = op == OpKind::BceWithLogits;
  g.arg("target", g.tensor(a, g.rng.chance(0.8) ? s : g.broadcast_partner(s, /*onto=*/true),
                           logits ? Values::range(0, 1) : nn_values()));
  if (logits) {
    g.arg("weight", maybe(g, a, g.broadcast_partner(s, /*onto=*/true)));
    g.arg("pos_weight", maybe(g, a, s.empty() ? Shape{} : Shape{s.back()}));
  }
  g.arg("reduction", g.rng.uniform(0, 2));
}

}  // namespace

void gen_nn(Gen& g, OpKind op) {
  const DType a = nn_dtype(g);
  switch (op) {
    case OpKind::Conv2d: return gen_conv(g, a);
    case OpKind::MaxPool2d:
    case OpKind::AvgPool2d: return gen_pool(g, op, a);
    case OpKind::LayerNorm:
    case OpKind::BatchNorm: return gen_norm(g, op, a);
    case OpKind::Embedding: return gen_embedding(g, a);
    case OpKind::NllLoss:
    case OpKind::CrossEntropy: return gen_classification(g, op, a);
    case OpKind::LeakyRelu:
    case OpKind::Elu:
    case OpKind::Selu:
    case OpKind::Celu:
    case OpKind::Hardtanh:
    case OpKind::Relu6:
    case OpKind::Softplus:
    case OpKind::Threshold:
    case OpKind::Softshrink:
    case OpKind::Hardshrink:
    case OpKind::Softsign:
    case OpKind::Tanhshrink:
    case OpKind::Glu:
    case OpKind::Prelu:
    case OpKind::Rrelu: return gen_activation(g, op, a);
    case OpKind::GroupNorm:
    case OpKind::InstanceNorm:
    case OpKind::LocalResponseNorm:
    case OpKind::CosineSimilarity:
    case OpKind::PairwiseDistance:
    case OpKind::PixelShuffle: return gen_norm_distance(g, op, a);
    case OpKind::Pad:
    case OpKind::Bilinear:
    case OpKind::Fold:
    case OpKind::Unfold:
    case OpKind::Conv1d:
    case OpKind::MaxPool1d:
    case OpKind::AvgPool1d:
    case OpKind::AdaptiveAvgPool2d:
    case OpKind::AdaptiveMaxPool2d:
    case OpKind::LstmCell:
    case OpKind::GruCell:
    case OpKind::RnnTanhCell:
    case OpKind::ConvTranspose2d:
    case OpKind::Conv3d:
    case OpKind::Interpolate:
    case OpKind::GridSample: return gen_layer(g, op);
    case OpKind::MseLoss:
    case OpKind::BceWithLogits: return gen_pointwise_loss(g, op, a);
    default: return gen_loss(g, op);
  }
}

}  // namespace difftest
