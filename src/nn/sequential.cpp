// nn::Sequential: chains its modules' single-tensor forwards.
#include "ember/nn/sequential.h"

#include <string>

namespace ember::nn {

SequentialImpl::SequentialImpl() : Module("Sequential") {}

void SequentialImpl::push_back(std::shared_ptr<Module> module) {
  register_module(std::to_string(size()), std::move(module));
}

Tensor SequentialImpl::forward(const Tensor& input) {
  Tensor x = input;
  for (const auto& [name, module] : named_children()) x = module->forward(x);
  return x;
}

}  // namespace ember::nn
