// clamp's tensor-bound and one-sided forms (clamp_min, clamp_max), and the methods; the
// number-bound clamp itself is an elementwise kernel (ops/unary.cpp).
#include "core/check.h"
#include "ember/ops.h"
#include "ember/tensor.h"

namespace ember {
namespace {

bool given(const std::optional<Tensor>& bound) { return bound && bound->defined(); }

// Writes a clamp's result back into `self`. Under autograd the formula needs the old values,
// which copy_ overwrites, so the caller clamps a clone; float bounds promote an integer tensor,
// and writing that back would truncate (PyTorch refuses too).
Tensor& write_back(const Tensor& self, const Tensor& result) {
  EMBER_CHECK_T(TypeError, can_cast(result.scalar_type(), self.scalar_type()),
                "[clamp_] result type ", result.scalar_type(),
                " can't be cast to the desired output type ", self.scalar_type());
  return self.copy_(result);
}

Tensor operand(const Tensor& self) { return self.requires_grad() ? self.clone() : self; }

}  // namespace

// Tensor bounds broadcast and promote as maximum and minimum do, which they are: min first, so
// that min > max gives max, and a NaN in either bound or input gives NaN, as PyTorch's clamp.
Tensor clamp(const Tensor& self, const std::optional<Tensor>& min,
             const std::optional<Tensor>& max) {
  EMBER_CHECK_T(ValueError, given(min) || given(max),
                "[clamp] At least one of 'min' or 'max' must not be None");
  Tensor result = given(min) ? maximum(self, *min) : self;
  return given(max) ? minimum(result, *max) : result;
}
Tensor clamp_min(const Tensor& self, const Scalar& min) { return clamp(self, min, std::nullopt); }
Tensor clamp_min(const Tensor& self, const Tensor& min) { return clamp(self, min, std::nullopt); }
Tensor clamp_max(const Tensor& self, const Scalar& max) { return clamp(self, std::nullopt, max); }
Tensor clamp_max(const Tensor& self, const Tensor& max) { return clamp(self, std::nullopt, max); }

Tensor Tensor::clamp(const std::optional<Scalar>& min, const std::optional<Scalar>& max) const {
  return ember::clamp(*this, min, max);
}
Tensor Tensor::clamp(const std::optional<Tensor>& min, const std::optional<Tensor>& max) const {
  return ember::clamp(*this, min, max);
}
Tensor& Tensor::clamp_(const std::optional<Scalar>& min, const std::optional<Scalar>& max) const {
  return write_back(*this, ember::clamp(operand(*this), min, max));
}
Tensor& Tensor::clamp_(const std::optional<Tensor>& min, const std::optional<Tensor>& max) const {
  return write_back(*this, ember::clamp(operand(*this), min, max));
}
Tensor Tensor::clamp_min(const Scalar& min) const { return ember::clamp_min(*this, min); }
Tensor Tensor::clamp_min(const Tensor& min) const { return ember::clamp_min(*this, min); }
Tensor Tensor::clamp_max(const Scalar& max) const { return ember::clamp_max(*this, max); }
Tensor Tensor::clamp_max(const Tensor& max) const { return ember::clamp_max(*this, max); }
Tensor& Tensor::clamp_min_(const Scalar& min) const { return clamp_(min, std::nullopt); }
Tensor& Tensor::clamp_min_(const Tensor& min) const { return clamp_(min, std::nullopt); }
Tensor& Tensor::clamp_max_(const Scalar& max) const { return clamp_(std::nullopt, max); }
Tensor& Tensor::clamp_max_(const Tensor& max) const { return clamp_(std::nullopt, max); }

}  // namespace ember
