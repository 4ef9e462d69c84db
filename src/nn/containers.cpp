// ModuleList, ModuleDict, ParameterList, ParameterDict and Functional: registration and
// LibTorch's printed names.
#include <ostream>
#include <string>

#include "core/check.h"
#include "ember/nn/functional_module.h"
#include "ember/nn/module_list.h"
#include "ember/nn/parameter_list.h"

namespace ember::nn {

// ---- ModuleList
ModuleListImpl::ModuleListImpl() : Cloneable("ModuleList") {}

std::shared_ptr<Module> ModuleListImpl::clone(const std::optional<Device>& device) const {
  auto copy = std::make_shared<ModuleListImpl>();
  for (const std::shared_ptr<Module>& module : modules_) copy->push_back(module->clone(device));
  return copy;
}

void ModuleListImpl::push_back(std::shared_ptr<Module> module) {
  register_module(std::to_string(size()), module);
  modules_.push_back(std::move(module));
}

void ModuleListImpl::insert(size_t index, std::shared_ptr<Module> module) {
  EMBER_CHECK_T(IndexError, index <= size(), "[ModuleList] insert position ", index,
                " is out of range for a ModuleList of ", size(), " modules");
  modules_.insert(modules_.begin() + static_cast<std::ptrdiff_t>(index), std::move(module));
  children_.clear();
  for (size_t i = 0; i < modules_.size(); ++i) register_module(std::to_string(i), modules_[i]);
}

std::shared_ptr<Module> ModuleListImpl::ptr(size_t index) const {
  EMBER_CHECK_T(IndexError, index < size(), "[ModuleList] index ", index,
                " is out of range for a ModuleList of ", size(), " modules");
  return modules_[index];
}

void ModuleListImpl::fail_wrong_type(size_t index) const {
  ember::detail::fail<TypeError>("[ModuleList] module ", index, " is a ", modules_[index]->name(),
                                 ", not the type asked for");
}

void ModuleListImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::ModuleList"; }

// ---- ModuleDict
ModuleDictImpl::ModuleDictImpl() : Cloneable("ModuleDict") {}

ModuleDictImpl::ModuleDictImpl(
    const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& modules)
    : ModuleDictImpl() {
  update(modules);
}

ModuleDictImpl::ModuleDictImpl(const OrderedDict<std::string, std::shared_ptr<Module>>& modules)
    : ModuleDictImpl() {
  update(modules);
}

std::shared_ptr<Module> ModuleDictImpl::clone(const std::optional<Device>& device) const {
  auto copy = std::make_shared<ModuleDictImpl>();
  for (const auto& [key, module] : children_) copy->insert(key, module->clone(device));
  return copy;
}

void ModuleDictImpl::insert(const std::string& key, std::shared_ptr<Module> module) {
  register_module(key, std::move(module));
}

std::shared_ptr<Module> ModuleDictImpl::pop(const std::string& key) {
  std::shared_ptr<Module> module = (*this)[key];
  children_.erase(key);
  return module;
}

void ModuleDictImpl::fail_wrong_type(const std::string& key) const {
  ember::detail::fail<TypeError>("[ModuleDict] module '", key, "' is a ", (*this)[key]->name(),
                                 ", not the type asked for");
}

void ModuleDictImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::ModuleDict"; }

// ---- ParameterList and ParameterDict: LibTorch prints each parameter's type and size.
static void print_parameters(std::ostream& stream, const char* container,
                             const OrderedDict<std::string, Tensor>& parameters) {
  stream << "torch::nn::" << container << "(\n";
  for (const auto& [key, parameter] : parameters)
    stream << "(" << key << "): Parameter containing: [" << parameter.scalar_type() << " of size "
           << parameter.sizes() << "]\n";
  stream << ")";
}

ParameterListImpl::ParameterListImpl() : Cloneable("ParameterList") {}

std::shared_ptr<Module> ParameterListImpl::clone(const std::optional<Device>& device) const {
  auto copy = std::make_shared<ParameterListImpl>();
  for (const auto& [key, parameter] : parameters_)
    copy->append(cloned_data(parameter, device).requires_grad_(parameter.requires_grad()));
  return copy;
}

// The containers keep each tensor's own requires_grad, as LibTorch's do.
void ParameterListImpl::append(Tensor parameter) {
  bool requires_grad = parameter.requires_grad();
  register_parameter(std::to_string(size()), std::move(parameter), requires_grad);
}

void ParameterListImpl::pretty_print(std::ostream& stream) const {
  print_parameters(stream, "ParameterList", parameters_);
}

ParameterDictImpl::ParameterDictImpl() : Cloneable("ParameterDict") {}

ParameterDictImpl::ParameterDictImpl(const OrderedDict<std::string, Tensor>& parameters)
    : ParameterDictImpl() {
  update(parameters);
}

std::shared_ptr<Module> ParameterDictImpl::clone(const std::optional<Device>& device) const {
  auto copy = std::make_shared<ParameterDictImpl>();
  for (const auto& [key, parameter] : parameters_)
    copy->insert(key, cloned_data(parameter, device).requires_grad_(parameter.requires_grad()));
  return copy;
}

void ParameterDictImpl::insert(std::string key, Tensor parameter) {
  bool requires_grad = parameter.requires_grad();
  register_parameter(std::move(key), std::move(parameter), requires_grad);
}

Tensor ParameterDictImpl::pop(const std::string& key) {
  Tensor parameter = parameters_[key];
  parameters_.erase(key);
  return parameter;
}

void ParameterDictImpl::pretty_print(std::ostream& stream) const {
  print_parameters(stream, "ParameterDict", parameters_);
}

// ---- Functional
FunctionalImpl::FunctionalImpl(Function function)
    : Cloneable("Functional"), function_(std::move(function)) {}

Tensor FunctionalImpl::forward(Tensor input) { return function_(std::move(input)); }

void FunctionalImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Functional()";
}

}  // namespace ember::nn
