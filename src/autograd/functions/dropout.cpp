// Backward formula of dropout (see dropout.h).
#include "autograd/functions/dropout.h"

#include "ember/ops.h"

namespace ember::autograd::functions {

Grads NativeDropoutBackward0::operator()(const Context& c) const {
  return Grads{c.grad() * c.saved(0)};
}

}  // namespace ember::autograd::functions
