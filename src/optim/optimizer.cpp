// optim::Optimizer: parameter checks, zero_grad, lazily created state that follows the device.
#include "ember/optim/optimizer.h"

#include "core/check.h"
#include "ember/autograd.h"
#include "ember/factory.h"

namespace ember::optim {

Optimizer::Optimizer(std::vector<Tensor> params, double lr, const char* name)
    : params_(std::move(params)), lr_(lr), name_(name), state_(params_.size()) {
  EMBER_CHECK_T(ValueError, !params_.empty(), "[", name,
                "] optimizer got an empty parameter "
                "list; pass module->parameters() after the module is built");
  EMBER_CHECK_T(ValueError, lr >= 0.0, "[", name, "] Invalid learning rate: ", lr);
  for (size_t i = 0; i < params_.size(); ++i) {
    EMBER_CHECK_T(ValueError, params_[i].defined() && params_[i].is_leaf(), "[", name,
                  "] can't optimize a non-leaf Tensor (parameter ", i, ")");
  }
}

Optimizer::~Optimizer() = default;

void Optimizer::zero_grad(bool set_to_none) {
  NoGradGuard no_grad;
  for (Tensor& p : params_) {
    if (!p.grad().defined()) continue;
    if (set_to_none) p.mutable_grad() = Tensor();
    else p.mutable_grad().zero_();
  }
}

void Optimizer::set_lr(double lr) {
  EMBER_CHECK_T(ValueError, lr >= 0.0, "[", name_, "] Invalid learning rate: ", lr);
  lr_ = lr;
}

Tensor& Optimizer::state(size_t i, size_t slot) {
  std::deque<Tensor>& slots = state_[i];
  if (slots.size() <= slot) slots.resize(slot + 1);
  Tensor& s = slots[slot];
  const Tensor& p = params_[i];
  if (!s.defined()) s = zeros_like(p, {}, MemoryFormat::Contiguous);
  else if (s.device() != p.device() || s.scalar_type() != p.scalar_type())
    s = s.to(p.device(), p.scalar_type(), false, false, MemoryFormat::Contiguous);
  return s;
}

}  // namespace ember::optim
