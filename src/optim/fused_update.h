// How an optimizer hands one parameter and its state to a fused update kernel (Note [Fused
// optimizer steps] in kernels/optim_step.h).
#pragma once

#include "ember/factory.h"
#include "ember/tensor.h"

namespace ember::optim {

// Calls update(param, grad) with contiguous tensors of p's dtype: p itself when it is contiguous
// (the kernel writes it in place), else a contiguous copy whose new values are copied back into p.
// The state buffers come from kernel_state.
template <class Update>
void fused_update(Tensor& p, const Update& update) {
  Tensor param = p.contiguous();
  update(param, p.grad().to(p.scalar_type()).contiguous());
  if (!param.is_same(p)) p.copy_(param);
}

// A state tensor as the kernels read it: zeros shaped like p on first use, else moved to p's device
// and dtype if the module moved since (the state follows its parameter), always contiguous (a
// state a user set through state() may not be).
inline const Tensor& kernel_state(Tensor& state, const Tensor& p) {
  if (!state.defined()) state = zeros_like(p, {}, MemoryFormat::Contiguous);
  else if (state.device() != p.device() || state.scalar_type() != p.scalar_type() ||
           !state.is_contiguous())
    state = state.to(p.device(), p.scalar_type(), false, false, MemoryFormat::Contiguous);
  return state;
}

}  // namespace ember::optim
