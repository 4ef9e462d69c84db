// The unary ops of ops/unary_table.h, generated from its rows: each row's dtype rule, kernel and
// autograd, and its public function. Then clamp, whose bounds make it an op of its own.
#include "autograd/functions/elementwise.h"
#include "autograd/record.h"
#include "core/check.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "kernels/elementwise_stubs.h"
#include "ops/promotion.h"
#include "ops/unary_table.h"

namespace ember {
namespace {

using kernels::UnaryDtypes;
using kernels::UnaryOp;

// What a row's gradient reads besides the incoming gradient.
enum class Saves { Nothing, Self, Result };

// A row of the table as the front half reads it; the gradient gets the one saved tensor.
struct UnaryRow {
  const char* name;
  UnaryDtypes dtypes;
  const char* grad_fn;
  Saves saves;
  Tensor (*gradient)(const Tensor& grad, const Tensor& saved);
};

// The gradient column sees `grad` and the tensor its `saves` column names, nothing else.
#define EMBER_SAVED_AS_Nothing
#define EMBER_SAVED_AS_Self const Tensor& self = saved;
#define EMBER_SAVED_AS_Result const Tensor& result = saved;
#define EMBER_UNARY_ROW(Op, name, dtypes, math, grad_fn, saves, gradient)                    \
  UnaryRow{#name, UnaryDtypes::dtypes, grad_fn, Saves::saves,                               \
           []([[maybe_unused]] const Tensor& grad,                                          \
              [[maybe_unused]] const Tensor& saved) -> Tensor {                             \
             using namespace autograd::functions;                                           \
             EMBER_SAVED_AS_##saves return gradient;                                        \
           }},
const UnaryRow kRows[] = {EMBER_UNARY_OPS(EMBER_UNARY_ROW)};
#undef EMBER_UNARY_ROW
#undef EMBER_SAVED_AS_Nothing
#undef EMBER_SAVED_AS_Self
#undef EMBER_SAVED_AS_Result

// The dtype the row computes in, from the input's; refuses what the rule refuses.
ScalarType compute_dtype(const UnaryRow& row, ScalarType input) {
  switch (row.dtypes) {
    case UnaryDtypes::Any:
    case UnaryDtypes::ToBool: return input;
    case UnaryDtypes::NoBool:
      EMBER_CHECK_T(TypeError, input != kBool, "[", row.name,
                    "] is not implemented for Bool tensors");
      return input;
    case UnaryDtypes::Negation:
      EMBER_CHECK_T(TypeError, input != kBool, "[", row.name,
                    "] Negation, the `-` operator, on a bool tensor is not supported. If you are "
                    "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
      return input;
    case UnaryDtypes::BoolToLong: return input == kBool ? kInt64 : input;
    case UnaryDtypes::Float: return isIntegralType(input, true) ? kFloat32 : input;
    case UnaryDtypes::FloatOnly:
      EMBER_CHECK_T(TypeError, isFloatingType(input), "[", row.name,
                    "] expected a floating-point tensor, got dtype ", input,
                    "; convert it first with .to(ember::kFloat32)");
      return input;
  }
  EMBER_INTERNAL_ASSERT(false, "[", row.name, "] unknown dtype rule");
}

Tensor unary(UnaryOp op, const Tensor& self) {
  const UnaryRow& row = kRows[static_cast<int>(op)];
  const ScalarType compute = compute_dtype(row, self.scalar_type());
  const ScalarType output = row.dtypes == UnaryDtypes::ToBool ? kBool : compute;
  kernels::TensorIter it =
      kernels::make_iter({row.name, compute, output, true, {"self"}}, Tensor(), {self});
  kernels::unary_stub(it.device_type(), it, op);
  Tensor result = it.output();
  if (row.grad_fn && autograd::needs_grad(self)) {
    const Tensor saved = row.saves == Saves::Self     ? self
                         : row.saves == Saves::Result ? result
                                                      : Tensor();
    autograd::record(row.grad_fn, {result}, {self}, {saved},
                     [gradient = row.gradient](const autograd::Context& c) {
                       return autograd::Grads{gradient(c.grad(), c.saved(0))};
                     });
  }
  return result;
}

}  // namespace

#define EMBER_DEFINE_UNARY(Op, name, ...) \
  Tensor name(const Tensor& self) { return unary(UnaryOp::Op, self); }
EMBER_UNARY_OPS(EMBER_DEFINE_UNARY)
#undef EMBER_DEFINE_UNARY

Tensor operator-(const Tensor& a) { return neg(a); }
Tensor operator!(const Tensor& a) { return logical_not(a); }

Tensor clamp(const Tensor& x, std::optional<Scalar> min, std::optional<Scalar> max) {
  EMBER_CHECK_T(ValueError, min || max,
                "[clamp] At least one of 'min' or 'max' must not be None");
  Tensor lo = min ? ops::wrap_scalar(*min) : Tensor();
  Tensor hi = max ? ops::wrap_scalar(*max) : Tensor();
  ScalarType compute = ops::result_type({&x, &lo, &hi});
  // A bool tensor is clamped once the bounds promote it (to int64 or float32), as in PyTorch.
  EMBER_CHECK_T(TypeError, compute != kBool, "[clamp] is not implemented for Bool tensors");
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
