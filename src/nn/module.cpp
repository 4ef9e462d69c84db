// nn::Module: registration, traversal, in-place device/dtype moves, train/eval, state dicts and
// PyTorch's printed form.
#include "ember/nn/module.h"

#include <ostream>
#include <sstream>

#include "core/check.h"
#include "ember/autograd.h"

namespace ember::nn {

Module::Module(std::string type_name) : type_name_(std::move(type_name)) {}
Module::~Module() = default;

Tensor& Module::register_parameter(std::string name, Tensor tensor, bool requires_grad) {
  EMBER_CHECK_T(ValueError, !name.empty() && name.find('.') == std::string::npos, "[", type_name_,
                "] parameter name \"", name, "\" must be non-empty and contain no '.'");
  if (tensor.defined() && requires_grad) tensor.requires_grad_(true);
  return parameters_.insert(std::move(name), std::move(tensor));
}

Tensor& Module::register_buffer(std::string name, Tensor tensor) {
  EMBER_CHECK_T(ValueError, !name.empty() && name.find('.') == std::string::npos, "[", type_name_,
                "] buffer name \"", name, "\" must be non-empty and contain no '.'");
  return buffers_.insert(std::move(name), std::move(tensor));
}

void Module::add_child(std::string name, std::shared_ptr<Module> module) {
  EMBER_CHECK_T(ValueError, module != nullptr, "[", type_name_, "] submodule \"", name,
                "\" is null");
  children_.insert(std::move(name), std::move(module));
}

void Module::collect(const std::string& prefix, bool recurse, bool params, bool buffers,
                     OrderedDict<Tensor>& out) const {
  auto append = [&](const OrderedDict<Tensor>& own) {
    for (const auto& [name, t] : own)
      if (t.defined()) out.insert(prefix + name, t);
  };
  if (params) append(parameters_);
  if (buffers) append(buffers_);
  if (!recurse) return;
  for (const auto& [name, child] : children_)
    child->collect(prefix + name + ".", true, params, buffers, out);
}

OrderedDict<Tensor> Module::named_parameters(bool recurse) const {
  OrderedDict<Tensor> out;
  collect("", recurse, /*params=*/true, /*buffers=*/false, out);
  return out;
}
OrderedDict<Tensor> Module::named_buffers(bool recurse) const {
  OrderedDict<Tensor> out;
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
Module& Module::to(ScalarType dtype) { return convert(std::nullopt, dtype, false); }

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
  OrderedDict<Tensor> tensors;
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
                type_name_, ":", errors,
                "\nNothing was loaded. Compare the names with module.state_dict().keys(); pass "
                "strict=false to load only the matching keys.");
  NoGradGuard no_grad;
  for (const auto& [name, t] : own)
    if (const Tensor* src = state.find(name)) Tensor(t).copy_(*src);
}

Tensor Module::forward(const Tensor&) {
  EMBER_CHECK_T(NotImplementedError, false, "[", type_name_,
                "] this module has no forward(Tensor); "
                "call the forward it defines");
}

std::string Module::str() const {
  std::string out = type_name_ + "(" + extra_repr();
  if (children_.empty()) return out + ")";
  out += "\n";
  for (const auto& [name, child] : children_) {
    std::string body = child->str(), indented;
    for (char ch : body) indented += ch == '\n' ? std::string("\n  ") : std::string(1, ch);
    out += "  (" + name + "): " + indented + "\n";
  }
  return out + ")";
}

std::ostream& operator<<(std::ostream& os, const Module& module) { return os << module.str(); }

}  // namespace ember::nn
