// The unary ops of ops/unary_table.h, generated from its rows: each row's dtype rule, kernel and
// autograd, and its public forms (ember/elementwise_names.h). Then clamp, whose bounds make it
// an op of its own.
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string_view>

#include "autograd/functions/elementwise.h"
#include "autograd/record.h"
#include "core/check.h"
#include "ember/elementwise_names.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "kernels/elementwise_stubs.h"
#include "ops/inplace.h"
#include "ops/promotion.h"
#include "ops/unary_table.h"

namespace ember {
namespace {

using kernels::UnaryDtypes;
using kernels::UnaryOp;
using kernels::UnaryParams;

// What a row's gradient reads besides the incoming gradient.
enum class Saves { Nothing, Self, Result };

// A row of the table as the front half reads it; the gradient gets the one saved tensor and the
// row's parameters.
struct UnaryRow {
  const char* name;
  const char* inplace_name;
  UnaryDtypes dtypes;
  const char* grad_fn;
  Saves saves;
  Tensor (*gradient)(const Tensor& grad, const Tensor& saved, const UnaryParams& params);
};

// The gradient column sees `grad`, the tensor its `saves` column names and the parameters,
// nothing else.
#define EMBER_SAVED_AS_Nothing
#define EMBER_SAVED_AS_Self const Tensor& self = saved;
#define EMBER_SAVED_AS_Result const Tensor& result = saved;
#define EMBER_UNARY_ROW(Op, name, dtypes, math, grad_fn, saves, gradient)                \
  UnaryRow{#name,                                                                        \
           #name "_",                                                                    \
           UnaryDtypes::dtypes,                                                          \
           grad_fn,                                                                      \
           Saves::saves,                                                                 \
           []([[maybe_unused]] const Tensor& grad, [[maybe_unused]] const Tensor& saved, \
              [[maybe_unused]] const UnaryParams& params) -> Tensor {                    \
             using namespace autograd::functions;                                        \
             [[maybe_unused]] const double a = params.a, b = params.b, c = params.c;     \
             EMBER_SAVED_AS_##saves return gradient;                                     \
           }},
const UnaryRow kRows[] = {EMBER_EVERY_UNARY_OP(EMBER_UNARY_ROW)};
#undef EMBER_UNARY_ROW
#undef EMBER_SAVED_AS_Nothing
#undef EMBER_SAVED_AS_Self
#undef EMBER_SAVED_AS_Result

// Each row's name is one of ember/elementwise_names.h's, in the same order: the public forms
// declared from those lists are defined from the rows.
#define EMBER_ROW_NAME(Op, name, ...) #name,
#define EMBER_PUBLIC_NAME(name, ...) #name,
constexpr std::string_view kRowNames[] = {EMBER_UNARY_OPS(EMBER_ROW_NAME)};
constexpr std::string_view kPublicNames[] = {EMBER_PUBLIC_UNARY_OPS(EMBER_PUBLIC_NAME)};
static_assert(std::ranges::equal(kRowNames, kPublicNames),
              "ops/unary_table.h and EMBER_PUBLIC_UNARY_OPS must list the same ops in one order");
constexpr std::string_view kParametricRowNames[] = {EMBER_PARAMETRIC_UNARY_OPS(EMBER_ROW_NAME)};
constexpr std::string_view kParametricPublicNames[] = {
    EMBER_PUBLIC_PARAMETRIC_UNARY_OPS(EMBER_PUBLIC_NAME)};
static_assert(std::ranges::equal(kParametricRowNames, kParametricPublicNames),
              "EMBER_PARAMETRIC_UNARY_OPS and EMBER_PUBLIC_PARAMETRIC_UNARY_OPS must list the "
              "same ops in one order");
#undef EMBER_ROW_NAME
#undef EMBER_PUBLIC_NAME

const UnaryRow& row_of(UnaryOp op) { return kRows[static_cast<int>(op)]; }

// The dtype the row computes in, from the input's; refuses what the rule refuses, naming the
// op as it was called.
ScalarType compute_dtype(const UnaryRow& row, const char* op, ScalarType input) {
  switch (row.dtypes) {
    case UnaryDtypes::Any:
    case UnaryDtypes::ToBool: return input;
    case UnaryDtypes::NoBool:
      EMBER_CHECK_T(TypeError, input != kBool, "[", op, "] not implemented for 'Bool'");
      return input;
    case UnaryDtypes::Negation:
      EMBER_CHECK_T(TypeError, input != kBool, "[", op,
                    "] Negation, the `-` operator, on a bool tensor is not supported. If you are "
                    "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
      return input;
    case UnaryDtypes::BoolToLong: return input == kBool ? kInt64 : input;
    case UnaryDtypes::Float:
      return isIntegralType(input, true) ? get_default_dtype_as_scalartype() : input;
    case UnaryDtypes::FloatOnly:
      EMBER_CHECK_T(TypeError, isFloatingType(input), "[", op,
                    "] expected a floating-point tensor, got dtype ", input,
                    "; convert it first with .to(ember::kFloat32)");
      return input;
    case UnaryDtypes::Bitwise:
      EMBER_CHECK_T(TypeError, !isFloatingType(input), "[", op, "] not implemented for '", input,
                    "': bitwise operations take integer and bool tensors");
      return input;
  }
  EMBER_INTERNAL_ASSERT(false, "[", op, "] unknown dtype rule");
}

ScalarType output_dtype(const UnaryRow& row, ScalarType compute) {
  return row.dtypes == UnaryDtypes::ToBool ? kBool : compute;
}

// `grad_fn` names the node where it is not the row's: an op that PyTorch computes with another's
// kernel but records under its own name (celu is elu's kernel under CeluBackward0).
Tensor unary(UnaryOp op, const Tensor& self, const UnaryParams& params = {},
             const char* grad_fn = nullptr) {
  const UnaryRow& row = row_of(op);
  const ScalarType compute = compute_dtype(row, row.name, self.scalar_type());
  kernels::TensorIter it = kernels::make_iter(
      {row.name, compute, output_dtype(row, compute), true, {"self"}}, Tensor(), {self});
  kernels::unary_stub(it.device_type(), it, op, params);
  Tensor result = it.output();
  if (row.grad_fn && autograd::needs_grad(self)) {
    const Tensor saved = row.saves == Saves::Self     ? self
                         : row.saves == Saves::Result ? result
                                                      : Tensor();
    autograd::record(grad_fn ? grad_fn : row.grad_fn, {result}, {self}, {saved},
                     [gradient = row.gradient, params](const autograd::Context& c) {
                       return autograd::Grads{gradient(c.grad(), c.saved(0), params)};
                     });
  }
  return result;
}

const Tensor& unary_out(UnaryOp op, const char* name, const Tensor& out, const Tensor& self,
                        const UnaryParams& params = {}) {
  const UnaryRow& row = row_of(op);
  const ScalarType compute = compute_dtype(row, name, self.scalar_type());
  const ScalarType output = output_dtype(row, compute);
  ops::check_out_arguments(name, out, {self}, output);
  if (output != out.scalar_type()) return out.copy_(unary(op, self, params));
  kernels::TensorIter it = kernels::make_iter(
      {name, compute, output, true, {"self"}, /*check_mem_overlap=*/false}, out, {self});
  kernels::unary_stub(it.device_type(), it, op, params);
  return out;
}

const Tensor& unary_(UnaryOp op, const Tensor& self, const UnaryParams& params = {},
                     const char* grad_fn = nullptr) {
  const char* name = row_of(op).inplace_name;
  // Checked before a path is chosen: under autograd the op computes on a clone first.
  kernels::check_mem_overlap(name, self, {self});
  if (autograd::check_inplace(self, name, /*other_requires_grad=*/false))
    return ops::inplace_through_clone(
        name, self, [&](const Tensor& old) { return unary(op, old, params, grad_fn); });
  return unary_out(op, name, self, self, params);
}

// PyTorch's constants of selu, and celu as elu: alpha, scale 1 and input scale 1 / alpha.
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;
constexpr UnaryParams kSeluParams{kSeluAlpha, kSeluScale, 1.0};
UnaryParams celu_params(const Scalar& alpha) {
  const double a = alpha.toDouble();
  EMBER_CHECK(a != 0, "ZeroDivisionError: alpha cannot be 0 for CELU");
  return {a, 1.0, 1.0 / a};
}

// A parametric row's Scalars as its a, b, c, refused where PyTorch refuses them for `self`.
UnaryParams checked_params(UnaryOp op, const Tensor& self, std::initializer_list<Scalar> scalars) {
  double values[3] = {};
  std::transform(scalars.begin(), scalars.end(), values,
                 [](const Scalar& s) { return s.toDouble(); });
  if (op == UnaryOp::Softshrink)
    EMBER_CHECK(values[0] >= 0, "lambda must be greater or equal to 0, but found to be ",
                scalars.begin()[0], ".");
  if (op == UnaryOp::Hardtanh && isIntegralType(self.scalar_type(), false)) {
    // PyTorch first truncates an integer tensor's limits to integers: -0.5 is 0.
    for (double& v : values) v = std::trunc(v);
    EMBER_CHECK(self.scalar_type() != kByte || (values[0] >= 0 && values[1] >= 0),
                "cannot do hardtanh on an unsigned type with negative limits");
  }
  if (op == UnaryOp::Threshold && isIntegralType(self.scalar_type(), false))
    for (const Scalar& s : scalars) ops::check_fits("threshold", s, self.scalar_type());
  return {values[0], values[1], values[2]};
}

}  // namespace

// ---- the rows' public forms (ember/elementwise_names.h declares them)
#define EMBER_DEFINE_UNARY(Op, name, ...)                                          \
  Tensor name(const Tensor& self) { return unary(UnaryOp::Op, self); }             \
  Tensor& name##_(Tensor& self) { return ops::handle(unary_(UnaryOp::Op, self)); } \
  Tensor& name##_out(Tensor& out, const Tensor& self) {                            \
    return ops::handle(unary_out(UnaryOp::Op, #name "_out", out, self));           \
  }                                                                                \
  Tensor Tensor::name() const { return unary(UnaryOp::Op, *this); }                \
  Tensor& Tensor::name##_() const { return ops::handle(unary_(UnaryOp::Op, *this)); }
EMBER_UNARY_OPS(EMBER_DEFINE_UNARY)
#undef EMBER_DEFINE_UNARY

// ---- the parametric rows' public forms (EMBER_PUBLIC_PARAMETRIC_UNARY_OPS declares them, with
// LibTorch's parameter names and defaults): X(Op, name, arity), the Scalars passed on as a, b, c
#define EMBER_PARAMETERS_1 const Scalar& a
#define EMBER_PARAMETERS_2 const Scalar &a, const Scalar &b
#define EMBER_PARAMETERS_3 const Scalar &a, const Scalar &b, const Scalar &c
#define EMBER_ARGUMENTS_1 a
#define EMBER_ARGUMENTS_2 a, b
#define EMBER_ARGUMENTS_3 a, b, c
#define EMBER_DEFINE_PARAMETRIC_UNARY(Op, name, arity)                                             \
  Tensor name(const Tensor& self, EMBER_PARAMETERS_##arity) {                                      \
    return unary(UnaryOp::Op, self, checked_params(UnaryOp::Op, self, {EMBER_ARGUMENTS_##arity})); \
  }                                                                                                \
  Tensor& name##_(Tensor& self, EMBER_PARAMETERS_##arity) {                                        \
    return ops::handle(                                                                            \
        unary_(UnaryOp::Op, self, checked_params(UnaryOp::Op, self, {EMBER_ARGUMENTS_##arity})));  \
  }                                                                                                \
  Tensor& name##_out(Tensor& out, const Tensor& self, EMBER_PARAMETERS_##arity) {                  \
    return ops::handle(unary_out(UnaryOp::Op, #name "_out", out, self,                             \
                                 checked_params(UnaryOp::Op, self, {EMBER_ARGUMENTS_##arity})));   \
  }                                                                                                \
  Tensor Tensor::name(EMBER_PARAMETERS_##arity) const {                                            \
    return ember::name(*this, EMBER_ARGUMENTS_##arity);                                            \
  }                                                                                                \
  Tensor& Tensor::name##_(EMBER_PARAMETERS_##arity) const {                                        \
    return ember::name##_(ops::handle(*this), EMBER_ARGUMENTS_##arity);                            \
  }
EMBER_DEFINE_PARAMETRIC_UNARY(LeakyRelu, leaky_relu, 1)
EMBER_DEFINE_PARAMETRIC_UNARY(Elu, elu, 3)
EMBER_DEFINE_PARAMETRIC_UNARY(Hardtanh, hardtanh, 2)
EMBER_DEFINE_PARAMETRIC_UNARY(Softplus, softplus, 2)
EMBER_DEFINE_PARAMETRIC_UNARY(Threshold, threshold, 2)
EMBER_DEFINE_PARAMETRIC_UNARY(Softshrink, softshrink, 1)
EMBER_DEFINE_PARAMETRIC_UNARY(Hardshrink, hardshrink, 1)
#undef EMBER_DEFINE_PARAMETRIC_UNARY
#undef EMBER_PARAMETERS_1
#undef EMBER_PARAMETERS_2
#undef EMBER_PARAMETERS_3
#undef EMBER_ARGUMENTS_1
#undef EMBER_ARGUMENTS_2
#undef EMBER_ARGUMENTS_3

// ---- LibTorch's compositions of those rows: selu and celu are elu's kernel with fixed
// constants (celu recording its own node), relu6 is hardtanh(0, 6)
Tensor selu(const Tensor& self) { return unary(UnaryOp::Elu, self, kSeluParams); }
Tensor& selu_(Tensor& self) { return ops::handle(unary_(UnaryOp::Elu, self, kSeluParams)); }
Tensor celu(const Tensor& self, const Scalar& alpha) {
  return unary(UnaryOp::Elu, self, celu_params(alpha), "CeluBackward0");
}
Tensor& celu_(Tensor& self, const Scalar& alpha) {
  return ops::handle(unary_(UnaryOp::Elu, self, celu_params(alpha), "CeluBackward0"));
}
Tensor relu6(const Tensor& self) { return hardtanh(self, 0, 6); }
Tensor& relu6_(Tensor& self) { return hardtanh_(self, 0, 6); }

Tensor clamp(const Tensor& x, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  EMBER_CHECK_T(ValueError, min || max, "[clamp] At least one of 'min' or 'max' must not be None");
  Tensor lo = min ? ops::wrap_scalar(*min) : Tensor();
  Tensor hi = max ? ops::wrap_scalar(*max) : Tensor();
  ScalarType compute = ops::result_type({&x, &lo, &hi});
  // A bool tensor is clamped once the bounds promote it (to int64 or float32), as in PyTorch.
  EMBER_CHECK_T(TypeError, compute != kBool, "[clamp] not implemented for 'Bool'");
  if (min) ops::check_fits("clamp", *min, compute);
  if (max) ops::check_fits("clamp", *max, compute);
  kernels::TensorIter it =
      kernels::make_iter({"clamp", compute, compute, true, {"self"}}, Tensor(), {x});
  kernels::clamp_stub(it.device_type(), it, min, max);
  Tensor out = it.output();
  if (autograd::needs_grad(x))
    autograd::record({out}, {x}, {x}, autograd::functions::ClampBackward1{min, max});
  return out;
}

}  // namespace ember
