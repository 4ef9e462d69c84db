// The random fills in place: uniform_, normal_, bernoulli_, random_, and bernoulli.
#include <limits>

#include "autograd/record.h"
#include "core/check.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "ops/inplace.h"
#include "ops/random_draw.h"

namespace ember {
namespace {

// Fills `self` with a draw. The kernels write contiguous memory: another layout draws into a
// contiguous tensor first and copies, so that a tensor's values do not depend on its strides.
Tensor& fill_with_draw(const Tensor& self, const char* op, kernels::RandomKind kind, double a,
                       double b) {
  EMBER_CHECK_T(ValueError, self.defined(), "[", op, "] ", detail::kUndefinedTensorHint);
  kernels::check_no_internal_overlap(op, self);
  if (autograd::check_inplace(self, op, false)) ops::discard_history(self);
  autograd::NoGradGuard no_grad;
  if (self.is_contiguous()) {
    ops::draw(self, kind, a, b);
  } else {
    const Tensor drawn = empty_like(self, {}, MemoryFormat::Contiguous);
    ops::draw(drawn, kind, a, b);
    self.copy_(drawn);
  }
  return ops::handle(self);
}

void check_floating(const Tensor& self, const char* op) {
  EMBER_CHECK_T(TypeError, self.is_floating_point(), "[", op, "] \"", op,
                "\" not implemented for '", self.scalar_type(), "'");
}

// The largest integer random_() draws for a dtype, as PyTorch: the dtype's largest value, or
// for floating dtypes 2^digits, the last of the integers all of which it holds.
int64_t random_max(ScalarType dtype) {
  switch (dtype) {
    case kBool: return 1;
    case kByte: return std::numeric_limits<uint8_t>::max();
    case kChar: return std::numeric_limits<int8_t>::max();
    case kShort: return std::numeric_limits<int16_t>::max();
    case kInt: return std::numeric_limits<int32_t>::max();
    case kLong: return std::numeric_limits<int64_t>::max();
    case kHalf: return int64_t{1} << 11;
    case kBFloat16: return int64_t{1} << 8;
    case kFloat: return int64_t{1} << 24;
    case kDouble: return int64_t{1} << 53;
  }
  return 0;
}

}  // namespace

Tensor& Tensor::uniform_(double from, double to) const {
  check_floating(*this, "uniform_");
  EMBER_CHECK_T(ValueError, from <= to,
                "[uniform_] uniform_ expects to return a [from, to) range, but found from=", from,
                " > to=", to);
  return fill_with_draw(*this, "uniform_", kernels::RandomKind::Uniform, from, to);
}

Tensor& Tensor::normal_(double mean, double std) const {
  check_floating(*this, "normal_");
  EMBER_CHECK_T(ValueError, std >= 0.0, "[normal_] normal expects std >= 0.0, but found std ", std);
  return fill_with_draw(*this, "normal_", kernels::RandomKind::Normal, mean, std);
}

Tensor& Tensor::bernoulli_(double p) const {
  EMBER_CHECK_T(ValueError, p >= 0 && p <= 1,
                "[bernoulli_] bernoulli_ expects p to be in [0, 1], but got p=", p);
  return bernoulli_(scalar_tensor(p, TensorOptions(kDouble).device(device())));
}

// A uniform draw below p: 1 with probability p. The draw is float64, so that p's own precision
// decides (p = 1 always gives 1, p = 0 never).
Tensor& Tensor::bernoulli_(const Tensor& p) const {
  EMBER_CHECK_T(ValueError, p.defined(), "[bernoulli_] p ", detail::kUndefinedTensorHint);
  kernels::check_no_internal_overlap("bernoulli_", *this);
  const Tensor hits = rand(sizes(), TensorOptions(kDouble).device(device())) < p.detach();
  if (autograd::check_inplace(*this, "bernoulli_", false)) ops::discard_history(*this);
  autograd::NoGradGuard no_grad;
  return copy_(hits);
}

Tensor Tensor::bernoulli() const { return empty_like(*this).bernoulli_(*this); }
Tensor Tensor::bernoulli(double p) const { return empty_like(*this).bernoulli_(p); }

Tensor& Tensor::random_(int64_t from, std::optional<int64_t> to) const {
  // The end as a double: random_() on a Long tensor ends at 2^63, beyond int64.
  const double end =
      to ? static_cast<double>(*to) : static_cast<double>(random_max(scalar_type())) + 1;
  EMBER_CHECK_T(ValueError, static_cast<double>(from) < end,
                "[random_] random_ expects 'from' to be less than 'to', but got from=", from,
                " >= to=", end);
  return fill_with_draw(*this, "random_", kernels::RandomKind::Integer, static_cast<double>(from),
                        end);
}
Tensor& Tensor::random_(int64_t to) const { return random_(0, to); }
Tensor& Tensor::random_() const { return random_(0, std::nullopt); }

}  // namespace ember
