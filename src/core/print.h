// Tensor printing internals: PyTorch's repr with the non-element parts passed in, so tests can
// check the CUDA device and grad_fn suffixes on machines without a GPU or autograd.
#pragma once

#include <string>

#include "ember/device.h"
#include "ember/tensor.h"

namespace ember::detail {

// What repr shows besides the elements, in suffix order.
struct ReprInfo {
  Device device = Device::cpu();
  std::string grad_fn;  // the grad_fn's class name ("AddmmBackward0"); empty when there is none
  bool requires_grad = false;
};

// PyTorch's repr of a tensor holding `values` (on any device) described by `info`.
// Exported for the tests, which link the shared library.
std::string tensor_repr(const Tensor& values, const ReprInfo& info);

}  // namespace ember::detail
