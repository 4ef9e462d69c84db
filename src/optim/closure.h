// The loss closure an optimizer's step may take (Optimizer::LossClosure).
#pragma once

#include "ember/autograd.h"
#include "ember/optim/optimizer.h"

namespace ember::optim {

// The closure's loss, computed with gradients enabled (step itself runs under NoGradGuard), or an
// undefined tensor without a closure: what step returns, as LibTorch's optimizers.
inline Tensor evaluate(const Optimizer::LossClosure& closure) {
  if (closure == nullptr) return {};
  EnableGradGuard enable_grad;
  return closure();
}

}  // namespace ember::optim
