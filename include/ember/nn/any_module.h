// nn::AnyModule: any module behind one type, as LibTorch's: it remembers its forward's argument
// and return types, so that forward(args...) can be called with any arguments and is checked at
// run time. Sequential holds its modules as AnyModules.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "ember/device.h"
#include "ember/nn/any_module_holder.h"
#include "ember/nn/any_value.h"
#include "ember/nn/module.h"

namespace ember::nn {

class SequentialImpl;

// A module class (not a holder such as nn::Linear).
template <class M>
concept IsModule = std::is_base_of_v<Module, std::remove_cvref_t<M>>;

class EMBER_API AnyModule {
 public:
  AnyModule() = default;
  template <IsModule M>
  explicit AnyModule(std::shared_ptr<M> module) : content_(make_holder(std::move(module))) {}
  // A module object, moved (or copied) into a new shared module.
  template <IsModule M>
  explicit AnyModule(M&& module)
      : AnyModule(std::make_shared<std::remove_cvref_t<M>>(std::forward<M>(module))) {}
  template <class M>
  explicit AnyModule(const ModuleHolder<M>& holder) : AnyModule(holder.ptr()) {}
  template <IsModule M>
  AnyModule& operator=(std::shared_ptr<M> module) {
    return *this = AnyModule(std::move(module));
  }
  // Copies share the module; clone() copies it.

  // A deep copy through the module's clone() (moved to `device` if given); empty if this is.
  AnyModule clone(std::optional<Device> device = std::nullopt) const;

  // The module's forward on `arguments` (each held as an AnyValue, decayed); errors name the
  // argument whose type is not the forward's, or the count it expects.
  template <class... ArgumentTypes>
  AnyValue any_forward(ArgumentTypes&&... arguments) const {
    std::vector<AnyValue> values;
    values.reserve(sizeof...(ArgumentTypes));
    (values.emplace_back(std::forward<ArgumentTypes>(arguments)), ...);
    return holder("forward").forward(std::move(values));
  }
  // The same, with the result as ReturnType; TypeError when it is another type.
  template <class ReturnType = Tensor, class... ArgumentTypes>
  ReturnType forward(ArgumentTypes&&... arguments) const {
    if constexpr (std::is_same_v<ReturnType, Tensor> && sizeof...(ArgumentTypes) == 1 &&
                  (std::is_same_v<std::remove_cvref_t<ArgumentTypes>, Tensor> && ...)) {
      return holder("forward").forward_tensor(arguments...);
    } else {
      return any_forward(std::forward<ArgumentTypes>(arguments)...).template get<ReturnType>();
    }
  }

  // The module as its own type T, exactly (TypeError naming both types otherwise); get<Holder>
  // gives a holder of it (get<nn::Linear>()).
  template <IsModule T>
  T& get() const {
    return *ptr<T>();
  }
  template <IsModuleHolder T>
  T get() const {
    return T(ptr<typename T::ContainedType>());
  }
  std::shared_ptr<Module> ptr() const { return holder("ptr").ptr(); }
  template <IsModule T>
  std::shared_ptr<T> ptr() const {
    if (typeid(T) != type_info()) fail_module_type(typeid(T));
    return std::static_pointer_cast<T>(ptr());
  }
  // The type of the module held (ValueError when empty).
  const std::type_info& type_info() const { return holder("type_info").type_info; }
  bool is_empty() const noexcept { return content_ == nullptr; }

 private:
  friend class SequentialImpl;  // Note [Sequential's tensor path]

  template <class M>
  static std::shared_ptr<const ember::detail::AnyModulePlaceholder> make_holder(
      std::shared_ptr<M> module) {
    static_assert(
        requires { &M::forward; },
        "Can only store module with a forward() method that has a non-templatized "
        "argument type and return type into AnyModule (e.g. we cannot store "
        "nn::Sequential into AnyModule, because its forward() method's argument type "
        "and return type are templatized.)");
    return make_holder(std::move(module), &M::forward);
  }
  template <class M, class Class, class ReturnType, class... ArgumentTypes>
  static std::shared_ptr<const ember::detail::AnyModulePlaceholder> make_holder(
      std::shared_ptr<M> module, ReturnType (Class::*)(ArgumentTypes...)) {
    static_assert(((!std::is_lvalue_reference_v<ArgumentTypes> ||
                    std::is_const_v<std::remove_reference_t<ArgumentTypes>>)&&...),
                  "Modules stored inside AnyModule must not take references. "
                  "Use pointers instead.");
    static_assert(!std::is_void_v<ReturnType>,
                  "AnyModule cannot store modules that return void "
                  "(you can return a dummy value).");
    return std::make_shared<ember::detail::AnyModuleHolder<M, ReturnType, ArgumentTypes...>>(
        std::move(module));
  }
  // The holder; ValueError naming `method` on an empty AnyModule.
  const ember::detail::AnyModulePlaceholder& holder(const char* method) const;
  bool maps_tensor_to_tensor() const noexcept { return content_->maps_tensor_to_tensor; }
  [[noreturn]] void fail_module_type(const std::type_info& requested) const;

  // Shared by copies: it holds only the (shared) module.
  std::shared_ptr<const ember::detail::AnyModulePlaceholder> content_;
};

// A name and a module, for building a Sequential with named modules:
// Sequential({{"fc", nn::Linear(3, 4)}, {"act", nn::ReLU()}}).
class NamedAnyModule {
 public:
  template <IsModule M>
  NamedAnyModule(std::string name, std::shared_ptr<M> module)
      : NamedAnyModule(std::move(name), AnyModule(std::move(module))) {}
  template <IsModule M>
  NamedAnyModule(std::string name, M&& module)
      : NamedAnyModule(std::move(name), AnyModule(std::forward<M>(module))) {}
  template <class M>
  NamedAnyModule(std::string name, const ModuleHolder<M>& holder)
      : NamedAnyModule(std::move(name), AnyModule(holder)) {}
  NamedAnyModule(std::string name, AnyModule module)
      : name_(std::move(name)), module_(std::move(module)) {}
  const std::string& name() const noexcept { return name_; }
  AnyModule& module() noexcept { return module_; }
  const AnyModule& module() const noexcept { return module_; }

 private:
  std::string name_;
  AnyModule module_;
};

}  // namespace ember::nn

// In a module class whose forward has default arguments, so that AnyModule (and Sequential) can
// call it with fewer arguments: one {index, AnyValue(default)} per defaulted argument, in order.
// For `Tensor forward(Tensor x, int n = 2, double c = 3.0)`:
//   EMBER_FORWARD_HAS_DEFAULT_ARGS({1, nn::AnyValue(2)}, {2, nn::AnyValue(3.0)})
// (LibTorch's FORWARD_HAS_DEFAULT_ARGS, which <ember/torch.h> defines as this).
#define EMBER_FORWARD_HAS_DEFAULT_ARGS(...)                                             \
  template <class, class, class...>                                                     \
  friend class ::ember::detail::AnyModuleHolder;                                        \
  std::vector<std::pair<size_t, ::ember::nn::AnyValue>> _forward_default_args() const { \
    return {__VA_ARGS__};                                                               \
  }
