// nn::Module: registration, traversal, in-place device/dtype moves, train/eval, state dicts and
// PyTorch's printed form.
#include "ember/nn/module.h"

#include <ostream>
#include <sstream>

#include "core/check.h"
#include "core/demangle.h"
#include "ember/autograd.h"

namespace ember::nn {

void fail_empty_holder() {
  ember::detail::fail<ValueError>(
      "Accessing empty ModuleHolder: this holder was made from nullptr and never assigned a "
      "module (e.g. `fc = register_module(\"fc\", nn::Linear(3, 4));`)");
}

Module::Module() = default;
Module::Module(std::string name) : name_(std::move(name)) {}
Module::~Module() = default;

// Note [Module names]: a default-constructed module is named after its dynamic type, which the
// constructor cannot see yet (`this` is still a Module there), so the name is found on first use,
// as LibTorch does. ember's own layers pass their PyTorch name ("Linear") instead.
const std::string& Module::name() const noexcept {
  if (!name_) name_ = ember::detail::demangle(typeid(*this).name());
  return *name_;
}

Tensor& Module::register_parameter(std::string name, Tensor tensor, bool requires_grad) {
  EMBER_CHECK_T(ValueError, !name.empty() && name.find('.') == std::string::npos, "[", this->name(),
                "] parameter name \"", name, "\" must be non-empty and contain no '.'");
  if (tensor.defined() && requires_grad) tensor.requires_grad_(true);
  return parameters_.insert(std::move(name), std::move(tensor));
}

Tensor& Module::register_buffer(std::string name, Tensor tensor) {
  EMBER_CHECK_T(ValueError, !name.empty() && name.find('.') == std::string::npos, "[", this->name(),
                "] buffer name \"", name, "\" must be non-empty and contain no '.'");
  return buffers_.insert(std::move(name), std::move(tensor));
}

void Module::add_child(std::string name, std::shared_ptr<Module> module) {
  EMBER_CHECK_T(ValueError, module != nullptr, "[", this->name(), "] submodule \"", name,
                "\" is null");
  EMBER_CHECK_T(ValueError, !name.empty() && name.find('.') == std::string::npos, "[", this->name(),
                "] submodule name \"", name, "\" must be non-empty and contain no '.'");
  children_.insert(std::move(name), std::move(module));
}

void Module::replace_child(const std::string& name, std::shared_ptr<Module> module) {
  EMBER_CHECK_T(ValueError, children_.contains(name), "[", this->name(),
                "] there is no submodule \"", name, "\" to replace");
  children_[name] = std::move(module);
}

std::shared_ptr<Module> Module::shared_from_this_checked() const {
  std::shared_ptr<const Module> self = weak_from_this().lock();
  EMBER_CHECK_T(ValueError, self != nullptr, "[", name(),
                "] this module is not held by a shared_ptr: make it with std::make_shared or "
                "through its holder (TORCH_MODULE) before asking for pointers to it");
  return std::const_pointer_cast<Module>(self);
}

std::vector<std::shared_ptr<Module>> Module::modules(bool include_self) const {
  return named_modules("", include_self).values();
}

OrderedDict<std::string, std::shared_ptr<Module>> Module::named_modules(
    const std::string& name_prefix, bool include_self) const {
  OrderedDict<std::string, std::shared_ptr<Module>> out;
  if (include_self) out.insert(name_prefix, shared_from_this_checked());
  apply_to_submodules([&](const std::string& name,
                          const std::shared_ptr<Module>& module) { out.insert(name, module); },
                      name_prefix);
  return out;
}

static std::string join_name(const std::string& name_prefix, const std::string& name) {
  return name_prefix.empty() ? name : name_prefix + "." + name;
}

void Module::apply_to_submodules(const NamedModulePointerApplyFunction& fn,
                                 const std::string& name_prefix) const {
  for (const auto& [name, child] : children_) {
    std::string qualified_name = join_name(name_prefix, name);
    fn(qualified_name, child);
    child->apply_to_submodules(fn, qualified_name);
  }
}

// Each apply calls fn on this module, then on every submodule depth first; the named forms name
// a submodule by its dotted path below name_prefix.
void Module::apply(const ModuleApplyFunction& fn) {
  fn(*this);
  for (auto& [name, child] : children_) child->apply(fn);
}
void Module::apply(const ConstModuleApplyFunction& fn) const {
  fn(*this);
  for (const auto& [name, child] : children_) std::as_const(*child).apply(fn);
}
void Module::apply(const NamedModuleApplyFunction& fn, const std::string& name_prefix) {
  fn(name_prefix, *this);
  for (auto& [name, child] : children_) child->apply(fn, join_name(name_prefix, name));
}
void Module::apply(const ConstNamedModuleApplyFunction& fn, const std::string& name_prefix) const {
  fn(name_prefix, *this);
  for (const auto& [name, child] : children_)
    std::as_const(*child).apply(fn, join_name(name_prefix, name));
}
void Module::apply(const ModulePointerApplyFunction& fn) const {
  fn(shared_from_this_checked());
  for (const auto& [name, child] : children_) std::as_const(*child).apply(fn);
}
void Module::apply(const NamedModulePointerApplyFunction& fn,
                   const std::string& name_prefix) const {
  fn(name_prefix, shared_from_this_checked());
  apply_to_submodules(fn, name_prefix);
}

std::shared_ptr<Module> Module::clone(const std::optional<Device>&) const {
  ember::detail::fail<TypeError>("[", name(), "] clone() has not been implemented for ", name(),
                                 ". Subclass torch::nn::Cloneable<", name(),
                                 "> instead of torch::nn::Module to inherit the ability to clone.");
}

void Module::clone_(Module& other, const std::optional<Device>& device) {
  copy_values_from(other, device);
}

Tensor Module::cloned_data(const Tensor& tensor, const std::optional<Device>& device) {
  NoGradGuard no_grad;
  return device && tensor.device() != *device ? tensor.to(*device) : tensor.clone();
}

void Module::clear_registrations() {
  parameters_.clear();
  buffers_.clear();
  children_.clear();
}

// Note [Cloning] in module.h.
void Module::copy_values_from(const Module& original, const std::optional<Device>& device) {
  // LibTorch's messages.
  auto check_count = [](size_t mine, size_t theirs, const char* what, const char* registration) {
    EMBER_CHECK(mine == theirs, "The cloned module does not have the same number of ", what,
                " as the original module after calling reset(). Are you sure you called ",
                registration, "() inside reset() and not the constructor?");
  };
  check_count(parameters_.size(), original.parameters_.size(), "parameters", "register_parameter");
  check_count(buffers_.size(), original.buffers_.size(), "buffers", "register_buffer");
  check_count(children_.size(), original.children_.size(), "child modules", "register_module");
  NoGradGuard no_grad;
  auto copy_tensors = [&](OrderedDict<std::string, Tensor>& mine,
                          const OrderedDict<std::string, Tensor>& theirs) {
    for (const auto& [name, tensor] : theirs)
      if (tensor.defined()) mine[name].set_data(cloned_data(tensor, device));
  };
  copy_tensors(parameters_, original.parameters_);
  copy_tensors(buffers_, original.buffers_);
  for (const auto& [name, child] : original.children_) children_[name]->clone_(*child, device);
}

void Module::fail_clone_type(const Module& original) const {
  ember::detail::fail<TypeError>(
      "Attempted to clone submodule, but it is of a different type than the submodule it was to "
      "be cloned into (",
      original.name(), " into ", name(), ")");
}

void Module::collect(const std::string& prefix, bool recurse, bool params, bool buffers,
                     OrderedDict<std::string, Tensor>& out) const {
  auto append = [&](const OrderedDict<std::string, Tensor>& own) {
    for (const auto& [name, t] : own)
      if (t.defined()) out.insert(prefix + name, t);
  };
  if (params) append(parameters_);
  if (buffers) append(buffers_);
  if (!recurse) return;
  for (const auto& [name, child] : children_)
    child->collect(prefix + name + ".", true, params, buffers, out);
}

OrderedDict<std::string, Tensor> Module::named_parameters(bool recurse) const {
  OrderedDict<std::string, Tensor> out;
  collect("", recurse, /*params=*/true, /*buffers=*/false, out);
  return out;
}
OrderedDict<std::string, Tensor> Module::named_buffers(bool recurse) const {
  OrderedDict<std::string, Tensor> out;
  collect("", recurse, /*params=*/false, /*buffers=*/true, out);
  return out;
}
std::vector<Tensor> Module::parameters(bool recurse) const {
  return named_parameters(recurse).values();
}
std::vector<Tensor> Module::buffers(bool recurse) const { return named_buffers(recurse).values(); }
std::vector<std::shared_ptr<Module>> Module::children() const { return children_.values(); }

template <class Fn>
void Module::for_each_tensor(Fn fn) {
  for (auto& [name, t] : parameters_)
    if (t.defined()) fn(t, true);
  for (auto& [name, t] : buffers_)
    if (t.defined()) fn(t, false);
  for (auto& [name, child] : children_) child->for_each_tensor(fn);
}

// Every parameter (with its grad) and buffer to `device` (default: where it is) and, if it is
// floating point, to `dtype` (default: its own), in place through set_data.
Module& Module::convert(std::optional<Device> device, std::optional<ScalarType> dtype,
                        bool non_blocking) {
  NoGradGuard no_grad;
  for_each_tensor([&](Tensor& t, bool) {
    Device d = device.value_or(t.device());
    ScalarType type = dtype && t.is_floating_point() ? *dtype : t.scalar_type();
    t.set_data(t.to(d, type, non_blocking));
    if (t.grad().defined()) t.mutable_grad().set_data(t.grad().to(d, type, non_blocking));
  });
  return *this;
}

Module& Module::to(Device device, ScalarType dtype, bool non_blocking) {
  return convert(device, dtype, non_blocking);
}
Module& Module::to(Device device, bool non_blocking) {
  return convert(device, std::nullopt, non_blocking);
}
Module& Module::to(ScalarType dtype, bool non_blocking) {
  return convert(std::nullopt, dtype, non_blocking);
}

Module& Module::train(bool on) {
  training_ = on;
  for (auto& [name, child] : children_) child->train(on);
  return *this;
}

void Module::zero_grad(bool set_to_none) {
  NoGradGuard no_grad;
  for_each_tensor([&](Tensor& t, bool is_parameter) {
    if (!is_parameter || !t.grad().defined()) return;
    if (set_to_none) t.mutable_grad() = Tensor();
    else t.mutable_grad().zero_();
  });
}

StateDict Module::state_dict() const {
  OrderedDict<std::string, Tensor> tensors;
  collect("", /*recurse=*/true, /*params=*/true, /*buffers=*/true, tensors);
  StateDict out;
  for (const auto& [name, t] : tensors) out.insert(name, t.detach());
  return out;
}

void Module::load_state_dict(const StateDict& state, bool strict) {
  StateDict own = state_dict();
  std::vector<std::string> missing, unexpected, mismatched;
  for (const auto& [name, t] : own) {
    const Tensor* src = state.find(name);
    if (!src) {
      missing.push_back(name);
    } else if (src->sizes() != t.sizes()) {
      std::ostringstream os;
      os << "size mismatch for " << name << ": copying a param with shape " << src->sizes()
         << " from checkpoint, the shape in current model is " << t.sizes() << ".";
      mismatched.push_back(os.str());
    }
  }
  for (const auto& [name, t] : state)
    if (!own.contains(name)) unexpected.push_back(name);
  auto quoted = [](const std::vector<std::string>& names) {
    std::string s;
    for (size_t i = 0; i < names.size(); ++i) s += (i ? ", \"" : "\"") + names[i] + "\"";
    return s;
  };
  std::string errors;
  if (strict && !missing.empty())
    errors += "\n\tMissing key(s) in state_dict: " + quoted(missing) + ".";
  if (strict && !unexpected.empty())
    errors += "\n\tUnexpected key(s) in state_dict: " + quoted(unexpected) + ".";
  for (const std::string& m : mismatched) errors += "\n\t" + m;
  EMBER_CHECK_T(ValueError, errors.empty(), "[load_state_dict] Error(s) in loading state_dict for ",
                name(), ":", errors,
                "\nNothing was loaded. Compare the names with module.state_dict().keys(); pass "
                "strict=false to load only the matching keys.");
  NoGradGuard no_grad;
  for (const auto& [name, t] : own)
    if (const Tensor* src = state.find(name)) Tensor(t).copy_(*src);
}

std::string Module::str() const {
  std::string out = name() + "(" + extra_repr();
  if (children_.empty()) return out + ")";
  out += "\n";
  for (const auto& [name, child] : children_) {
    std::string body = child->str(), indented;
    for (char ch : body) indented += ch == '\n' ? std::string("\n  ") : std::string(1, ch);
    out += "  (" + name + "): " + indented + "\n";
  }
  return out + ")";
}

void Module::pretty_print(std::ostream& stream) const { stream << name(); }

void Module::pretty_print_recursive(std::ostream& stream, const std::string& indentation) const {
  pretty_print(stream);
  if (children_.is_empty()) return;
  stream << "(\n";
  const std::string next_indentation = indentation + "  ";
  for (const auto& [name, child] : children_) {
    stream << next_indentation << "(" << name << "): ";
    child->pretty_print_recursive(stream, next_indentation);
    stream << '\n';
  }
  stream << indentation << ")";
}

std::ostream& operator<<(std::ostream& os, const Module& module) {
  module.pretty_print_recursive(os, "");
  return os;
}

}  // namespace ember::nn
