// nn::Module: the base of every layer (parameters, buffers, submodules, device moves in place,
// train/eval, state dicts) and ModuleHolder, the shared handle users hold (nn::Linear(3, 1)).
#pragma once

#include <cstdint>
#include <functional>
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

namespace ember::serialize {
class OutputArchive;
class InputArchive;
}  // namespace ember::serialize

namespace ember::nn {

template <class Impl>
class ModuleHolder;

// Whether T is a ModuleHolder (nn::Linear) rather than a module class (nn::LinearImpl).
template <class T>
concept IsModuleHolder = requires {
  typename T::ContainedType;
}
&&std::is_base_of_v<ModuleHolder<typename T::ContainedType>, T>;

// Thrown by an empty ModuleHolder's get(), ->, * and call.
[[noreturn]] EMBER_API void fail_empty_holder();

class EMBER_API Module : public std::enable_shared_from_this<Module> {
 public:
  // The name is the demangled dynamic type, found on first use ("NetImpl"), as LibTorch's.
  Module();
  explicit Module(std::string name);
  virtual ~Module();

  const std::string& name() const noexcept;

  // A deep copy (parameters and buffers copied, moved to `device` if given). Modules deriving
  // from Cloneable<T> have it (every built-in layer and container does); for others it is a
  // TypeError.
  virtual std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const;

  // ---- registration, with LibTorch's signatures. register_module returns the module with its
  // own type: `fc1 = register_module("fc1", nn::Linear(3, 4));`.
  Tensor& register_parameter(std::string name, Tensor tensor, bool requires_grad = true);
  Tensor& register_buffer(std::string name, Tensor tensor);
  template <class M>
  std::shared_ptr<M> register_module(std::string name, std::shared_ptr<M> module) {
    add_child(std::move(name), module);
    return module;
  }
  template <class M>
  std::shared_ptr<M> register_module(std::string name, ModuleHolder<M> holder) {
    return register_module(std::move(name), holder.ptr());
  }
  // Replaces the registered submodule `name` (assign the result to the member as well).
  template <class M>
  std::shared_ptr<M> replace_module(const std::string& name, std::shared_ptr<M> module) {
    replace_child(name, module);
    return module;
  }
  template <class M>
  std::shared_ptr<M> replace_module(const std::string& name, ModuleHolder<M> holder) {
    return replace_module(name, holder.ptr());
  }

  // This module as T (a module class or its holder), or nullptr when it is not one.
  template <class T>
  auto* as() noexcept {
    if constexpr (IsModuleHolder<T>) return dynamic_cast<typename T::ContainedType*>(this);
    else return dynamic_cast<T*>(this);
  }
  template <class T>
  const auto* as() const noexcept {
    if constexpr (IsModuleHolder<T>) return dynamic_cast<const typename T::ContainedType*>(this);
    else return dynamic_cast<const T*>(this);
  }

  // ---- what the module holds; `recurse` includes submodules, with dotted names ("0.weight")
  std::vector<Tensor> parameters(bool recurse = true) const;
  OrderedDict<std::string, Tensor> named_parameters(bool recurse = true) const;
  std::vector<Tensor> buffers(bool recurse = true) const;
  OrderedDict<std::string, Tensor> named_buffers(bool recurse = true) const;
  std::vector<std::shared_ptr<Module>> children() const;
  OrderedDict<std::string, std::shared_ptr<Module>> named_children() const { return children_; }
  // This module (include_self; it must be held by a shared_ptr) and every submodule, depth first.
  std::vector<std::shared_ptr<Module>> modules(bool include_self = true) const;
  OrderedDict<std::string, std::shared_ptr<Module>> named_modules(
      const std::string& name_prefix = std::string(), bool include_self = true) const;

  // ---- fn on this module and every submodule, depth first (LibTorch's overloads)
  using ModuleApplyFunction = std::function<void(Module&)>;
  using ConstModuleApplyFunction = std::function<void(const Module&)>;
  using NamedModuleApplyFunction = std::function<void(const std::string&, Module&)>;
  using ConstNamedModuleApplyFunction = std::function<void(const std::string&, const Module&)>;
  using ModulePointerApplyFunction = std::function<void(const std::shared_ptr<Module>&)>;
  using NamedModulePointerApplyFunction =
      std::function<void(const std::string&, const std::shared_ptr<Module>&)>;
  void apply(const ModuleApplyFunction& fn);
  void apply(const ConstModuleApplyFunction& fn) const;
  void apply(const NamedModuleApplyFunction& fn, const std::string& name_prefix = std::string());
  void apply(const ConstNamedModuleApplyFunction& fn,
             const std::string& name_prefix = std::string()) const;
  void apply(const ModulePointerApplyFunction& fn) const;
  void apply(const NamedModulePointerApplyFunction& fn,
             const std::string& name_prefix = std::string()) const;

  // ---- in place, returning the module, like PyTorch's Module.to(): every parameter, its grad
  // and every buffer move (the Tensor handles stay the same, so an optimizer keeps working).
  // to(dtype) converts floating-point tensors only.
  Module& to(Device device, bool non_blocking = false);
  Module& to(ScalarType dtype, bool non_blocking = false);
  Module& to(Device device, ScalarType dtype, bool non_blocking = false);
  Module& cuda(int index = -1) { return to(Device::cuda(index)); }
  Module& cpu() { return to(Device::cpu()); }

  Module& train(bool on = true);
  Module& eval() { return train(false); }
  bool is_training() const noexcept { return training_; }
  void zero_grad(bool set_to_none = true);

  // Parameters and buffers by dotted name (detached: they share memory with the module's), in
  // PyTorch's order: each module's own parameters, then its own buffers, then its submodules'.
  StateDict state_dict() const;
  // Copies values in (converting dtype and device); strict refuses missing and unexpected keys.
  // Shape mismatches are always refused. All problems are reported in one error.
  void load_state_dict(const StateDict& state, bool strict = true);

  // LibTorch's serialization (torch::save / torch::load): this module's parameters, then its
  // buffers, then each submodule as a nested archive under its name. Loading assigns the file's
  // tensors in place; a parameter or buffer missing from the file is an error naming it.
  virtual void save(serialize::OutputArchive& archive) const;
  virtual void load(serialize::InputArchive& archive);

  // LibTorch's printed form: this module's own line (its name, or its settings for a layer:
  // `torch::nn::Linear(in_features=3, out_features=4, bias=true)`); `os << module` adds the
  // submodules, indented.
  virtual void pretty_print(std::ostream& stream) const;
  // ---- ember's extras: PyTorch's repr, Sequential(\n  (0): Linear(in_features=3, ...)\n),
  // from each module's extra_repr ("in_features=3, out_features=1, bias=True").
  virtual std::string extra_repr() const { return ""; }
  std::string str() const;

 protected:
  // Copies are shallow (they share tensors and submodules): Cloneable::clone starts from one.
  Module(const Module&) = default;
  Module& operator=(const Module&) = default;

  // Note [Cloning]: Cloneable<T>::clone copies the module, clears what it registered and calls
  // reset() to build fresh tensors and submodules, then copy_values_from copies the original's
  // values in, and each submodule's clone_ replaces it with a clone of the original's one. A
  // submodule that is not Cloneable (a user's plain Module) was rebuilt by its parent's reset(),
  // so its default clone_ only copies the values. The containers, whose contents no reset() can
  // rebuild, clone each element instead.
  virtual void clone_(Module& other, const std::optional<Device>& device);
  // The data of `tensor`'s clone: a copy on `device` (or its own), outside any graph.
  static Tensor cloned_data(const Tensor& tensor, const std::optional<Device>& device);
  void clear_registrations();
  void copy_values_from(const Module& original, const std::optional<Device>& device);
  [[noreturn]] void fail_clone_type(const Module& original) const;

 private:
  friend EMBER_API std::ostream& operator<<(std::ostream& os, const Module& module);
  template <class Fn>
  void for_each_tensor(Fn fn);
  Module& convert(std::optional<Device> device, std::optional<ScalarType> dtype, bool non_blocking);
  void add_child(std::string name, std::shared_ptr<Module> module);
  void replace_child(const std::string& name, std::shared_ptr<Module> module);
  // Appends this module's parameters and/or buffers, then (recurse) each submodule's.
  void collect(const std::string& prefix, bool recurse, bool params, bool buffers,
               OrderedDict<std::string, Tensor>& out) const;
  void pretty_print_recursive(std::ostream& stream, const std::string& indentation) const;
  std::shared_ptr<Module> shared_from_this_checked() const;
  void apply_to_submodules(const NamedModulePointerApplyFunction& fn,
                           const std::string& name_prefix) const;

  mutable std::optional<std::string> name_;
  bool training_ = true;

 protected:
  // What register_* registered, in order; the containers (ParameterList, ...) read them.
  OrderedDict<std::string, Tensor> parameters_;
  OrderedDict<std::string, Tensor> buffers_;
  OrderedDict<std::string, std::shared_ptr<Module>> children_;
};

EMBER_API std::ostream& operator<<(std::ostream& os, const Module& module);

// The base of a module that can be cloned: reset() (re)creates its parameters, buffers and
// submodules, and its constructor calls it, as LibTorch's Cloneable.
template <class Derived>
class Cloneable : public Module {
 public:
  using Module::Module;
  virtual void reset() = 0;

  std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const override {
    auto copy = std::make_shared<Derived>(static_cast<const Derived&>(*this));
    copy->clear_registrations();
    copy->reset();
    copy->copy_values_from(*this, device);
    return copy;
  }

 private:
  void clone_(Module& other, const std::optional<Device>& device) final {
    auto copy = std::dynamic_pointer_cast<Derived>(other.clone(device));
    if (copy == nullptr) fail_clone_type(other);
    static_cast<Derived&>(*this) = *copy;
  }
};

// The handle users hold: nn::Linear(3, 1) makes a new LinearImpl and shares it. `net->to(dev)`
// reaches the module, `net(x)` calls its forward, whatever its signature. Copies share the same
// module (as in LibTorch).
template <class Impl>
class ModuleHolder {
 public:
  using ContainedType = Impl;

  template <class... Args>
  requires(!(sizeof...(Args) == 1 && (std::is_base_of_v<ModuleHolder, std::remove_cvref_t<Args>> &&
                                      ...))) explicit ModuleHolder(Args&&... args)
      : impl_(std::make_shared<Impl>(std::forward<Args>(args)...)) {}
  ModuleHolder(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}  // NOLINT
  // An empty holder, to be assigned later (LibTorch's `nn::Linear fc1{nullptr};` member).
  ModuleHolder(std::nullptr_t) {}  // NOLINT
  ModuleHolder(const ModuleHolder&) = default;
  ModuleHolder& operator=(const ModuleHolder&) = default;

  bool is_empty() const noexcept { return impl_ == nullptr; }
  explicit operator bool() const noexcept { return !is_empty(); }
  Impl* operator->() const { return get(); }
  Impl& operator*() const { return *get(); }
  // The module; ValueError on an empty holder (`nn::Linear fc{nullptr}` not yet assigned).
  Impl* get() const {
    if (impl_ == nullptr) [[unlikely]]
      fail_empty_holder();
    return impl_.get();
  }
  const std::shared_ptr<Impl>& ptr() const { return impl_; }
  template <class T>
  auto* as() const noexcept {
    return get()->template as<T>();
  }
  template <class... Args>
  decltype(auto) operator()(Args&&... args) const {
    return get()->forward(std::forward<Args>(args)...);
  }
  template <class Arg>
  decltype(auto) operator[](Arg&& arg) const {
    return (*get())[std::forward<Arg>(arg)];
  }

 private:
  std::shared_ptr<Impl> impl_;
};

template <class Impl>
std::ostream& operator<<(std::ostream& os, const ModuleHolder<Impl>& holder) {
  return os << *holder;
}

// torch::save(module, ...) and torch::load(module, ...) go through these (Module::save/load).
EMBER_API serialize::OutputArchive& operator<<(serialize::OutputArchive& archive,
                                               const std::shared_ptr<Module>& module);
EMBER_API serialize::InputArchive& operator>>(serialize::InputArchive& archive,
                                              const std::shared_ptr<Module>& module);
template <class Impl>
serialize::OutputArchive& operator<<(serialize::OutputArchive& archive,
                                     const ModuleHolder<Impl>& module) {
  return archive << std::shared_ptr<Module>(module.ptr());
}
template <class Impl>
serialize::InputArchive& operator>>(serialize::InputArchive& archive, ModuleHolder<Impl>& module) {
  return archive >> std::shared_ptr<Module>(module.ptr());
}

}  // namespace ember::nn

// Declares the holder `Name` for the module class `Name##Impl` (LibTorch's TORCH_MODULE, which
// <ember/torch.h> defines as this).
#define EMBER_MODULE(Name)                                     \
  class Name : public ::ember::nn::ModuleHolder<Name##Impl> {  \
   public:                                                     \
    using ::ember::nn::ModuleHolder<Name##Impl>::ModuleHolder; \
  }
