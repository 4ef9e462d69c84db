// Arguments of the layers' functional forms that followed conv2d: F::pad in its four modes,
// bilinear, fold/unfold, conv1d, conv3d, conv_transpose2d, the 1-d and adaptive pools, the RNN
// cells, interpolate and grid_sample. Windows, pads and
// block counts that fit, and (rarely) ones that do not, which both must refuse.
#include <algorithm>
#include <vector>

#include "gen.h"

namespace difftest {
namespace {

// Finite values, as gen_nn.cpp's ops: where an inf meets a 0 in a sum of products, the order of
// the arithmetic decides between inf and NaN.
Values layer_values() { return Values::finite(); }

int64_t rarely(Gen& g, int64_t value, int64_t off) {
  return g.rng.chance(0.03) ? value + off : value;
}

// [N, C, *spatial] with each spatial size in [lo, hi]; without the batch dim with `unbatched`.
Shape batch_channels(Gen& g, int64_t channels, int spatial, int64_t lo, int64_t hi,
                     double unbatched = 0.2) {
  Shape s;
  if (!g.rng.chance(unbatched)) s.push_back(g.rng.uniform(0, 2));
  s.push_back(channels);
  for (int d = 0; d < spatial; ++d) s.push_back(g.rng.uniform(lo, hi));
  return s;
}

// F::pad: `mode` 0 constant, 1 reflect, 2 replicate, 3 circular. Constant pads any trailing dims
// and crops with negative widths; the others pad the last 1 to 3 dims of an input with one or
// two more dims, reflect by less than the size and circular by at most the size.
void gen_pad(Gen& g, DType a) {
  const int64_t mode = g.rng.uniform(0, 3);
  const int64_t padded = g.rng.uniform(1, 3);
  Shape s;
  if (mode == 0) {
    s = g.shape(static_cast<int>(padded), 4);
  } else {
    s = batch_channels(g, g.rng.uniform(1, 2), static_cast<int>(padded), mode == 1 ? 2 : 1, 4, 0.3);
    // Rarely only the padded dims, which these modes refuse.
    if (g.rng.chance(0.03)) s.erase(s.begin(), s.end() - padded);
  }
  std::vector<int64_t> widths;
  for (int64_t i = 0; i < 2 * padded; ++i) {
    const int64_t size = s[s.size() - 1 - static_cast<size_t>(i / 2)];
    switch (mode) {
      case 0: widths.push_back(g.rng.uniform(-1, 2)); break;
      case 1: widths.push_back(g.rng.uniform(0, rarely(g, size - 1, 1))); break;
      case 2: widths.push_back(g.rng.uniform(0, 3)); break;
      default: widths.push_back(g.rng.uniform(0, rarely(g, size, 1))); break;
    }
  }
  g.arg("input", g.tensor(a, s, layer_values()));
  g.arg("pad", IntList{widths});
  g.arg("mode", mode);
  // A value with another mode is refused by both.
  g.arg(
      "value",
      g.number(mode == 0 || g.rng.chance(0.03) ? g.rng.pick(std::vector<double>{0, 1.5, -2}) : 0));
}

void gen_bilinear(Gen& g, DType a) {
  Shape batch = g.shape(0, 2);
  const int64_t in1 = g.rng.uniform(1, 3), in2 = g.rng.uniform(1, 3), out = g.rng.uniform(1, 3);
  Shape s1 = batch, s2 = batch;
  s1.push_back(in1);
  s2.push_back(rarely(g, in2, 1));
  g.arg("input", g.tensor(a, s1, layer_values()));
  g.arg("input2", g.tensor(a, s2, layer_values()));
  g.arg("weight", g.tensor(a, {out, in1, in2}, layer_values()));
  g.arg("bias",
        g.rng.chance(0.3) ? ArgValue(NoneArg{}) : ArgValue(g.tensor(a, {out}, layer_values())));
}

// A window's geometry for fold/unfold: two entries each.
struct Window {
  std::vector<int64_t> kernel, dilation, padding, stride;
};
Window draw_window(Gen& g) {
  Window w;
  for (int d = 0; d < 2; ++d) {
    w.kernel.push_back(g.rng.uniform(1, 3));
    w.dilation.push_back(g.rng.uniform(1, 2));
    w.padding.push_back(g.rng.uniform(0, 1));
    w.stride.push_back(g.rng.uniform(1, 2));
  }
  return w;
}
void add_window(Gen& g, const Window& w) {
  g.arg("kernel_size", IntList{w.kernel});
  g.arg("dilation", IntList{w.dilation});
  g.arg("padding", IntList{w.padding});
  g.arg("stride", IntList{w.stride});
}
// Windows along one dim of `size` (0 or less when the window does not fit).
int64_t blocks(int64_t size, const Window& w, int d) {
  const int64_t span = w.dilation[d] * (w.kernel[d] - 1) + 1;
  return (size + 2 * w.padding[d] - span) / w.stride[d] + 1;
}

// unfold: [N, C, H, W] (rarely [C, H, W]); fold: the [N, C kh kw, L] blocks of an output size,
// with L rarely off by one.
void gen_fold(Gen& g, OpKind op, DType a) {
  const Window w = draw_window(g);
  const int64_t channels = g.rng.uniform(1, 2);
  if (op == OpKind::Unfold) {
    g.arg("input", g.tensor(a, batch_channels(g, channels, 2, 1, 5, 0.1), layer_values()));
    add_window(g, w);
    return;
  }
  const std::vector<int64_t> out = {g.rng.uniform(1, 5), g.rng.uniform(1, 5)};
  const int64_t l =
      std::max<int64_t>(blocks(out[0], w, 0), 0) * std::max<int64_t>(blocks(out[1], w, 1), 0);
  Shape s = {channels * w.kernel[0] * w.kernel[1], rarely(g, l, 1)};
  if (!g.rng.chance(0.2)) s.insert(s.begin(), g.rng.uniform(1, 2));
  g.arg("input", g.tensor(a, s, layer_values()));
  g.arg("output_size", IntList{out});
  add_window(g, w);
}

void gen_conv1d(Gen& g, DType a) {
  const int64_t groups = g.rng.uniform(1, 2), in_per_group = g.rng.uniform(1, 2);
  const int64_t out_channels = groups * g.rng.uniform(1, 2);
  g.arg("input", g.tensor(a, batch_channels(g, rarely(g, groups * in_per_group, 1), 1, 1, 6),
                          layer_values()));
  g.arg("weight", g.tensor(a, {out_channels, in_per_group, g.rng.uniform(1, 3)}, layer_values()));
  g.arg("bias", g.rng.chance(0.3) ? ArgValue(NoneArg{})
                                  : ArgValue(g.tensor(a, {out_channels}, layer_values())));
  g.arg("stride", IntList{{g.rng.uniform(1, 2)}});
  g.arg("padding", IntList{{g.rng.uniform(0, 1)}});
  g.arg("dilation", IntList{{g.rng.uniform(1, 2)}});
  g.arg("groups", groups);
}

// max_pool1d and avg_pool1d over [N, C, L] or [C, L]; padding at most half the kernel (rarely
// more), and undilated where the window is dilated (gen_nn.cpp's gen_pool says why).
void gen_pool1d(Gen& g, OpKind op, DType a) {
  g.arg("input", g.tensor(a, batch_channels(g, g.rng.uniform(1, 3), 1, 1, 6), layer_values()));
  const int64_t kernel = g.rng.uniform(1, 3);
  g.arg("kernel_size", IntList{{kernel}});
  g.arg("stride", g.rng.chance(0.3) ? IntList{} : IntList{{g.rng.uniform(1, 3)}});
  const bool dilated = op == OpKind::MaxPool1d && g.rng.chance(0.4);
  g.arg("padding", IntList{{dilated ? 0 : g.rng.uniform(0, rarely(g, kernel / 2, 1))}});
  if (op == OpKind::MaxPool1d) g.arg("dilation", IntList{{dilated ? 2 : 1}});
  g.arg("ceil_mode", g.rng.chance(0.3));
  if (op == OpKind::AvgPool1d) g.arg("count_include_pad", g.rng.chance(0.5));
}

void gen_adaptive_pool(Gen& g, DType a) {
  // Distinct values: which of two equal maxima a window reports is each library's own choice.
  g.arg("input", g.tensor(a, batch_channels(g, g.rng.uniform(1, 2), 2, 1, 5), Values::distinct()));
  g.arg("output_size", IntList{{g.rng.uniform(1, 4), g.rng.uniform(1, 4)}});
}

// input [B, in], hidden state(s) [B, H], weights [gates H, in] and [gates H, H], biases both or
// neither; rarely a hidden state of the wrong width.
void gen_cell(Gen& g, OpKind op, DType a) {
  const int64_t gates = op == OpKind::LstmCell ? 4 : op == OpKind::GruCell ? 3 : 1;
  const int64_t batch = g.rng.uniform(1, 3), in = g.rng.uniform(1, 3), hidden = g.rng.uniform(1, 3);
  const Values v = Values::range(-2, 2);
  g.arg("input", g.tensor(a, {batch, in}, v));
  g.arg("hx", g.tensor(a, {batch, rarely(g, hidden, 1)}, v));
  if (op == OpKind::LstmCell) g.arg("cx", g.tensor(a, {batch, hidden}, v));
  g.arg("w_ih", g.tensor(a, {gates * hidden, in}, v));
  g.arg("w_hh", g.tensor(a, {gates * hidden, hidden}, v));
  const bool biases = g.rng.chance(0.7);
  for (const char* name : {"b_ih", "b_hh"})
    g.arg(name, biases ? ArgValue(g.tensor(a, {gates * hidden}, v)) : ArgValue(NoneArg{}));
}

// conv_transpose2d: weight [C, out / groups, kh, kw]; output_padding below the stride or the
// dilation (rarely not, which both refuse).
void gen_conv_transpose(Gen& g, DType a) {
  const int64_t groups = g.rng.uniform(1, 2), out_per_group = g.rng.uniform(1, 2);
  const int64_t channels = groups * g.rng.uniform(1, 2);
  g.arg("input", g.tensor(a, batch_channels(g, rarely(g, channels, 1), 2, 1, 4), layer_values()));
  g.arg("weight", g.tensor(a, {channels, out_per_group, g.rng.uniform(1, 3), g.rng.uniform(1, 3)},
                           layer_values()));
  g.arg("bias", g.rng.chance(0.3)
                    ? ArgValue(NoneArg{})
                    : ArgValue(g.tensor(a, {groups * out_per_group}, layer_values())));
  std::vector<int64_t> stride, padding, output_padding, dilation;
  for (int d = 0; d < 2; ++d) {
    stride.push_back(g.rng.uniform(1, 2));
    dilation.push_back(g.rng.uniform(1, 2));
    padding.push_back(g.rng.uniform(0, 1));
    const int64_t below = std::max(stride.back(), dilation.back()) - 1;
    output_padding.push_back(g.rng.uniform(0, rarely(g, below, 1)));
  }
  g.arg("stride", IntList{stride});
  g.arg("padding", IntList{padding});
  g.arg("output_padding", IntList{output_padding});
  g.arg("groups", groups);
  g.arg("dilation", IntList{dilation});
}

void gen_conv3d(Gen& g, DType a) {
  const int64_t groups = g.rng.uniform(1, 2), in_per_group = g.rng.uniform(1, 2);
  const int64_t out_channels = groups * g.rng.uniform(1, 2);
  g.arg("input", g.tensor(a, batch_channels(g, rarely(g, groups * in_per_group, 1), 3, 1, 4),
                          layer_values()));
  g.arg("weight", g.tensor(a,
                           {out_channels, in_per_group, g.rng.uniform(1, 2), g.rng.uniform(1, 2),
                            g.rng.uniform(1, 2)},
                           layer_values()));
  g.arg("bias", g.rng.chance(0.3) ? ArgValue(NoneArg{})
                                  : ArgValue(g.tensor(a, {out_channels}, layer_values())));
  std::vector<int64_t> stride, padding, dilation;
  for (int d = 0; d < 3; ++d) {
    stride.push_back(g.rng.uniform(1, 2));
    padding.push_back(g.rng.uniform(0, 1));
    dilation.push_back(g.rng.uniform(1, 2));
  }
  g.arg("stride", IntList{stride});
  g.arg("padding", IntList{padding});
  g.arg("dilation", IntList{dilation});
  g.arg("groups", groups);
}

// interpolate to an output size: `mode` as layer_calls.inc numbers them, on an input of the dims
// the mode takes (nearest, area and nearest-exact: 1 to 3 spatial dims); align_corners given or
// not for the linear modes only.
void gen_interpolate(Gen& g, DType a) {
  const int64_t mode = g.rng.uniform(0, 6);
  const int spatial = mode == 1                ? 1
                      : mode == 2 || mode == 3 ? 2
                      : mode == 4              ? 3
                                               : static_cast<int>(g.rng.uniform(1, 3));
  Shape s = {g.rng.uniform(1, 2), g.rng.uniform(1, 2)};
  std::vector<int64_t> size;
  for (int d = 0; d < spatial; ++d) {
    s.push_back(g.rng.uniform(1, 4));
    size.push_back(g.rng.uniform(1, 6));
  }
  g.arg("input", g.tensor(a, s, layer_values()));
  g.arg("size", IntList{size});
  g.arg("mode", mode);
  if (mode >= 1 && mode <= 4 && g.rng.chance(0.8)) g.arg("align_corners", g.rng.chance(0.5));
}

// grid_sample over [N, C, H, W] (or a volume) with a grid reaching a little outside [-1, 1];
// modes bilinear and nearest (LibTorch 1.13's C++ options have no bicubic), every padding mode.
void gen_grid_sample(Gen& g, DType a) {
  const bool volume = g.rng.chance(0.25);
  const int64_t n = g.rng.uniform(1, 2);
  Shape s = {n, g.rng.uniform(1, 2)}, grid = {n};
  for (int d = 0; d < (volume ? 3 : 2); ++d) {
    s.push_back(g.rng.uniform(1, 4));
    grid.push_back(g.rng.uniform(1, 3));
  }
  grid.push_back(volume ? 3 : 2);
  g.arg("input", g.tensor(a, s, layer_values()));
  // Coordinates in eighths off the pixel grid's corners and centres, where the sampling weights
  // (and their gradients) have kinks that rounding would decide.
  std::vector<double> coords(static_cast<size_t>(numel(grid)));
  for (double& c : coords) c = (static_cast<double>(g.rng.uniform(-10, 10)) + 0.37) / 8;
  g.arg("grid", g.tensor_of(a, grid, std::move(coords)));
  g.arg("mode", g.rng.uniform(0, 1));
  g.arg("padding_mode", g.rng.uniform(0, 2));
  g.arg("align_corners", g.rng.chance(0.5));
}

}  // namespace

void gen_layer(Gen& g, OpKind op) {
  const DType a = g.float_dtype();
  switch (op) {
    case OpKind::Pad: return gen_pad(g, a);
    case OpKind::Bilinear: return gen_bilinear(g, a);
    case OpKind::Fold:
    case OpKind::Unfold: return gen_fold(g, op, a);
    case OpKind::Conv1d: return gen_conv1d(g, a);
    case OpKind::MaxPool1d:
    case OpKind::AvgPool1d: return gen_pool1d(g, op, a);
    case OpKind::AdaptiveAvgPool2d:
    case OpKind::AdaptiveMaxPool2d: return gen_adaptive_pool(g, a);
    case OpKind::ConvTranspose2d: return gen_conv_transpose(g, a);
    case OpKind::Conv3d: return gen_conv3d(g, a);
    case OpKind::Interpolate: return gen_interpolate(g, a);
    // float32/float64: LibTorch 1.13's CPU grid_sampler has no half kernels to compare with.
    case OpKind::GridSample:
      return gen_grid_sample(g, g.rng.chance(0.5) ? DType::Float32 : DType::Float64);
    default: return gen_cell(g, op, a);
  }
}

}  // namespace difftest
