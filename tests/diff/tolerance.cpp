// Tolerances: per dtype, narrowed to the least precise dtype a program computes in, widened by
// the magnitude of what an accumulating op adds up.
#include "tolerance.h"

#include <algorithm>
#include <cmath>

#include "operand.h"

namespace difftest {
namespace {

// Per dtype: a few units in the last place, relative, plus a floor for results near zero.
Tolerance base_tolerance(DType t) {
  switch (t) {
    case DType::Float16: return {2e-3, 1e-5};
    case DType::BFloat16: return {1.6e-2, 1e-4};
    case DType::Float32: return {4e-6, 1e-6};
    default: return {1e-10, 1e-12};
  }
}

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v)
    if (std::isfinite(x)) m = std::max(m, std::abs(x));
  return m;
}

// Precision, lowest first; integers and bool count as exact.
int precision(DType t) {
  switch (t) {
    case DType::BFloat16: return 0;
    case DType::Float16: return 1;
    case DType::Float32: return 2;
    case DType::Float64: return 3;
    default: return 4;
  }
}

// The least precise floating dtype among `t` and the program's inputs and dtype= arguments: a
// result is no more exact than the narrowest type it went through (the float64 gradient of an
// input that was computed with in bfloat16 has bfloat16's precision).
DType narrowest(const Program& p, DType t) {
  auto narrower = [&](DType u) {
    if (precision(u) < precision(t)) t = u;
  };
  for (const Input& in : p.inputs) narrower(in.dtype);
  for (const Arg& a : p.args)
    if (std::holds_alternative<DType>(a.value)) narrower(std::get<DType>(a.value));
  return t;
}

const Input* tensor_arg(const Program& p, std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (const Input* in = input_arg(p, name)) return in;
  return nullptr;
}

// The largest magnitude a matrix product (or convolution) adds up: k terms of at most
// max|a| max|b| each. A result that cancels to near zero still carries rounding errors of that
// size.
double product_terms(const Program& p) {
  const Input* a = tensor_arg(p, {"mat1", "input", "self"});
  const Input* b = tensor_arg(p, {"mat2", "other", "vec", "tensor", "weight"});
  if (!a || !b) return 0;
  const Operand x = operand(*a), y = operand(*b);
  double k = x.shape.empty() ? 1.0 : static_cast<double>(x.shape.back());
  if (p.op == OpKind::Conv2d)  // a weight [O, C / groups, kH, kW]: C / groups * kH * kW terms
    k = y.shape.empty() || y.shape[0] == 0 ? 0.0 : static_cast<double>(numel(y.shape) / y.shape[0]);
  return k * max_abs(x.values) * max_abs(y.values);
}

// Normalisation divides x - mean by sqrt(var + eps): a near-constant group turns the rounding
// error of x - mean (of the order of max|x|), and in backward that of the upstream gradient
// times the weight (up to 1.75 |w|), into one up to 1 / sqrt(eps) times larger. The ops use
// eps = 1e-5.
double normalization_terms(const Program& p) {
  if (p.op != OpKind::LayerNorm && p.op != OpKind::BatchNorm && p.op != OpKind::GroupNorm &&
      p.op != OpKind::InstanceNorm)
    return 0;
  const Input* weight = input_arg(p, "weight");
  const double w = weight ? std::max(1.0, max_abs(operand(*weight).values)) : 1.0;
  return std::max(2.0, max_abs(operand(*input_arg(p, "input")).values)) * w / std::sqrt(1e-5);
}

// A loss adds terms like x + log(1 + e^-x) that cancel to much less than |x| (times the
// weights): their rounding errors are relative to the inputs, and a sum adds up n of them.
double loss_terms(const Program& p) {
  if (!is_loss(p.op)) return 0;
  double terms = 1;
  for (const char* name : {"input", "target"})
    if (const Input* in = input_arg(p, name))
      if (is_floating(in->dtype)) terms += max_abs(operand(*in).values);
  for (const char* name : {"weight", "pos_weight"})
    if (const Input* in = input_arg(p, name)) terms *= std::max(1.0, max_abs(operand(*in).values));
  const bool sum = get<int64_t>(p, "reduction") == 2;
  return sum ? terms * static_cast<double>(numel(operand(*input_arg(p, "input")).shape)) : terms;
}

// Whether the elements of input i's base each receive several gradient terms: the input was
// expanded, or the op broadcasts it to a larger result.
bool summed(const Program& p, size_t i, int64_t largest_output) {
  const Input& in = p.inputs[i];
  if (numel(in.base_shape) < largest_output) return true;
  for (const ViewStep& v : in.views)
    if (v.kind == ViewStep::Kind::Expand) return true;
  return false;
}

}  // namespace

Tolerance output_tolerance(const Program& p, DType t, const std::vector<double>& reference) {
  const Family family = op_family(p.op);
  if (family == Family::Movement) return {};
  Tolerance tol = base_tolerance(narrowest(p, t));
  if (family == Family::Accumulating) {
    tol.atol += 4 * tol.rtol * max_abs(reference);
    if (op_group(p.op) == Group::Linalg || p.op == OpKind::Conv2d)
      tol.atol += tol.rtol * product_terms(p);
    tol.atol += tol.rtol * normalization_terms(p);
    tol.atol += 4 * tol.rtol * loss_terms(p);
  }
  return tol;
}

Tolerance gradient_tolerance(const Program& p, size_t i, DType t,
                             const std::vector<double>& reference, int64_t largest_output) {
  const DType precision_type = narrowest(p, t);
  if (summed(p, i, largest_output) && precision(precision_type) < precision(DType::Float32))
    return {0, 0, false};
  Tolerance tol = base_tolerance(precision_type);
  tol.atol += 4 * tol.rtol * (std::max(1.0, max_abs(reference)) + loss_terms(p)) +
              tol.rtol * normalization_terms(p);
  return tol;
}

bool close(double a, double b, Tolerance tol) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (a == b) return true;  // equal infinities too
  if (std::isinf(a) || std::isinf(b)) return false;
  return std::abs(a - b) <= tol.atol + tol.rtol * std::abs(b);
}

}  // namespace difftest
