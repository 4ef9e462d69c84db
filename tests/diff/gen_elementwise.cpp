// Arguments of the elementwise groups: binary ops (tensor or number operands, type promotion,
// broadcasting), their in-place and out= forms, unary math, and clamp / where / masked_fill.
#include "gen.h"

namespace difftest {
namespace {

bool has_scalar_other(OpKind op) {
  return op != OpKind::Maximum && op != OpKind::Minimum && op != OpKind::LogicalAnd &&
         op != OpKind::LogicalOr && op != OpKind::LogicalXor && op != OpKind::Atan2;
}
bool is_shift(OpKind op) {
  return op == OpKind::BitwiseLeftShift || op == OpKind::BitwiseRightShift;
}
bool has_reversed_form(OpKind op) {  // a number on the left: 2 - x, 2 / x, 2 ** x
  return op == OpKind::Add || op == OpKind::Sub || op == OpKind::Mul || op == OpKind::Div ||
         op == OpKind::Pow;
}
bool has_alpha(OpKind op) {
  return op == OpKind::Add || op == OpKind::Sub || op == OpKind::AddInplace ||
         op == OpKind::SubInplace || op == OpKind::AddOut;
}

// Powers and products must stay small for integers (their overflow is undefined behaviour).
// Shift counts stay below the narrowest width: LibTorch 1.13's result for larger or negative
// counts depends on the CPU, where PyTorch 2.x (and ember) define it.
Values operand_values(OpKind op) {
  if (op == OpKind::Pow) return Values::small();
  return Values::general();
}
Values other_values(OpKind op) { return is_shift(op) ? Values::range(0, 7) : operand_values(op); }

// Shifts on floats are an error in PyTorch 2.x (and ember) but multiply in LibTorch 1.13.
DType operand_dtype(Gen& g, OpKind op) {
  const DType t = g.dtype();
  return is_shift(op) && is_floating(t) ? DType::Int64 : t;
}

}  // namespace

void gen_binary(Gen& g, OpKind op) {
  const DType a = operand_dtype(g, op);
  const Shape s = g.shape();
  if (g.rng.chance(0.3)) g.arg("method", true);  // x.op(y) rather than op(x, y)
  const double form = g.rng.real();
  if (has_reversed_form(op) && form < 0.1) {
    g.arg("self", g.scalar(a));
    g.arg("other", g.tensor(a, s, operand_values(op)));
    return;
  }
  g.arg("self", g.tensor(a, s, operand_values(op)));
  const DType b = is_shift(op) && is_floating(g.dtype_or(a)) ? a : g.dtype_or(a);
  if (has_scalar_other(op) && form < 0.35) {
    ScalarArg other = g.scalar(b);
    if (op == OpKind::Pow && other.kind != ScalarArg::Kind::Bool)
      other.value = static_cast<double>(g.rng.uniform(-2, 3));
    if (is_shift(op)) other = g.number(static_cast<double>(g.rng.uniform(0, 7)));
    g.arg("other", other);
  } else {
    Shape t = g.broadcast_partner(s);
    g.arg("other", g.tensor(b, g.rng.chance(0.5) ? t : s, other_values(op)));
  }
  if (has_alpha(op) && g.rng.chance(0.3)) g.arg("alpha", g.scalar(a));
}

void gen_in_place(Gen& g, OpKind op) {
  const DType a = g.dtype();
  const Shape s = g.shape();
  if (op == OpKind::AddOut || op == OpKind::MulOut) {
    // out has the broadcast shape: LibTorch would resize another shape, ember refuses to.
    g.arg("out", g.tensor(g.dtype_or(a), s));
    g.arg("self", g.tensor(a, s));
    g.arg("other", g.tensor(g.dtype_or(a), g.broadcast_partner(s, /*onto=*/true)));
    if (op == OpKind::AddOut && g.rng.chance(0.3)) g.arg("alpha", g.scalar(a));
    return;
  }
  g.arg("self", g.tensor(a, s));
  switch (op) {
    case OpKind::ClampInplace:
      g.arg("min", g.rng.chance(0.8) ? ArgValue(g.scalar(a)) : NoneArg{});
      g.arg("max", g.rng.chance(0.8) ? ArgValue(g.scalar(a)) : NoneArg{});
      return;
    case OpKind::MaskedFillInplace:
      g.arg("mask", g.tensor(DType::Bool, g.broadcast_partner(s, /*onto=*/true)));
      g.arg("value", g.scalar(a));
      return;
    default: break;
  }
  if (g.rng.chance(0.3)) {
    g.arg("other", g.scalar(g.dtype_or(a)));
  } else {
    g.arg("other", g.tensor(g.dtype_or(a), g.broadcast_partner(s, /*onto=*/true)));
    if (has_alpha(op) && g.rng.chance(0.3)) g.arg("alpha", g.scalar(a));
  }
}

void gen_unary(Gen& g, OpKind /*op*/) {
  g.arg("self", g.tensor(g.dtype(), g.shape()));
  if (g.rng.chance(0.3)) g.arg("method", true);  // x.op() rather than op(x)
}

void gen_select(Gen& g, OpKind op) {
  const DType a = g.dtype();
  const Shape s = g.shape();
  switch (op) {
    case OpKind::Clamp:
      g.arg("self", g.tensor(a, s));
      g.arg("min", g.rng.chance(0.8) ? ArgValue(g.scalar(a)) : NoneArg{});
      g.arg("max", g.rng.chance(0.8) ? ArgValue(g.scalar(a)) : NoneArg{});
      return;
    case OpKind::Where: {
      g.arg("condition", g.tensor(DType::Bool, g.broadcast_partner(s)));
      const DType b = g.dtype_or(a);
      const double form = g.rng.real();
      g.arg("self", form < 0.15 ? ArgValue(g.scalar(a)) : g.tensor(a, s));
      g.arg("other", form > 0.85 ? ArgValue(g.scalar(b)) : g.tensor(b, g.broadcast_partner(s)));
      return;
    }
    default:  // masked_fill: the mask broadcasts to self (a larger broadcast is an error)
      g.arg("self", g.tensor(a, s));
      g.arg("mask", g.tensor(DType::Bool, g.broadcast_partner(s, /*onto=*/!g.rng.chance(0.1))));
      g.arg("value", g.scalar(a));
      return;
  }
}

}  // namespace difftest
