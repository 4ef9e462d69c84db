// nn::Sequential: chains its modules' single-tensor forwards; nn::AnyModule's checks.
#include "ember/nn/sequential.h"

#include <ostream>
#include <string>

#include "core/check.h"
#include "core/demangle.h"

namespace ember::nn {

Tensor AnyModule::forward(const Tensor& input) const {
  EMBER_CHECK_T(ValueError, module_ != nullptr, "[AnyModule] forward() on an empty AnyModule");
  return forward_(*module_, input);
}

void AnyModule::fail_no_tensor_forward(const Module& module) {
  detail::fail<TypeError>("[AnyModule] ", module.name(),
                          " has no forward taking one tensor, which its container calls");
}

void AnyModule::fail_wrong_type(const char* mangled_type) const {
  detail::fail<TypeError>("[AnyModule] Attempted to cast module of type ", module_->name(),
                          " to type ", detail::demangle(mangled_type));
}

SequentialImpl::SequentialImpl() : Module("Sequential") {}

SequentialImpl::SequentialImpl(std::initializer_list<NamedAnyModule> named_modules)
    : SequentialImpl() {
  for (const NamedAnyModule& named : named_modules) push_back(named.name(), named.module());
}

void SequentialImpl::push_back(std::string name, AnyModule module) {
  register_module(std::move(name), module.ptr());
  modules_.push_back(std::move(module));
}

void SequentialImpl::extend(const SequentialImpl& other) {
  for (const AnyModule& module : other) push_back(module);
}

const AnyModule& SequentialImpl::at_index(size_t i) const {
  EMBER_CHECK_T(IndexError, i < size(), "[Sequential] index ", i,
                " is out of range for a Sequential of ", size(), " modules");
  return modules_[i];
}

std::shared_ptr<Module> SequentialImpl::ptr(size_t i) const { return at_index(i).ptr(); }

Tensor SequentialImpl::forward(const Tensor& input) {
  Tensor x = input;
  for (const AnyModule& module : modules_) x = module.forward(x);
  return x;
}

void SequentialImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::Sequential"; }

}  // namespace ember::nn
