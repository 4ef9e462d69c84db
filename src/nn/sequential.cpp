// nn::Sequential: chains its modules' single-tensor forwards.
#include "ember/nn/sequential.h"

#include <string>

#include "core/check.h"

namespace ember::nn {

SequentialImpl::SequentialImpl() : Module("Sequential") {}

void SequentialImpl::push_back(std::shared_ptr<Module> module) {
  register_module(std::to_string(size()), std::move(module));
}

std::shared_ptr<Module> SequentialImpl::operator[](size_t i) const {
  EMBER_CHECK_T(IndexError, i < size(), "[Sequential] index ", i,
                " is out of range for a "
                "Sequential of ",
                size(), " modules");
  return named_children()[i].second;
}

void SequentialImpl::fail_wrong_type(size_t i, const Module& module) {
  detail::fail<TypeError>("[Sequential] module ", i, " is a ", module.type_name(),
                          ", not the module type asked of ptr<>()");
}

Tensor SequentialImpl::forward(const Tensor& input) {
  Tensor x = input;
  for (const auto& [name, module] : named_children()) x = module->forward(x);
  return x;
}

}  // namespace ember::nn
