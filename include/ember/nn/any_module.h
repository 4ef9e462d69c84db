// nn::AnyModule: any module behind one type, remembering how to call its forward; Sequential
// holds its modules as AnyModules, so a user's `Tensor forward(Tensor)` is found without a
// virtual forward in Module.
#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "ember/nn/module.h"

namespace ember::nn {

class EMBER_API AnyModule {
 public:
  AnyModule() = default;
  template <class M>
  requires std::is_base_of_v<Module, M>
  explicit AnyModule(std::shared_ptr<M> module)
      : module_(std::move(module)), forward_(&call_forward<M>) {}
  template <class M>
  explicit AnyModule(const ModuleHolder<M>& holder) : AnyModule(holder.ptr()) {}

  // The module's forward on one tensor; TypeError when its forward takes something else.
  Tensor forward(const Tensor& input) const;
  bool is_empty() const noexcept { return module_ == nullptr; }
  const std::shared_ptr<Module>& ptr() const { return module_; }
  // The module as its own type; TypeError naming both types when it is another.
  template <class T>
  std::shared_ptr<T> ptr() const {
    if constexpr (IsModuleHolder<T>) {
      return ptr<typename T::ContainedType>();
    } else {
      auto typed = std::dynamic_pointer_cast<T>(module_);
      if (typed == nullptr) fail_wrong_type(typeid(T).name());
      return typed;
    }
  }
  template <class T>
  T& get() const {
    return *ptr<T>();
  }

 private:
  template <class M>
  static Tensor call_forward(Module& module, const Tensor& input) {
    if constexpr (requires(M & m) { m.forward(input); }) {
      return static_cast<M&>(module).forward(input);
    } else {
      fail_no_tensor_forward(module);
    }
  }
  [[noreturn]] static void fail_no_tensor_forward(const Module& module);
  [[noreturn]] void fail_wrong_type(const char* mangled_type) const;

  std::shared_ptr<Module> module_;
  Tensor (*forward_)(Module&, const Tensor&) = nullptr;
};

// A name and a module, for building a Sequential with named modules:
// Sequential({{"fc", nn::Linear(3, 4)}, {"act", nn::ReLU()}}).
class NamedAnyModule {
 public:
  template <class M>
  NamedAnyModule(std::string name, std::shared_ptr<M> module)
      : name_(std::move(name)), module_(std::move(module)) {}
  template <class M>
  NamedAnyModule(std::string name, const ModuleHolder<M>& holder)
      : name_(std::move(name)), module_(holder) {}
  NamedAnyModule(std::string name, AnyModule module)
      : name_(std::move(name)), module_(std::move(module)) {}
  const std::string& name() const noexcept { return name_; }
  const AnyModule& module() const noexcept { return module_; }

 private:
  std::string name_;
  AnyModule module_;
};

}  // namespace ember::nn
