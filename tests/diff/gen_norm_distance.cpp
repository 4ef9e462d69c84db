// Arguments of group_norm, instance_norm, local_response_norm, cosine_similarity,
// pairwise_distance and pixel_shuffle: channel counts that divide and (rarely) do not, affine
// parameters and running statistics given or not, windows wider than the channels, broadcast
// partners, and dims both refuse.
#include "gen.h"

namespace difftest {
namespace {

double pick(Gen& g, std::vector<double> choices) { return g.rng.pick(choices); }

// Values of moderate size: these ops square their inputs, and where a square overflows the two
// libraries' orders of arithmetic decide between inf and NaN.
Values moderate() { return Values::range(-4, 4); }

// [N, C, *spatial] with spatial dims of at least min_size each.
Shape channels_first(Gen& g, int64_t channels, int64_t min_spatial_dims, int64_t min_size) {
  Shape s = {g.rng.uniform(1, 3), channels};
  for (int64_t d = g.rng.uniform(min_spatial_dims, 2); d > 0; --d)
    s.push_back(g.rng.uniform(min_size, 3));
  return s;
}

// An optional per-channel tensor: None or a plain [channels] tensor (LibTorch 1.13's
// normalisation backward reads a strided weight as if it were contiguous; see gen_nn.cpp).
ArgValue maybe_channels(Gen& g, DType a, int64_t channels, Values values) {
  return g.rng.chance(0.3) ? ArgValue(NoneArg{}) : ArgValue(g.plain_tensor(a, {channels}, values));
}

void gen_group_norm(Gen& g, DType a) {
  const int64_t groups = g.rng.uniform(1, 3);
  const int64_t channels = groups * g.rng.uniform(1, 2) + (g.rng.chance(0.03) ? 1 : 0);
  g.arg("input", g.plain_tensor(a, channels_first(g, channels, 0, 1), moderate()));
  g.arg("num_groups", groups);
  g.arg("weight", maybe_channels(g, a, channels, moderate()));
  g.arg("bias", maybe_channels(g, a, channels, moderate()));
  g.arg("eps", g.number(pick(g, {1e-5, 1e-3})));
}

// Running statistics updated in training need two values per instance (the unbiased variance of
// one is 0 / 0); eval needs the statistics.
void gen_instance_norm(Gen& g, DType a) {
  const int64_t channels = g.rng.uniform(1, 3);
  const bool use_input_stats = g.rng.chance(0.6), running = !use_input_stats || g.rng.chance(0.5);
  g.arg("input", g.plain_tensor(a, channels_first(g, channels, 1, running ? 2 : 1), moderate()));
  g.arg("weight", maybe_channels(g, a, channels, moderate()));
  g.arg("bias", maybe_channels(g, a, channels, moderate()));
  g.arg("running_mean",
        running ? ArgValue(g.plain_tensor(a, {channels}, moderate())) : ArgValue(NoneArg{}));
  g.arg("running_var", running ? ArgValue(g.plain_tensor(a, {channels}, Values::range(1, 3)))
                               : ArgValue(NoneArg{}));
  g.arg("use_input_stats", use_input_stats);
}

// 3-D or 4-D input (rarely 2-D, which both refuse); a window up to wider than the channels.
// Floating only: LibTorch's avg_pool2d averages an integer input's window by integer division,
// ember's exactly (README).
void gen_local_response_norm(Gen& g, DType a) {
  if (!is_floating(a)) a = DType::Float32;
  const int64_t dims = g.rng.chance(0.03) ? 2 : g.rng.uniform(3, 4);
  Shape s = {g.rng.uniform(1, 2), g.rng.uniform(1, 4)};
  while (static_cast<int64_t>(s.size()) < dims) s.push_back(g.rng.uniform(1, 3));
  g.arg("input", g.tensor(a, s, moderate()));
  g.arg("size", g.rng.uniform(1, 5));
  g.arg("alpha", g.number(pick(g, {1e-4, 0.5, 2})));
  g.arg("beta", g.number(pick(g, {0.75, 1, 0.5})));
  g.arg("k", g.number(pick(g, {1, 2, 0.5})));
}

// Two inputs that broadcast (rarely not), compared along a dim of the broadcast shape.
void gen_distance(Gen& g, OpKind op, DType a) {
  const Shape s = g.shape(1, 3);
  g.arg("input", g.tensor(a, s, moderate()));
  g.arg("x2", g.tensor(a, g.rng.chance(0.7) ? s : g.broadcast_partner(s), moderate()));
  if (op == OpKind::CosineSimilarity) {
    g.arg("dim", g.dim(static_cast<int64_t>(s.size())));
    g.arg("eps", g.number(pick(g, {1e-8, 0.5})));
    return;
  }
  g.arg("p", g.number(pick(g, {2, 1, 3, 1.5})));
  g.arg("eps", g.number(pick(g, {1e-6, 0.25})));
  g.arg("keepdim", g.rng.chance(0.5));
}

// [*, C r^2, H, W] with 0 to 2 batch dims; rarely channels that r^2 does not divide.
void gen_pixel_shuffle(Gen& g, DType a) {
  const int64_t r = g.rng.uniform(1, 3);
  Shape s;
  for (int64_t d = g.rng.uniform(0, 2); d > 0; --d) s.push_back(g.rng.uniform(1, 2));
  s.push_back(r * r * g.rng.uniform(1, 2) + (g.rng.chance(0.03) ? 1 : 0));
  s.push_back(g.rng.uniform(1, 3));
  s.push_back(g.rng.uniform(1, 3));
  g.arg("input", g.tensor(a, s));
  g.arg("upscale_factor", r);
}

}  // namespace

void gen_norm_distance(Gen& g, OpKind op, DType a) {
  switch (op) {
    case OpKind::GroupNorm: return gen_group_norm(g, a);
    case OpKind::InstanceNorm: return gen_instance_norm(g, a);
    case OpKind::LocalResponseNorm: return gen_local_response_norm(g, a);
    case OpKind::CosineSimilarity:
    case OpKind::PairwiseDistance: return gen_distance(g, op, a);
    default: return gen_pixel_shuffle(g, a);
  }
}

}  // namespace difftest
