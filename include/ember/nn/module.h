// nn::Module: the base of every layer (parameters, buffers, submodules, device moves in place,
// train/eval, state dicts) and ModuleHolder, the shared handle users hold (nn::Linear(3, 1)).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ember/device.h"
#include "ember/dtype.h"
#include "ember/macros.h"
#include "ember/ordered_dict.h"
#include "ember/state_dict.h"
#include "ember/tensor.h"

namespace ember::nn {

template <class Impl>
class ModuleHolder;

class EMBER_API Module : public std::enable_shared_from_this<Module> {
 public:
  explicit Module(std::string type_name);
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;
  virtual ~Module();

  const std::string& type_name() const { return type_name_; }  // "Linear", "Sequential", ...

  // ---- what the module holds; `recurse` includes submodules, with dotted names ("0.weight")
  std::vector<Tensor> parameters(bool recurse = true) const;
  OrderedDict<Tensor> named_parameters(bool recurse = true) const;
  std::vector<Tensor> buffers(bool recurse = true) const;
  OrderedDict<Tensor> named_buffers(bool recurse = true) const;
  std::vector<std::shared_ptr<Module>> children() const;
  const OrderedDict<std::shared_ptr<Module>>& named_children() const { return children_; }

  // ---- in place, returning the module, like PyTorch's Module.to(): every parameter, its grad
  // and every buffer move (the Tensor handles stay the same, so an optimizer keeps working).
  // to(dtype) converts floating-point tensors only.
  Module& to(Device device, bool non_blocking = false);
  Module& to(ScalarType dtype);
  Module& to(Device device, ScalarType dtype, bool non_blocking = false);
  Module& cuda(int index = -1) { return to(Device::cuda(index)); }
  Module& cpu() { return to(Device::cpu()); }

  Module& train(bool on = true);
  Module& eval() { return train(false); }
  bool is_training() const { return training_; }
  void zero_grad(bool set_to_none = true);

  // Parameters and buffers by dotted name (detached: they share memory with the module's), in
  // PyTorch's order: each module's own parameters, then its own buffers, then its submodules'.
  StateDict state_dict() const;
  // Copies values in (converting dtype and device); strict refuses missing and unexpected keys.
  // Shape mismatches are always refused. All problems are reported in one error.
  void load_state_dict(const StateDict& state, bool strict = true);

  // The single-tensor forward that Sequential chains; layers override it.
  virtual Tensor forward(const Tensor& input);
  // One line describing this module's own settings, e.g. "in_features=3, out_features=1".
  virtual std::string extra_repr() const { return ""; }
  // PyTorch's repr: Sequential(\n  (0): Linear(in_features=3, out_features=1, bias=True)\n)
  std::string str() const;

 protected:
  Tensor& register_parameter(std::string name, Tensor tensor, bool requires_grad = true);
  Tensor& register_buffer(std::string name, Tensor tensor);
  // Returns the module with its own type, so LibTorch's custom-module pattern reads the same:
  // `nn::Linear fc1{nullptr};` as a member, then `fc1 = register_module("fc1", nn::Linear(3, 4));`.
  template <class M>
  requires std::is_base_of_v<Module, M> std::shared_ptr<M> register_module(
      std::string name, std::shared_ptr<M> module) {
    add_child(std::move(name), module);
    return module;
  }
  template <class Impl>
  std::shared_ptr<Impl> register_module(std::string name, const ModuleHolder<Impl>& holder) {
    return register_module(std::move(name), holder.ptr());
  }

 private:
  template <class Fn>
  void for_each_tensor(Fn fn);
  Module& convert(std::optional<Device> device, std::optional<ScalarType> dtype, bool non_blocking);
  void add_child(std::string name, std::shared_ptr<Module> module);
  // Appends this module's parameters and/or buffers, then (recurse) each submodule's.
  void collect(const std::string& prefix, bool recurse, bool params, bool buffers,
               OrderedDict<Tensor>& out) const;

  std::string type_name_;
  OrderedDict<Tensor> parameters_;
  OrderedDict<Tensor> buffers_;
  OrderedDict<std::shared_ptr<Module>> children_;
  bool training_ = true;
};

EMBER_API std::ostream& operator<<(std::ostream& os, const Module& module);

// The handle users hold: nn::Linear(3, 1) makes a new LinearImpl and shares it. `net->to(dev)`
// reaches the module, `net(x)` calls its forward. Copies share the same module (as in LibTorch).
template <class Impl>
class ModuleHolder {
 public:
  template <class... Args>
  requires(!(sizeof...(Args) == 1 && (std::is_base_of_v<ModuleHolder, std::remove_cvref_t<Args>> &&
                                      ...))) explicit ModuleHolder(Args&&... args)
      : impl_(std::make_shared<Impl>(std::forward<Args>(args)...)) {}
  ModuleHolder(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}  // NOLINT
  // An empty holder, to be assigned later (LibTorch's `nn::Linear fc1{nullptr};` member).
  ModuleHolder(std::nullptr_t) {}  // NOLINT
  bool is_empty() const { return impl_ == nullptr; }
  ModuleHolder(const ModuleHolder&) = default;
  ModuleHolder& operator=(const ModuleHolder&) = default;

  Impl* operator->() const { return impl_.get(); }
  Impl& operator*() const { return *impl_; }
  const std::shared_ptr<Impl>& ptr() const { return impl_; }
  template <class... Args>
  Tensor operator()(Args&&... args) const {
    return impl_->forward(std::forward<Args>(args)...);
  }

 private:
  std::shared_ptr<Impl> impl_;
};

template <class Impl>
std::ostream& operator<<(std::ostream& os, const ModuleHolder<Impl>& holder) {
  return os << *holder;
}

}  // namespace ember::nn

// Declares the holder `Name` for the module class `Name##Impl` (LibTorch's TORCH_MODULE).
#define EMBER_MODULE(Name)                                     \
  class Name : public ::ember::nn::ModuleHolder<Name##Impl> {  \
   public:                                                     \
    using ::ember::nn::ModuleHolder<Name##Impl>::ModuleHolder; \
  }
