// How an optimizer hands one parameter to a fused update kernel (Note [Fused optimizer steps] in
// kernels/optim_step.h).
#pragma once

#include "ember/tensor.h"

namespace ember::optim {

// Calls update(param, grad) with contiguous tensors of p's dtype: p itself when it is contiguous
// (the kernel writes it in place), else a contiguous copy whose new values are copied back into p.
// The optimizer's state buffers are contiguous already (zeros_like).
template <class Update>
void fused_update(Tensor& p, const Update& update) {
  Tensor param = p.contiguous();
  update(param, p.grad().to(p.scalar_type()).contiguous());
  if (!param.is_same(p)) p.copy_(param);
}

}  // namespace ember::optim
