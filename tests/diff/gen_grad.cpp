// Which inputs of a program require grad: floating ones, at random, except where PyTorch and
// ember differ by design or LibTorch 1.13 fails (each case below says which).
#include "gen.h"

namespace difftest {
namespace {

bool names(const Program& p, const char* name, size_t input) {
  return holds<TensorRef>(p, name) && get<TensorRef>(p, name).index == static_cast<int>(input);
}

// Whether the op writes into the input: in-place ops into self or out.
bool is_written(const Program& p, size_t input) {
  return op_group(p.op) == Group::InPlace && (names(p, "self", input) || names(p, "out", input));
}

// Whether input i may require grad. A floating input may, except for:
// - the weights of losses: ember differentiates them, PyTorch refuses them requiring grad
//   (README); nor the ±1 targets of the margin losses, which LibTorch 1.13 does not
//   differentiate;
// - floor_divide: ember's result does not require grad; PyTorch's does, and its backward
//   raises "derivative for floor_divide is not implemented" (README).
// - the input an in-place op writes into: writing into a leaf that requires grad (or a view of
//   one) is refused by both and checked in a few programs (`check_refusal`).
// - sum/prod/cumsum with an integer dtype=: the result cannot require grad, which LibTorch 1.13
//   reports as an internal assert; so it does for the backward of pow with a bool base.
// - pow with a bool exponent (x ** False): LibTorch 1.13's gradient is nan at x == 0, 2.x's
//   (and ember's) 0.
// - pow with an integer base tensor and a float64 exponent: LibTorch 1.13 takes the base's log
//   in float32 for the exponent's gradient; PyTorch 2.x (and ember) in float64.
bool may_require_grad(const Program& p, size_t i, bool check_refusal) {
  if (!is_floating(p.inputs[i].dtype) || p.op == OpKind::FloorDivide) return false;
  for (const char* operand : {"self", "other"})
    if (p.op == OpKind::Pow && holds<ScalarArg>(p, operand) &&
        get<ScalarArg>(p, operand).kind == ScalarArg::Kind::Bool)
      return false;
  const Input *base = input_arg(p, "self"), *exponent = input_arg(p, "other");
  if (p.op == OpKind::Pow && base && exponent && !is_floating(base->dtype) &&
      exponent->dtype == DType::Float64)
    return false;
  if (holds<DType>(p, "dtype") && !is_floating(get<DType>(p, "dtype")) &&
      (p.op == OpKind::Sum || p.op == OpKind::Prod || p.op == OpKind::Cumsum ||
       p.op == OpKind::Cumprod))
    return false;
  if (names(p, "running_mean", i) || names(p, "running_var", i)) return false;  // statistics
  if (is_loss(p.op) && (names(p, "weight", i) || names(p, "pos_weight", i))) return false;
  // LibTorch 1.13 has no derivative for these ±1 targets (soft_margin_loss refuses; the others
  // leave the gradient undefined).
  if ((p.op == OpKind::SoftMarginLoss || p.op == OpKind::HingeEmbeddingLoss ||
       p.op == OpKind::CosineEmbeddingLoss) &&
      names(p, "target", i))
    return false;
  if (is_written(p, i)) return check_refusal;
  return true;
}

}  // namespace

void choose_requires_grad(Gen& g) {
  // A few programs let a written input require grad, which both must refuse.
  const bool check_refusal = g.rng.chance(0.1);
  for (size_t i = 0; i < g.p.inputs.size(); ++i)
    g.p.inputs[i].requires_grad = g.rng.chance(0.75) && may_require_grad(g.p, i, check_refusal);
  for (const Input& in : g.p.inputs) g.p.backward = g.p.backward || in.requires_grad;
}

}  // namespace difftest
