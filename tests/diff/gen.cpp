// The draws every op generator shares, and generate(): pick an op, build its arguments, then
// (for half of the programs) choose the inputs that require grad.
#include "gen.h"

#include <algorithm>
#include <cmath>

namespace difftest {

DType Gen::dtype() {
  // bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64
  static const std::vector<double> weights = {7, 7, 5, 5, 8, 12, 8, 8, 25, 15};
  return static_cast<DType>(rng.weighted(weights));
}

DType Gen::float_dtype() {
  static const std::vector<DType> floats = {DType::Float16, DType::BFloat16, DType::Float32,
                                            DType::Float32, DType::Float64};
  return rng.pick(floats);
}

DType Gen::dtype_or(DType usual) { return rng.chance(0.6) ? usual : dtype(); }

Shape Gen::shape(int min_ndim, int max_ndim) {
  static const std::vector<double> by_ndim = {10, 25, 30, 25, 10};
  int ndim;
  do {
    ndim = static_cast<int>(rng.weighted(by_ndim));
  } while (ndim < min_ndim || ndim > max_ndim);
  Shape s(static_cast<size_t>(ndim));
  do {
    for (int64_t& d : s) d = rng.chance(0.04) ? 0 : rng.chance(0.2) ? 1 : rng.uniform(2, 5);
  } while (numel(s) > 256);
  return s;
}

Shape Gen::broadcast_partner(const Shape& s, bool onto) {
  if (rng.chance(0.03)) {  // incompatible: a size that neither matches nor is 1
    Shape bad = s.empty() ? Shape{2} : s;
    bad.back() = bad.back() + 2;
    return bad;
  }
  Shape t = s;
  if (!onto && rng.chance(0.15)) t.insert(t.begin(), rng.uniform(1, 3));  // more leading dims
  size_t drop = static_cast<size_t>(rng.uniform(0, static_cast<int64_t>(s.size())));
  if (rng.chance(0.5))
    t.erase(t.begin(), t.begin() + static_cast<int64_t>(std::min(drop, t.size())));
  for (int64_t& d : t)
    if (rng.chance(0.3)) d = 1;
  if (!onto)
    for (int64_t& d : t)  // a 1 in s broadcasts to anything
      if (d == 1 && rng.chance(0.2)) d = rng.uniform(2, 3);
  return numel(t) > 512 ? s : t;
}

int64_t Gen::dim(int64_t ndim) {
  int64_t n = std::max<int64_t>(ndim, 1);  // a 0-dim tensor accepts dim 0 and -1
  if (rng.chance(0.03)) return rng.chance(0.5) ? n : -n - 1;
  int64_t d = rng.uniform(0, n - 1);
  return rng.chance(0.3) ? d - n : d;
}

std::vector<int64_t> Gen::dims(int64_t ndim) {
  int64_t n = std::max<int64_t>(ndim, 1);
  std::vector<int64_t> order(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
  for (int64_t i = n - 1; i > 0; --i) std::swap(order[i], order[rng.uniform(0, i)]);
  order.resize(static_cast<size_t>(rng.uniform(1, n)));
  for (int64_t& d : order)
    if (rng.chance(0.3)) d -= n;
  if (rng.chance(0.03)) order.push_back(order.front());  // repeated: an error in both
  if (rng.chance(0.03)) order.back() = n;                // out of range
  return order;
}

TensorRef Gen::tensor(DType dtype, const Shape& shape, Values values) {
  Input in;
  in.dtype = dtype;
  in.views = layout(shape, in.base_shape);
  in.values = this->values(dtype, numel(in.base_shape), values);
  p.inputs.push_back(std::move(in));
  return {static_cast<int>(p.inputs.size()) - 1};
}

TensorRef Gen::plain_tensor(DType dtype, const Shape& shape, Values values) {
  return tensor_of(dtype, shape, this->values(dtype, numel(shape), values));
}

TensorRef Gen::tensor_of(DType dtype, const Shape& shape, std::vector<double> values) {
  Input in;
  in.dtype = dtype;
  in.base_shape = shape;
  in.values = std::move(values);
  p.inputs.push_back(std::move(in));
  return {static_cast<int>(p.inputs.size()) - 1};
}

TensorRef Gen::index_tensor(const Shape& shape, int64_t lo, int64_t hi) {
  return tensor(DType::Int64, shape,
                Values::range(static_cast<double>(lo), static_cast<double>(hi)));
}

ScalarArg Gen::number(double v) {
  return {std::isfinite(v) && v == std::floor(v) ? ScalarArg::Kind::Int : ScalarArg::Kind::Float,
          v};
}

ScalarArg Gen::scalar(DType dtype) {
  const double r = rng.real();
  if (r < 0.1 || (dtype == DType::Bool && r < 0.4))
    return {ScalarArg::Kind::Bool, static_cast<double>(rng.uniform(0, 1))};
  if (r < 0.55) return {ScalarArg::Kind::Int, static_cast<double>(rng.uniform(-4, 4))};
  static const std::vector<double> specials = {0.0, -0.0, INFINITY, -INFINITY, NAN};
  if (rng.chance(0.05)) return {ScalarArg::Kind::Float, rng.pick(specials)};
  return {ScalarArg::Kind::Float, static_cast<double>(rng.uniform(-16, 16)) / 4};
}

namespace {

void gen_op(Gen& g, OpKind op) {
  switch (op_group(op)) {
    case Group::Binary: return gen_binary(g, op);
    case Group::InPlace: return gen_in_place(g, op);
    case Group::Unary: return gen_unary(g, op);
    case Group::Select: return gen_select(g, op);
    case Group::Reduction: return gen_reduction(g, op);
    case Group::Linalg: return gen_linalg(g, op);
    case Group::Shape: return gen_shape_op(g, op);
    case Group::View: return gen_view(g, op);
    case Group::NN: return gen_nn(g, op);
  }
}

}  // namespace

Program generate(uint64_t seed, uint64_t index) {
  Gen g(program_seed(seed, index));
  g.p.op = static_cast<OpKind>(g.rng.uniform(0, kNumOps - 1));
  gen_op(g, g.p.op);
  if (!g.no_backward && g.rng.chance(0.5)) choose_requires_grad(g);
  return g.p;
}

}  // namespace difftest
