// Binary ops: arithmetic, comparisons, logic and where, their in-place forms and operators.
#include "autograd/record.h"
#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/ops.h"
#include "ember/factory.h"
#include "ember/reduce.h"
#include "kernels/stubs.h"
#include "ops/promotion.h"

namespace ember {
namespace {

using kernels::BinaryOp;
using kernels::CompareOp;

// A given `out` comes from arith_out, which has checked memory overlap already.
kernels::TensorIter binary_iter(const char* op, const Tensor& out, const Tensor& a, const Tensor& b,
                                DType compute, DType output) {
  return kernels::make_iter(
      {op, compute, output, true, {"self", "other"}, /*check_mem_overlap=*/false}, out, {a, b});
}

// PyTorch's alpha_check: a bool alpha only for bool results, a floating one only for floating.
void check_alpha(const char* op, DType common, Scalar alpha) {
  EMBER_CHECK_T(TypeError, !alpha.is_boolean() || common == kBool, "[", op,
                "] Boolean alpha only supported for Boolean results.");
  EMBER_CHECK_T(TypeError, is_floating_point(common) || !alpha.is_floating_point(), "[", op,
                "] For integral input tensors, argument alpha must not be a floating point number.");
}

// Integer division by zero has no defined result: refuse it like Python (CPU tensors; on the GPU
// PyTorch does not check either). Only divisors that meet a dividend count: with an empty
// result there are none (broadcasting never drops an element of a non-empty result).
// The divisor is checked as the kernel sees it, in the common dtype: uint8 256 is a 0 there.
void check_no_zero_divisor(const char* op, BinaryOp kind, const Tensor& a, const Tensor& b,
                           DType common) {
  if (kind != BinaryOp::FloorDivide && kind != BinaryOp::Remainder) return;
  if (!is_integral(common, true) || !b.is_cpu() || a.numel() == 0 || b.numel() == 0) return;
  const Tensor divisor = b.dtype() == common ? b : b.to(common);
  EMBER_CHECK_T(ValueError, !eq(divisor, 0).any().item<bool>(), "[", op,
                "] ZeroDivisionError: integer division by zero");
}

// pow, floor_divide and remainder have no bool kernel in PyTorch: a bool result is refused
// (a bool operand with an int or float one promotes and is fine).
void check_not_bool_result(const char* op, BinaryOp kind, DType common) {
  bool refused =
      kind == BinaryOp::Pow || kind == BinaryOp::FloorDivide || kind == BinaryOp::Remainder;
  EMBER_CHECK_T(TypeError, !refused || common != kBool, "[", op,
                "] is not implemented for Bool tensors");
}

Tensor arith(const char* op, BinaryOp kind, const Tensor& a, const Tensor& b, Scalar alpha = 1) {
  DType common = ops::result_type(a, b);
  if (kind == BinaryOp::Add) check_alpha(op, common, alpha);
  check_not_bool_result(op, kind, common);
  if (kind == BinaryOp::Div && is_integral(common, true)) common = kFloat32;  // true division
  check_no_zero_divisor(op, kind, a, b, common);
  kernels::TensorIter it = binary_iter(op, Tensor(), a, b, common, common);
  kernels::binary_stub(it.device_type(), it, kind, alpha);
  return it.output();
}

Tensor compare(const char* op, CompareOp kind, const Tensor& a, const Tensor& b) {
  DType common = ops::result_type(a, b);
  kernels::TensorIter it = binary_iter(op, Tensor(), a, b, common, kBool);
  kernels::compare_stub(it.device_type(), it, kind);
  return it.output();
}

// PyTorch's sub_check, then alpha_check with the alpha as given (sub runs as add with -alpha,
// which would hide a bool alpha).
void check_sub(const char* op, const Tensor& a, const Tensor& b, Scalar alpha) {
  EMBER_CHECK_T(TypeError, !(a.dtype() == kBool && b.dtype() == kBool), "[", op,
                "] Subtraction, the `-` operator, with two bool tensors is not supported. Use "
                "the `^` or `logical_xor()` operator instead.");
  EMBER_CHECK_T(TypeError, a.dtype() != kBool && b.dtype() != kBool, "[", op,
                "] Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
                "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
  check_alpha(op, ops::result_type(a, b), alpha);
}

// `t` when `grad_of` requires grad (its gradient formula reads t), else nothing to save.
Tensor saved_if(const Tensor& grad_of, const Tensor& t) {
  return grad_of.requires_grad() ? t : Tensor();
}

Scalar negated(Scalar s) {
  if (s.is_floating_point()) return -s.to_double();
  return static_cast<int64_t>(0 - static_cast<uint64_t>(s.to_int64()));  // wraps at INT64_MIN
}

// Into `out` (in place when out is a): the result type must be castable to out's dtype (torch's
// rule and message).
Tensor& arith_out(const char* op, BinaryOp kind, Tensor& out, const Tensor& a, const Tensor& b,
                  Scalar alpha = 1) {
  // Checked before a path is chosen: the dtype-cast path computes into a new tensor first.
  kernels::check_mem_overlap(op, out, {a, b});
  EMBER_CHECK(!autograd::needs_grad(a, b, out), "[", op, "] functions with out=... arguments "
              "don't support automatic differentiation, but one of the arguments requires grad. "
              "Use the form that returns a new tensor, or compute inside an ember::NoGradGuard.");
  DType common = ops::result_type(a, b);
  if (kind == BinaryOp::Div && is_integral(common, true)) common = kFloat32;
  EMBER_CHECK_T(TypeError, can_cast(common, out.dtype()), "[", op, "] result type ", common,
                " can't be cast to the desired output type ", out.dtype());
  if (kind == BinaryOp::Add) check_alpha(op, common, alpha);
  if (common == out.dtype()) {
    check_no_zero_divisor(op, kind, a, b, common);  // arith checks it on the other path
    kernels::TensorIter it = binary_iter(op, out, a, b, common, common);
    kernels::binary_stub(it.device_type(), it, kind, alpha);
  } else {
    out.copy_(arith(op, kind, a, b, alpha));
  }
  return out;
}
// In place: under autograd the op runs out of place on a clone of self's old values (which the
// formula may need), and self takes over the result's history.
template <class OutOfPlace>
Tensor& arith_(const char* op, BinaryOp kind, Tensor& self, const Tensor& other,
               OutOfPlace out_of_place, Scalar alpha = 1) {
  // Checked before a path is chosen: under autograd the op computes on a clone first.
  kernels::check_mem_overlap(op, self, {self, other});
  if (autograd::check_inplace(self, op, other.requires_grad())) {
    Tensor result = out_of_place(self.clone(), other);
    EMBER_CHECK_T(TypeError, can_cast(result.dtype(), self.dtype()), "[", op, "] result type ",
                  result.dtype(), " can't be cast to the desired output type ", self.dtype());
    if (result.dtype() != self.dtype()) result = result.to(self.dtype());  // history, too
    {
      autograd::NoGradGuard no_grad;
      self.copy_(result);
    }
    autograd::rebase_history(self, result);
    return self;
  }
  return arith_out(op, kind, self, self, other, alpha);
}

}  // namespace

// ---- arithmetic (each records its backward formula; see Note [Backward formulas beside their ops])
using autograd::Context;
using autograd::Grads;

Tensor add(const Tensor& a, const Tensor& b, Scalar alpha) {
  Tensor out = arith("add", BinaryOp::Add, a, b, alpha);
  if (autograd::needs_grad(a, b))
    autograd::record("AddBackward0", {out}, {a, b}, {}, [alpha](const Context& c) {
      return Grads{c.grad(), c.needs(1) ? c.grad() * alpha : Tensor()};
    });
  return out;
}
Tensor add(const Tensor& a, Scalar b, Scalar alpha) { return add(a, ops::wrap_scalar(b), alpha); }
Tensor sub(const Tensor& a, const Tensor& b, Scalar alpha) {
  check_sub("sub", a, b, alpha);
  Tensor out = arith("sub", BinaryOp::Add, a, b, negated(alpha));
  if (autograd::needs_grad(a, b))
    autograd::record("SubBackward0", {out}, {a, b}, {}, [alpha](const Context& c) {
      return Grads{c.grad(), c.needs(1) ? c.grad() * negated(alpha) : Tensor()};
    });
  return out;
}
Tensor sub(const Tensor& a, Scalar b, Scalar alpha) { return sub(a, ops::wrap_scalar(b), alpha); }
Tensor mul(const Tensor& a, const Tensor& b) {
  Tensor out = arith("mul", BinaryOp::Mul, a, b);
  if (autograd::needs_grad(a, b))
    // Each operand is saved only for the other's gradient, as PyTorch does: x.add_(x * 3) then
    // stays differentiable (the saved 3 was not modified; x, unsaved, may be).
    autograd::record("MulBackward0", {out}, {a, b}, {saved_if(b, a), saved_if(a, b)},
                     [](const Context& c) {
      return Grads{c.needs(0) ? c.grad() * c.saved(1) : Tensor(),
                   c.needs(1) ? c.grad() * c.saved(0) : Tensor()};
    });
  return out;
}
Tensor mul(const Tensor& a, Scalar b) { return mul(a, ops::wrap_scalar(b)); }
Tensor div(const Tensor& a, const Tensor& b) {
  Tensor out = arith("div", BinaryOp::Div, a, b);
  if (autograd::needs_grad(a, b))
    autograd::record("DivBackward0", {out}, {a, b}, {saved_if(b, a), b}, [](const Context& c) {
      const Tensor& y = c.saved(1);
      // -g x / y^2 as PyTorch computes it, (x / y) / y: y^2 alone overflows (or underflows)
      // long before the quotient does.
      return Grads{c.needs(0) ? c.grad() / y : Tensor(),
                   c.needs(1) ? -c.grad() * (c.saved(0) / y / y) : Tensor()};
    });
  return out;
}
Tensor div(const Tensor& a, Scalar b) { return div(a, ops::wrap_scalar(b)); }
Tensor floor_divide(const Tensor& a, const Tensor& b) {
  return arith("floor_divide", BinaryOp::FloorDivide, a, b);  // piecewise constant: no gradient
}
Tensor floor_divide(const Tensor& a, Scalar b) { return floor_divide(a, ops::wrap_scalar(b)); }
Tensor remainder(const Tensor& a, const Tensor& b) {
  Tensor out = arith("remainder", BinaryOp::Remainder, a, b);
  if (autograd::needs_grad(a, b))
    autograd::record("RemainderBackward0", {out}, {a, b}, {saved_if(b, a), saved_if(b, b)},
                     [](const Context& c) {
      return Grads{c.grad(),
                   c.needs(1) ? -c.grad() * floor_divide(c.saved(0), c.saved(1)) : Tensor()};
    });
  return out;
}
Tensor remainder(const Tensor& a, Scalar b) { return remainder(a, ops::wrap_scalar(b)); }
Tensor pow(const Tensor& a, const Tensor& b) {
  Tensor out = arith("pow", BinaryOp::Pow, a, b);
  if (autograd::needs_grad(a, b)) {
    // PyTorch's names: PowBackward0 for a scalar exponent, PowBackward2 for a scalar base.
    const char* name = b.impl()->wrapped_number   ? "PowBackward0"
                       : a.impl()->wrapped_number ? "PowBackward2"
                                                  : "PowBackward1";
    autograd::record(name, {out}, {a, b}, {a, b, out}, [](const Context& c) {
      const Tensor &x = c.saved(0), &result = c.saved(2);
      // A bool exponent (x ** True) counts as a number: e - 1 is not a bool subtraction.
      const Tensor e = c.saved(1).dtype() == kBool ? c.saved(1).to(result.dtype()) : c.saved(1);
      // d/dx x^e = e x^(e-1), zero where e == 0 (also at x == 0); d/de = x^e log x, zero where
      // x == 0 and e >= 0 (the limit, where log x is -inf), as in PyTorch.
      Tensor gx = c.needs(0) ? where(e == 0, 0.0, c.grad() * e * pow(x, e - 1)) : Tensor();
      Tensor ge;
      if (c.needs(1)) {
        // log x in the result's dtype: an integer base (2 ** x) would give a float32 log.
        Tensor log_x = log(x.dtype() == result.dtype() ? x : x.to(result.dtype()));
        ge = where(logical_and(x == 0, e >= 0), 0.0, c.grad() * result * log_x);
      }
      return Grads{gx, ge};
    });
  }
  return out;
}
Tensor pow(const Tensor& a, Scalar b) {
  Tensor exponent = ops::wrap_scalar(b);
  // An integer result (a bool base promotes to int64 too) cannot hold 1 / a^|b|.
  EMBER_CHECK_T(ValueError,
                !(is_integral(ops::result_type(a, exponent), true) && b.is_integral() &&
                  b.to_int64() < 0),
                "[pow] Integers to negative integer powers are not allowed.");
  return pow(a, exponent);
}
Tensor pow(Scalar a, const Tensor& b) { return pow(ops::wrap_scalar(a), b); }

// The larger (smaller) operand gets the gradient; ties split it evenly, as PyTorch does. An
// operand loses its share only to one that wins the comparison, so both get all of it where
// either is NaN (PyTorch's masked_fill formula).
Tensor extremum(const char* op, const char* node, BinaryOp kind, const Tensor& a, const Tensor& b) {
  Tensor out = arith(op, kind, a, b);
  if (autograd::needs_grad(a, b))
    autograd::record(node, {out}, {a, b}, {a, b}, [kind](const Context& c) {
      const Tensor &x = c.saved(0), &y = c.saved(1), &g = c.grad();
      Tensor x_loses = kind == BinaryOp::Maximum ? x < y : x > y;
      Tensor y_loses = kind == BinaryOp::Maximum ? x > y : x < y;
      Tensor shared = where(x == y, g / 2, g);
      return Grads{where(x_loses, 0.0, shared),
                   c.needs(1) ? where(y_loses, 0.0, shared) : Tensor()};
    });
  return out;
}
Tensor maximum(const Tensor& a, const Tensor& b) {
  return extremum("maximum", "MaximumBackward0", BinaryOp::Maximum, a, b);
}
Tensor minimum(const Tensor& a, const Tensor& b) {
  return extremum("minimum", "MinimumBackward0", BinaryOp::Minimum, a, b);
}

// ---- comparisons and logic
#define EMBER_COMPARE_OP(name, kind)                                                         \
  Tensor name(const Tensor& a, const Tensor& b) { return compare(#name, CompareOp::kind, a, b); } \
  Tensor name(const Tensor& a, Scalar b) { return name(a, ops::wrap_scalar(b)); }
EMBER_COMPARE_OP(eq, Eq)
EMBER_COMPARE_OP(ne, Ne)
EMBER_COMPARE_OP(lt, Lt)
EMBER_COMPARE_OP(le, Le)
EMBER_COMPARE_OP(gt, Gt)
EMBER_COMPARE_OP(ge, Ge)
#undef EMBER_COMPARE_OP

Tensor logical_and(const Tensor& a, const Tensor& b) {
  return compare("logical_and", CompareOp::LogicalAnd, a, b);
}
Tensor logical_or(const Tensor& a, const Tensor& b) {
  return compare("logical_or", CompareOp::LogicalOr, a, b);
}
Tensor logical_xor(const Tensor& a, const Tensor& b) {
  return compare("logical_xor", CompareOp::LogicalXor, a, b);
}

Tensor where(const Tensor& condition, const Tensor& a, const Tensor& b) {
  EMBER_CHECK_T(TypeError, condition.dtype() == kBool,
                "[where] expected condition to be a boolean tensor, but got a tensor with dtype ",
                condition.dtype());
  DType common = ops::result_type(a, b);
  bool grad = autograd::needs_grad(a, b);
  Tensor out;
  {
    autograd::NoGradGuard no_grad;  // the dtype conversions are part of this op's formula
    kernels::TensorIter it = kernels::make_iter(
        {"where", common, common, false, {"condition", "self", "other"}}, Tensor(),
        {condition, a.dtype() == common ? a : a.to(common), b.dtype() == common ? b : b.to(common)});
    kernels::where_stub(it.device_type(), it);
    out = it.output();
  }
  if (grad)
    autograd::record("WhereBackward0", {out}, {a, b}, {condition}, [](const Context& c) {
      return Grads{c.needs(0) ? where(c.saved(0), c.grad(), 0.0) : Tensor(),
                   c.needs(1) ? where(c.saved(0), 0.0, c.grad()) : Tensor()};
    });
  return out;
}
Tensor where(const Tensor& condition, Scalar a, const Tensor& b) {
  return where(condition, ops::wrap_scalar(a), b);
}
Tensor where(const Tensor& condition, const Tensor& a, Scalar b) {
  return where(condition, a, ops::wrap_scalar(b));
}

bool equal(const Tensor& a, const Tensor& b) {
  kernels::common_device("equal", {&a, &b}, {"self", "other"});
  if (a.sizes() != b.sizes()) return false;
  return eq(a, b).all().item<bool>();
}

bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  Tensor x = a.to(kFloat64), y = b.to(kFloat64);
  Tensor close = le(abs(x - y), atol + rtol * abs(y));
  close = logical_or(close, eq(x, y));  // equal infinities
  if (equal_nan) close = logical_or(close, logical_and(ne(x, x), ne(y, y)));
  return close.all().item<bool>();
}

// ---- out= and in place
Tensor& add_out(Tensor& out, const Tensor& a, const Tensor& b, Scalar alpha) {
  return arith_out("add_out", BinaryOp::Add, out, a, b, alpha);
}
Tensor& mul_out(Tensor& out, const Tensor& a, const Tensor& b) {
  return arith_out("mul_out", BinaryOp::Mul, out, a, b);
}
Tensor& add_(Tensor& self, const Tensor& other, Scalar alpha) {
  return arith_("add_", BinaryOp::Add, self, other,
                [alpha](const Tensor& x, const Tensor& y) { return add(x, y, alpha); }, alpha);
}
Tensor& sub_(Tensor& self, const Tensor& other, Scalar alpha) {
  check_sub("sub_", self, other, alpha);
  return arith_("sub_", BinaryOp::Add, self, other,
                [alpha](const Tensor& x, const Tensor& y) { return sub(x, y, alpha); },
                negated(alpha));
}
Tensor& mul_(Tensor& self, const Tensor& other) {
  return arith_("mul_", BinaryOp::Mul, self, other,
                [](const Tensor& x, const Tensor& y) { return mul(x, y); });
}
Tensor& div_(Tensor& self, const Tensor& other) {
  return arith_("div_", BinaryOp::Div, self, other,
                [](const Tensor& x, const Tensor& y) { return div(x, y); });
}

// ---- operators
Tensor operator+(const Tensor& a, const Tensor& b) { return add(a, b); }
Tensor operator+(const Tensor& a, Scalar b) { return add(a, b); }
Tensor operator+(Scalar a, const Tensor& b) { return add(b, a); }
Tensor operator-(const Tensor& a, const Tensor& b) { return sub(a, b); }
Tensor operator-(const Tensor& a, Scalar b) { return sub(a, b); }
Tensor operator-(Scalar a, const Tensor& b) { return sub(ops::wrap_scalar(a), b); }
Tensor operator*(const Tensor& a, const Tensor& b) { return mul(a, b); }
Tensor operator*(const Tensor& a, Scalar b) { return mul(a, b); }
Tensor operator*(Scalar a, const Tensor& b) { return mul(b, a); }
Tensor operator/(const Tensor& a, const Tensor& b) { return div(a, b); }
Tensor operator/(const Tensor& a, Scalar b) { return div(a, b); }
Tensor operator/(Scalar a, const Tensor& b) { return div(ops::wrap_scalar(a), b); }
Tensor operator%(const Tensor& a, const Tensor& b) { return remainder(a, b); }
Tensor operator%(const Tensor& a, Scalar b) { return remainder(a, b); }
Tensor operator==(const Tensor& a, const Tensor& b) { return eq(a, b); }
Tensor operator==(const Tensor& a, Scalar b) { return eq(a, b); }
Tensor operator!=(const Tensor& a, const Tensor& b) { return ne(a, b); }
Tensor operator!=(const Tensor& a, Scalar b) { return ne(a, b); }
Tensor operator<(const Tensor& a, const Tensor& b) { return lt(a, b); }
Tensor operator<(const Tensor& a, Scalar b) { return lt(a, b); }
Tensor operator<=(const Tensor& a, const Tensor& b) { return le(a, b); }
Tensor operator<=(const Tensor& a, Scalar b) { return le(a, b); }
Tensor operator>(const Tensor& a, const Tensor& b) { return gt(a, b); }
Tensor operator>(const Tensor& a, Scalar b) { return gt(a, b); }
Tensor operator>=(const Tensor& a, const Tensor& b) { return ge(a, b); }
Tensor operator>=(const Tensor& a, Scalar b) { return ge(a, b); }
Tensor operator&&(const Tensor& a, const Tensor& b) { return logical_and(a, b); }
Tensor operator||(const Tensor& a, const Tensor& b) { return logical_or(a, b); }
Tensor& operator+=(Tensor& a, const Tensor& b) { return add_(a, b); }
Tensor& operator+=(Tensor& a, Scalar b) { return a.add_(b); }
Tensor& operator-=(Tensor& a, const Tensor& b) { return sub_(a, b); }
Tensor& operator-=(Tensor& a, Scalar b) { return a.sub_(b); }
Tensor& operator*=(Tensor& a, const Tensor& b) { return mul_(a, b); }
Tensor& operator*=(Tensor& a, Scalar b) { return a.mul_(b); }
Tensor& operator/=(Tensor& a, const Tensor& b) { return div_(a, b); }
Tensor& operator/=(Tensor& a, Scalar b) { return a.div_(b); }

}  // namespace ember
