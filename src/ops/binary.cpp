// The binary ops of ops/binary_table.h (arithmetic, comparisons, logic), generated from its
// rows: each row's dtype rule, kernel, autograd, out= and in-place forms, and its public
// functions. Then where, equal, allclose and the operators.
#include <initializer_list>
#include <limits>
#include <string_view>
#include <utility>
#include <vector>

#include "autograd/functions/elementwise.h"
#include "autograd/record.h"
#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/elementwise_names.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"
#include "kernels/elementwise_stubs.h"
#include "ops/binary_table.h"
#include "ops/inplace.h"
#include "ops/promotion.h"

namespace ember {
namespace {

using kernels::BinaryDtypes;
using kernels::BinaryOp;

// What an input's gradient reads besides the incoming gradient and alpha, as bits.
enum Reads : unsigned { kNothing = 0, kSelf = 1, kOther = 2, kResult = 4 };
// The saved tensors a gradient gets: self, other, result (undefined where nothing reads them).
using Gradient = Tensor (*)(const Tensor& grad, const Tensor* saved, const Scalar& alpha);

// A row of the table as the front half reads it.
struct BinaryRow {
  const char* name;
  const char* inplace_name;
  const char* out_name;
  BinaryDtypes dtypes;
  const char* (*grad_fn)(const Tensor& self, const Tensor& other);  // nullptr: not differentiable
  unsigned reads[2];  // of self's gradient, of other's
  Gradient gradient[2];
};

// A gradient column sees `grad`, `alpha` and the tensors its `saves` column names, nothing else.
#define EMBER_READS_Nothing kNothing
#define EMBER_READS_Self kSelf
#define EMBER_READS_Other kOther
#define EMBER_READS_SelfOther (kSelf | kOther)
#define EMBER_READS_All (kSelf | kOther | kResult)
#define EMBER_SAVED_AS_Nothing
#define EMBER_SAVED_AS_Self const Tensor& self = saved[0];
#define EMBER_SAVED_AS_Other const Tensor& other = saved[1];
#define EMBER_SAVED_AS_SelfOther EMBER_SAVED_AS_Self EMBER_SAVED_AS_Other
#define EMBER_SAVED_AS_All EMBER_SAVED_AS_SelfOther const Tensor& result = saved[2];
#define EMBER_BINARY_GRADIENT(saves, gradient)                                  \
  []([[maybe_unused]] const Tensor& grad, [[maybe_unused]] const Tensor* saved, \
     [[maybe_unused]] const Scalar& alpha) -> Tensor {                          \
    using namespace autograd::functions;                                        \
    EMBER_SAVED_AS_##saves return gradient;                                     \
  }
#define EMBER_BINARY_ROW(Op, name, dtypes, overloads, math, grad_fn, self_saves, self_gradient, \
                         other_saves, other_gradient)                                           \
  BinaryRow{#name,                                                                              \
            #name "_",                                                                          \
            #name "_out",                                                                       \
            BinaryDtypes::dtypes,                                                               \
            []([[maybe_unused]] const Tensor& self,                                             \
               [[maybe_unused]] const Tensor& other) -> const char* {                           \
              using namespace autograd::functions;                                              \
              return grad_fn;                                                                   \
            },                                                                                  \
            {EMBER_READS_##self_saves, EMBER_READS_##other_saves},                              \
            {EMBER_BINARY_GRADIENT(self_saves, self_gradient),                                  \
             EMBER_BINARY_GRADIENT(other_saves, other_gradient)}},
const BinaryRow kRows[] = {EMBER_BINARY_OPS(EMBER_BINARY_ROW)};
#undef EMBER_BINARY_ROW
#undef EMBER_BINARY_GRADIENT
#undef EMBER_READS_Nothing
#undef EMBER_READS_Self
#undef EMBER_READS_Other
#undef EMBER_READS_SelfOther
#undef EMBER_READS_All
#undef EMBER_SAVED_AS_Nothing
#undef EMBER_SAVED_AS_Self
#undef EMBER_SAVED_AS_Other
#undef EMBER_SAVED_AS_SelfOther
#undef EMBER_SAVED_AS_All

const BinaryRow& row_of(BinaryOp op) { return kRows[static_cast<int>(op)]; }

// PyTorch's alpha_check: a bool alpha only for bool results, a floating one only for floating.
void check_alpha(const char* op, ScalarType common, const Scalar& alpha) {
  EMBER_CHECK_T(TypeError, !alpha.isBoolean() || common == kBool, "[", op,
                "] Boolean alpha only supported for Boolean results.");
  EMBER_CHECK_T(TypeError, isFloatingType(common) || !alpha.isFloatingPoint(), "[", op,
                "] For integral input tensors, argument alpha must not be a floating point "
                "number.");
}

// PyTorch's sub_check.
void check_sub(const char* op, const Tensor& a, const Tensor& b) {
  EMBER_CHECK_T(TypeError, !(a.scalar_type() == kBool && b.scalar_type() == kBool), "[", op,
                "] Subtraction, the `-` operator, with two bool tensors is not supported. Use "
                "the `^` or `logical_xor()` operator instead.");
  EMBER_CHECK_T(TypeError, a.scalar_type() != kBool && b.scalar_type() != kBool, "[", op,
                "] Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
                "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
}

// Integer division by zero has no defined result: refuse it like Python (CPU tensors; on the GPU
// PyTorch does not check either). Only divisors that meet a dividend count: with an empty
// result there are none (broadcasting never drops an element of a non-empty result).
// The divisor is checked as the kernel sees it, in the common dtype: uint8 256 is a 0 there.
void check_no_zero_divisor(const char* op, const Tensor& a, const Tensor& b, ScalarType common) {
  if (!isIntegralType(common, true) || !b.is_cpu() || a.numel() == 0 || b.numel() == 0) return;
  const Tensor divisor = b.scalar_type() == common ? b : b.to(common);
  EMBER_CHECK_T(ValueError, !eq(divisor, 0).any().item<bool>(), "[", op,
                "] ZeroDivisionError: integer division by zero");
}

// The dtype the row computes in (the common dtype of both operands, Note [Result type], but for
// true division); refuses what the rule refuses, naming the op as the user called it.
ScalarType compute_dtype(const BinaryRow& row, const char* op, const Tensor& a, const Tensor& b,
                         const Scalar& alpha) {
  const ScalarType common = ops::result_type(a, b);
  switch (row.dtypes) {
    case BinaryDtypes::Promote:
    case BinaryDtypes::Compare: return common;
    case BinaryDtypes::Subtraction: check_sub(op, a, b); [[fallthrough]];
    case BinaryDtypes::Addition: check_alpha(op, common, alpha); return common;
    case BinaryDtypes::NoBool:
    case BinaryDtypes::IntegerDivision:
      EMBER_CHECK_T(TypeError, common != kBool, "[", op, "] not implemented for 'Bool'");
      if (row.dtypes == BinaryDtypes::IntegerDivision) check_no_zero_divisor(op, a, b, common);
      return common;
    case BinaryDtypes::TrueDivision:
    case BinaryDtypes::Float:
      return isIntegralType(common, true) ? get_default_dtype_as_scalartype() : common;
    case BinaryDtypes::Bitwise:
    case BinaryDtypes::Shift:
      EMBER_CHECK_T(
          TypeError,
          !isFloatingType(common) && (row.dtypes == BinaryDtypes::Bitwise || common != kBool), "[",
          op, "] not implemented for '", common, "': ",
          row.dtypes == BinaryDtypes::Bitwise ? "bitwise operations take integer and "
                                                "bool tensors"
                                              : "shifts take integer tensors");
      return common;
  }
  EMBER_INTERNAL_ASSERT(false, "[", op, "] unknown dtype rule");
}

ScalarType output_dtype(const BinaryRow& row, ScalarType compute) {
  return row.dtypes == BinaryDtypes::Compare ? kBool : compute;
}

Tensor binary(BinaryOp op, const Tensor& a, const Tensor& b, const Scalar& alpha = 1) {
  const BinaryRow& row = row_of(op);
  const ScalarType compute = compute_dtype(row, row.name, a, b, alpha);
  kernels::TensorIter it = kernels::make_iter(
      {row.name, compute, output_dtype(row, compute), true, {"self", "other"}}, Tensor(), {a, b});
  kernels::binary_stub(it.device_type(), it, op, alpha);
  Tensor result = it.output();
  if (!autograd::needs_grad(a, b)) return result;
  const char* grad_fn = row.grad_fn(a, b);
  if (!grad_fn) return result;
  // Each operand is kept only while a gradient that is needed reads it, as PyTorch does:
  // x.add_(x * 3) then stays differentiable (the saved 3 was not modified; x, unsaved, may be).
  const unsigned reads =
      (autograd::needs_grad(a) ? row.reads[0] : 0u) | (autograd::needs_grad(b) ? row.reads[1] : 0u);
  std::vector<Tensor> saved;  // only what is read, in the order self, other, result
  for (const auto& [bit, t] : {std::pair{kSelf, &a}, {kOther, &b}, {kResult, &result}})
    if (reads & bit) saved.push_back(*t);
  autograd::record(
      grad_fn, {result}, {a, b}, saved, [&row, alpha, reads](const autograd::Context& c) {
        Tensor operands[3];
        size_t next = 0;
        for (unsigned bit = 0; bit < 3; ++bit)
          if (reads & (1u << bit)) operands[bit] = c.saved(next++);
        return autograd::Grads{c.needs(0) ? row.gradient[0](c.grad(), operands, alpha) : Tensor(),
                               c.needs(1) ? row.gradient[1](c.grad(), operands, alpha) : Tensor()};
      });
  return result;
}

const Tensor& binary_out(BinaryOp op, const char* name, const Tensor& out, const Tensor& a,
                         const Tensor& b, const Scalar& alpha = 1) {
  const BinaryRow& row = row_of(op);
  const ScalarType compute = compute_dtype(row, name, a, b, alpha);
  const ScalarType output = output_dtype(row, compute);
  ops::check_out_arguments(name, out, {a, b}, output);
  if (output != out.scalar_type()) return out.copy_(binary(op, a, b, alpha));
  kernels::TensorIter it = kernels::make_iter(
      {name, compute, output, true, {"self", "other"}, /*check_mem_overlap=*/false}, out, {a, b});
  kernels::binary_stub(it.device_type(), it, op, alpha);
  return out;
}

const Tensor& binary_(BinaryOp op, const Tensor& self, const Tensor& other,
                      const Scalar& alpha = 1) {
  const char* name = row_of(op).inplace_name;
  // Checked before a path is chosen: under autograd the op computes on a clone first.
  kernels::check_mem_overlap(name, self, {self, other});
  if (autograd::check_inplace(self, name, other.requires_grad()))
    return ops::inplace_through_clone(
        name, self, [&](const Tensor& old) { return binary(op, old, other, alpha); });
  return binary_out(op, name, self, self, other, alpha);
}

// Each row's name is in the list of ember/elementwise_names.h that its overloads column names,
// in the same order: the public forms declared from those lists are defined from the rows.
struct NamedRow {
  std::string_view name, overloads;
};
#define EMBER_ROW_NAME(Op, name, dtypes, overloads, ...) NamedRow{#name, #overloads},
constexpr NamedRow kRowNames[] = {EMBER_BINARY_OPS(EMBER_ROW_NAME)};
#undef EMBER_ROW_NAME
constexpr bool rows_are(std::string_view overloads, std::initializer_list<std::string_view> names) {
  const std::string_view* next = names.begin();
  for (const NamedRow& row : kRowNames) {
    if (row.overloads != overloads) continue;
    if (next == names.end() || *next != row.name) return false;
    ++next;
  }
  return next == names.end();
}
#define EMBER_PUBLIC_NAME(name) #name,
static_assert(rows_are("WithAlpha", {EMBER_PUBLIC_BINARY_ALPHA_OPS(EMBER_PUBLIC_NAME)}) &&
                  rows_are("WithScalar", {EMBER_PUBLIC_BINARY_SCALAR_OPS(EMBER_PUBLIC_NAME)}) &&
                  rows_are("TensorOnly", {EMBER_PUBLIC_BINARY_TENSOR_OPS(EMBER_PUBLIC_NAME)}),
              "ops/binary_table.h and the EMBER_PUBLIC_BINARY_*_OPS lists must agree");
#undef EMBER_PUBLIC_NAME

}  // namespace

// ---- the rows' public forms (ember/elementwise_names.h declares them)
// A number operand is a wrapped 0-dim tensor (Note [Result type]).
#define EMBER_BINARY_FORMS(Op, name, Other, wrap, ALPHA_PARAM, alpha)                          \
  Tensor name(const Tensor& self, const Other& other ALPHA_PARAM) {                            \
    return binary(BinaryOp::Op, self, wrap(other), alpha);                                     \
  }                                                                                            \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Other& other ALPHA_PARAM) {        \
    return ops::handle(binary_out(BinaryOp::Op, #name "_out", out, self, wrap(other), alpha)); \
  }                                                                                            \
  Tensor Tensor::name(const Other& other ALPHA_PARAM) const {                                  \
    return binary(BinaryOp::Op, *this, wrap(other), alpha);                                    \
  }                                                                                            \
  Tensor& Tensor::name##_(const Other& other ALPHA_PARAM) const {                              \
    return ops::handle(binary_(BinaryOp::Op, *this, wrap(other), alpha));                      \
  }
#define EMBER_NO_PARAM
#define EMBER_ALPHA_PARAM , const Scalar& alpha
#define EMBER_BINARY_DEFINE_TensorOnly(Op, name) \
  EMBER_BINARY_FORMS(Op, name, Tensor, , EMBER_NO_PARAM, 1)
#define EMBER_BINARY_DEFINE_WithScalar(Op, name)            \
  EMBER_BINARY_FORMS(Op, name, Tensor, , EMBER_NO_PARAM, 1) \
  EMBER_BINARY_FORMS(Op, name, Scalar, ops::wrap_scalar, EMBER_NO_PARAM, 1)
#define EMBER_BINARY_DEFINE_WithAlpha(Op, name)                    \
  EMBER_BINARY_FORMS(Op, name, Tensor, , EMBER_ALPHA_PARAM, alpha) \
  EMBER_BINARY_FORMS(Op, name, Scalar, ops::wrap_scalar, EMBER_ALPHA_PARAM, alpha)
#define EMBER_DEFINE_BINARY(Op, name, dtypes, overloads, ...) \
  EMBER_BINARY_DEFINE_##overloads(Op, name)
EMBER_BINARY_OPS(EMBER_DEFINE_BINARY)
#undef EMBER_DEFINE_BINARY
#undef EMBER_BINARY_DEFINE_WithAlpha
#undef EMBER_BINARY_DEFINE_WithScalar
#undef EMBER_BINARY_DEFINE_TensorOnly
#undef EMBER_ALPHA_PARAM
#undef EMBER_NO_PARAM
#undef EMBER_BINARY_FORMS

// pow with a number exponent or base: an integer power must not be negative.
Tensor pow(const Tensor& self, const Scalar& exponent) {
  Tensor e = ops::wrap_scalar(exponent);
  // An integer result (a bool base promotes to int64 too) cannot hold 1 / a^|b|.
  EMBER_CHECK_T(ValueError,
                !(isIntegralType(ops::result_type(self, e), true) && exponent.isIntegral(false) &&
                  exponent.toLong() < 0),
                "[pow] Integers to negative integer powers are not allowed.");
  return pow(self, e);
}
Tensor pow(const Scalar& self, const Tensor& exponent) {
  return pow(ops::wrap_scalar(self), exponent);
}
Tensor& pow_out(Tensor& out, const Tensor& self, const Scalar& exponent) {
  return pow_out(out, self, ops::wrap_scalar(exponent));
}
Tensor& pow_out(Tensor& out, const Scalar& self, const Tensor& exponent) {
  return pow_out(out, ops::wrap_scalar(self), exponent);
}
Tensor Tensor::pow(const Scalar& exponent) const { return ember::pow(*this, exponent); }
Tensor& Tensor::pow_(const Scalar& exponent) const { return pow_(ops::wrap_scalar(exponent)); }

// ---- where and whole-tensor comparisons
Tensor where(const Tensor& condition, const Tensor& a, const Tensor& b) {
  EMBER_CHECK_T(TypeError, condition.scalar_type() == kBool,
                "[where] expected condition to be a boolean tensor, but got a tensor with dtype ",
                condition.scalar_type());
  ScalarType common = ops::result_type(a, b);
  bool grad = autograd::needs_grad(a, b);
  Tensor out;
  {
    autograd::NoGradGuard no_grad;  // the dtype conversions are part of this op's formula
    kernels::TensorIter it = kernels::make_iter(
        {"where", common, common, false, {"condition", "self", "other"}}, Tensor(),
        {condition, a.scalar_type() == common ? a : a.to(common),
         b.scalar_type() == common ? b : b.to(common)});
    kernels::where_stub(it.device_type(), it);
    out = it.output();
  }
  if (grad) autograd::record({out}, {a, b}, {condition}, autograd::functions::WhereBackward0{});
  return out;
}
Tensor where(const Tensor& condition, const Scalar& a, const Tensor& b) {
  return where(condition, ops::wrap_scalar(a), b);
}
Tensor where(const Tensor& condition, const Tensor& a, const Scalar& b) {
  return where(condition, a, ops::wrap_scalar(b));
}
Tensor where(const Tensor& condition, const Scalar& a, const Scalar& b) {
  return where(condition, ops::wrap_scalar(a), ops::wrap_scalar(b));
}
// PyTorch's nonzero_numpy: a 0-dim condition counts as one element.
std::vector<Tensor> where(const Tensor& condition) {
  return nonzero(condition.dim() == 0 ? condition.unsqueeze(0) : condition).unbind(1);
}

bool equal(const Tensor& a, const Tensor& b) {
  kernels::common_device("equal", {&a, &b}, {"self", "other"});
  if (a.sizes() != b.sizes()) return false;
  return eq(a, b).all().item<bool>();
}

// As PyTorch's isclose: equal elements (infinities too), NaNs with equal_nan, and finite errors
// within atol + rtol |b|, computed in the operands' dtype (bool as the default float).
Tensor isclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  EMBER_CHECK_T(TypeError, a.scalar_type() == b.scalar_type(), "[isclose] ", a.scalar_type(),
                " did not match ", b.scalar_type());
  EMBER_CHECK(rtol >= 0, "[isclose] rtol must be greater than or equal to zero, but got ", rtol);
  EMBER_CHECK(atol >= 0, "[isclose] atol must be greater than or equal to zero, but got ", atol);
  Tensor close = eq(a, b);
  if (equal_nan && a.is_floating_point())
    close = logical_or(close, logical_and(ne(a, a), ne(b, b)));
  if (rtol == 0 && atol == 0) return close;
  const bool boolean = a.scalar_type() == kBool;
  const Tensor x = boolean ? a.to(get_default_dtype_as_scalartype()) : a;
  const Tensor y = boolean ? b.to(get_default_dtype_as_scalartype()) : b;
  const Tensor allowed = abs(y * rtol) + atol;
  const Tensor actual = abs(x - y);  // NaN or infinite: never close by the tolerance
  return logical_or(
      close, logical_and(lt(actual, std::numeric_limits<double>::infinity()), le(actual, allowed)));
}

bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  return isclose(a, b, rtol, atol, equal_nan).all().item<bool>();
}

// ---- the Tensor methods of this section
Tensor Tensor::where(const Tensor& condition, const Tensor& other) const {
  return ember::where(condition, *this, other);
}
bool Tensor::equal(const Tensor& other) const { return ember::equal(*this, other); }
bool Tensor::allclose(const Tensor& other, double rtol, double atol, bool equal_nan) const {
  return ember::allclose(*this, other, rtol, atol, equal_nan);
}
Tensor Tensor::isclose(const Tensor& other, double rtol, double atol, bool equal_nan) const {
  return ember::isclose(*this, other, rtol, atol, equal_nan);
}

// ---- operators, as LibTorch defines them (ATen/TensorOperators.h)
#define EMBER_DEFINE_OPERATOR(op, method, reversed)                            \
  Tensor operator op(const Tensor& x, const Tensor& y) { return x.method(y); } \
  Tensor operator op(const Tensor& x, const Scalar& y) { return x.method(y); } \
  Tensor operator op(const Scalar& x, const Tensor& y) { return reversed; }
// A number on the left of an operator that does not commute is filled into a tensor of the
// right operand's dtype, shape and layout first, as LibTorch does: 2.5 - int_tensor is an int
// tensor, and 2 / int_tensor is refused (its float result cannot be written back).
#define EMBER_FILLED(x, y) empty_like(y).fill_(x)
EMBER_DEFINE_OPERATOR(+, add, y.add(x))
EMBER_DEFINE_OPERATOR(-, sub, EMBER_FILLED(x, y).sub_(y))
EMBER_DEFINE_OPERATOR(*, mul, y.mul(x))
EMBER_DEFINE_OPERATOR(/, div, EMBER_FILLED(x, y).div_(y))
EMBER_DEFINE_OPERATOR(%, remainder, EMBER_FILLED(x, y).remainder_(y))
EMBER_DEFINE_OPERATOR(&, bitwise_and, y.bitwise_and(x))
EMBER_DEFINE_OPERATOR(|, bitwise_or, y.bitwise_or(x))
EMBER_DEFINE_OPERATOR(^, bitwise_xor, y.bitwise_xor(x))
EMBER_DEFINE_OPERATOR(<<, bitwise_left_shift, EMBER_FILLED(x, y).bitwise_left_shift_(y))
EMBER_DEFINE_OPERATOR(>>, bitwise_right_shift, EMBER_FILLED(x, y).bitwise_right_shift_(y))
EMBER_DEFINE_OPERATOR(<, lt, y.gt(x))
EMBER_DEFINE_OPERATOR(<=, le, y.ge(x))
EMBER_DEFINE_OPERATOR(>, gt, y.lt(x))
EMBER_DEFINE_OPERATOR(>=, ge, y.le(x))
EMBER_DEFINE_OPERATOR(==, eq, y.eq(x))
EMBER_DEFINE_OPERATOR(!=, ne, y.ne(x))
#undef EMBER_FILLED
#undef EMBER_DEFINE_OPERATOR

Tensor Tensor::operator-() const { return neg(); }
Tensor Tensor::operator~() const { return bitwise_not(); }
#define EMBER_DEFINE_COMPOUND(op, method)                                    \
  Tensor& Tensor::operator op(const Tensor& other) { return method(other); } \
  Tensor& Tensor::operator op(const Scalar& other) { return method(other); }
EMBER_DEFINE_COMPOUND(+=, add_)
EMBER_DEFINE_COMPOUND(-=, sub_)
EMBER_DEFINE_COMPOUND(*=, mul_)
EMBER_DEFINE_COMPOUND(/=, div_)
EMBER_DEFINE_COMPOUND(&=, bitwise_and_)
EMBER_DEFINE_COMPOUND(|=, bitwise_or_)
EMBER_DEFINE_COMPOUND(^=, bitwise_xor_)
EMBER_DEFINE_COMPOUND(<<=, bitwise_left_shift_)
EMBER_DEFINE_COMPOUND(>>=, bitwise_right_shift_)
#undef EMBER_DEFINE_COMPOUND

}  // namespace ember
