// Arguments of reductions, cumsum and softmax: random dims (negative, several, keepdim), the
// "every dim" forms, and dtype= conversions.
#include <algorithm>
#include <cmath>

#include "gen.h"

namespace difftest {
namespace {

// Values a conversion to `target` keeps defined: converting a float outside an integer type's
// range (or inf, nan) is undefined behaviour in C++, in ember and LibTorch alike.
Values convertible_to(DType target) {
  switch (target) {
    case DType::UInt8: return Values::range(0, 255);
    case DType::Int8: return Values::range(-128, 127);
    case DType::Int16:
    case DType::Int32:
    case DType::Int64: return Values::range(-2000, 2000);
    default: return Values::general();
  }
}

// var/std's correction. Where it leaves no degrees of freedom (as many or more than the
// elements reduced), PyTorch 2.x's gradient is nan (inf where the element differs from the
// mean); LibTorch 1.13 gives inf or fails, so such programs skip backward.
int64_t correction(Gen& g, const Shape& s, bool all_dims) {
  const int64_t c = g.rng.uniform(0, 2);
  int64_t smallest = numel(s);  // the fewest elements any choice of dims can reduce
  if (!all_dims)
    for (int64_t d : s) smallest = std::min(smallest, d);
  if (smallest <= c) g.no_backward = true;
  return c;
}

}  // namespace

void gen_reduction(Gen& g, OpKind op) {
  const Shape s = g.shape();
  const int64_t n = static_cast<int64_t>(s.size());
  DType a = g.dtype();
  if ((op == OpKind::Mean || op == OpKind::Var || op == OpKind::Std || op == OpKind::Norm ||
       op == OpKind::Softmax || op == OpKind::LogSoftmax) &&
      g.rng.chance(0.9))
    a = g.float_dtype();  // they refuse integers: a few programs check that both refuse

  const bool takes_dtype = op == OpKind::Sum || op == OpKind::Prod || op == OpKind::Cumsum ||
                           op == OpKind::Cumprod || op == OpKind::Softmax ||
                           op == OpKind::LogSoftmax;
  ArgValue dtype = NoneArg{};  // the dtype= argument; the input's values must survive it
  if (takes_dtype && g.rng.chance(0.25)) dtype = g.dtype();
  Values values = op == OpKind::Prod || op == OpKind::Cumprod ? Values::small()
                  : std::holds_alternative<DType>(dtype) && is_floating(a)
                      ? convertible_to(std::get<DType>(dtype))
                      : Values::general();
  g.arg("self", g.tensor(a, s, values));

  const bool all_dims = g.rng.chance(0.3);
  switch (op) {
    case OpKind::Sum:
    case OpKind::Mean:
    case OpKind::Amax:
    case OpKind::Amin:
    case OpKind::Var:
    case OpKind::Std:
    case OpKind::Norm:
    case OpKind::Logsumexp:
      if (op == OpKind::Var || op == OpKind::Std) g.arg("correction", correction(g, s, all_dims));
      if (op == OpKind::Norm)
        g.arg("p", g.number(g.rng.pick(std::vector<double>{0, 0.5, 1, 1, 2, 2, 3, INFINITY})));
      if (!all_dims || op == OpKind::Logsumexp) {
        g.arg("dim", IntList{g.dims(n)});
        g.arg("keepdim", g.rng.chance(0.5));
      } else if (op != OpKind::Sum && op != OpKind::Mean) {
        g.arg("keepdim", g.rng.chance(0.5));  // every dim, kept as size 1
      }
      break;
    case OpKind::Prod:
    case OpKind::Max:
    case OpKind::Min:
    case OpKind::All:
    case OpKind::Any:
      if (!all_dims) {
        g.arg("dim", g.dim(n));
        g.arg("keepdim", g.rng.chance(0.5));
      }
      break;
    case OpKind::Argmax:
    case OpKind::Argmin:
      g.arg("dim", all_dims ? ArgValue(NoneArg{}) : ArgValue(g.dim(n)));
      g.arg("keepdim", g.rng.chance(0.5));
      break;
    default:  // cumsum, cumprod, softmax, log_softmax
      g.arg("dim", g.dim(n));
      break;
  }
  if (takes_dtype) g.arg("dtype", dtype);
}

}  // namespace difftest
