// nn::Sequential: registration, cloning and the chain of forwards.
#include "ember/nn/sequential.h"

#include <ostream>
#include <string>

#include "core/check.h"
#include "core/demangle.h"

namespace ember::nn {

SequentialImpl::SequentialImpl() : Cloneable("Sequential") {}

SequentialImpl::SequentialImpl(OrderedDict<std::string, AnyModule>&& ordered_dict)
    : SequentialImpl() {
  modules_.reserve(ordered_dict.size());
  for (auto& [name, module] : ordered_dict) push_back(name, std::move(module));
}

SequentialImpl::SequentialImpl(std::initializer_list<NamedAnyModule> named_modules)
    : SequentialImpl() {
  modules_.reserve(named_modules.size());
  for (const NamedAnyModule& named : named_modules) push_back(named.name(), named.module());
}

std::shared_ptr<Module> SequentialImpl::clone(const std::optional<Device>& device) const {
  auto copy = std::make_shared<SequentialImpl>();
  for (size_t i = 0; i < size(); ++i)
    copy->push_back(children_[i].key(), modules_[i].clone(device));
  return copy;
}

void SequentialImpl::push_back(std::string name, AnyModule module) {
  register_module(std::move(name), module.ptr());
  modules_.push_back(std::move(module));
}

const AnyModule& SequentialImpl::at_index(size_t i) const {
  EMBER_CHECK_T(IndexError, i < size(), "[Sequential] index ", i,
                " is out of range for a Sequential of ", size(), " modules");
  return modules_[i];
}

void SequentialImpl::check_not_empty() const {
  EMBER_CHECK_T(ValueError, !is_empty(),
                "[Sequential] Cannot call forward() on an empty Sequential");
}

// Note [Sequential's tensor path] in sequential.h.
Tensor SequentialImpl::forward_tensor(const Tensor& input) {
  check_not_empty();
  Tensor output = input;
  for (auto module = modules_.cbegin(); module != modules_.cend(); ++module) {
    if (!module->maps_tensor_to_tensor())
      return returned<Tensor>(forward_from(module, AnyValue(std::move(output))));
    output = module->forward(output);
  }
  return output;
}

AnyValue SequentialImpl::forward_from(ConstIterator first, AnyValue input) const {
  for (auto module = first; module != modules_.cend(); ++module)
    input = module->any_forward(std::move(input));
  return input;
}

void SequentialImpl::fail_return_type(const std::type_info& actual,
                                      const std::type_info& requested) {
  ember::detail::fail<TypeError>(
      "[Sequential] The type of the return value is ", ember::detail::demangle(actual.name()),
      ", but you asked for type ", ember::detail::demangle(requested.name()));
}

void SequentialImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::Sequential"; }

}  // namespace ember::nn
