// The random program generator: Gen holds the program being built and the draws every op
// generator shares (dtypes, shapes, dims, numbers, input tensors); gen_<group>.cpp build the
// arguments of each op group.
#pragma once

#include <cstdint>

#include "program.h"
#include "rng.h"

namespace difftest {

// Which values an input holds.
struct Values {
  enum class Kind : int8_t {
    General,   // floats: a dyadic grid, random reals, sometimes 0, -0, inf, -inf, nan
    Finite,    // the same without inf and nan
    Small,     // integers in [-3, 3] (exponents, products that must not overflow)
    Range,     // numbers in [lo, hi] (conversions to integer dtypes, indices)
    Distinct,  // no two equal elements (orders that ties would make ambiguous)
  };
  Kind kind = Kind::General;
  double lo = 0, hi = 0;

  static Values general() { return {}; }
  static Values finite() { return {Kind::Finite}; }
  static Values small() { return {Kind::Small}; }
  static Values range(double lo, double hi) { return {Kind::Range, lo, hi}; }
  static Values distinct() { return {Kind::Distinct}; }
};

class Gen {
 public:
  explicit Gen(uint64_t seed) : rng(seed) {}

  Rng rng;
  Program p;
  // Set by an op generator when this program must not run backward (see gen_reduction.cpp).
  bool no_backward = false;

  void arg(const char* name, ArgValue value) { p.args.push_back({name, std::move(value)}); }

  // ---- dtypes
  DType dtype();                // any, weighted towards float32
  DType float_dtype();          // float16, bfloat16, float32 or float64
  DType dtype_or(DType usual);  // usually `usual`, sometimes any other (type promotion)

  // ---- shapes (at most 4 dims, at most 256 elements, sizes of 0 and 1 included)
  Shape shape(int min_ndim = 0, int max_ndim = 4);
  // A shape that broadcasts with `s`: some dims 1, fewer leading dims. `onto`: the broadcast
  // result stays `s` (in-place ops). Rarely an incompatible one, which must be an error in both.
  Shape broadcast_partner(const Shape& s, bool onto = false);
  // A dim of an ndim-dim tensor, positive or negative; rarely out of range.
  int64_t dim(int64_t ndim);
  // A non-empty list of distinct dims; rarely a repeated one.
  std::vector<int64_t> dims(int64_t ndim);

  // ---- arguments
  // An input of exactly this dtype and shape, contiguous or a view (transposed, strided,
  // broadcast); returns its reference for arg().
  TensorRef tensor(DType dtype, const Shape& shape, Values values = Values::general());
  // The same without views: for tensors written in place (batch_norm's running statistics) or
  // that LibTorch 1.13 mishandles when strided.
  TensorRef plain_tensor(DType dtype, const Shape& shape, Values values);
  // A plain input holding exactly these values (row-major).
  TensorRef tensor_of(DType dtype, const Shape& shape, std::vector<double> values);
  // An int64 index tensor with values in [lo, hi].
  TensorRef index_tensor(const Shape& shape, int64_t lo, int64_t hi);
  // A Python number usable with a tensor of `dtype`: bool, int or float, mostly small.
  ScalarArg scalar(DType dtype);
  ScalarArg number(double v);  // an int if v is whole, else a float

  // The values of a base tensor of n elements.
  std::vector<double> values(DType dtype, int64_t n, Values kind);
  // The view steps from a base to an operand of `shape`; sets `base_shape`.
  std::vector<ViewStep> layout(const Shape& shape, Shape& base_shape);
};

// Fills g.p.args (and inputs) for one op of each group.
void gen_binary(Gen& g, OpKind op);
void gen_in_place(Gen& g, OpKind op);
void gen_unary(Gen& g, OpKind op);
void gen_select(Gen& g, OpKind op);
void gen_reduction(Gen& g, OpKind op);
void gen_linalg(Gen& g, OpKind op);
void gen_shape_op(Gen& g, OpKind op);
void gen_view(Gen& g, OpKind op);
void gen_nn(Gen& g, OpKind op);
// The activations of torch.nn.functional (nn group), from gen_nn.
void gen_activation(Gen& g, OpKind op, DType dtype);
// group_norm, instance_norm, local_response_norm, the distances and pixel_shuffle, from gen_nn.
void gen_norm_distance(Gen& g, OpKind op, DType dtype);
// pad, bilinear, fold/unfold, conv1d/3d, conv_transpose2d, the 1-d and adaptive pools, the RNN
// cells, interpolate and grid_sample, from gen_nn.
void gen_layer(Gen& g, OpKind op);
// The losses after mse, nll, cross_entropy and binary_cross_entropy_with_logits, from gen_nn.
void gen_loss(Gen& g, OpKind op);

// Marks inputs of g.p as requiring grad (and g.p.backward) where that is comparable.
void choose_requires_grad(Gen& g);

// Program `index` of the run with `seed`: the same pair always gives the same program.
Program generate(uint64_t seed, uint64_t index);

}  // namespace difftest
