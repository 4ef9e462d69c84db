// nn::Sequential: modules applied in order, as LibTorch's: the first module's forward receives
// the inputs, each following one the previous output. Submodules are named "0", "1", ... unless
// named.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "ember/device.h"
#include "ember/nn/any_module.h"
#include "ember/nn/any_value.h"
#include "ember/nn/module.h"
#include "ember/ordered_dict.h"

namespace ember::nn {

class EMBER_API SequentialImpl : public Cloneable<SequentialImpl> {
 public:
  using Iterator = std::vector<AnyModule>::iterator;
  using ConstIterator = std::vector<AnyModule>::const_iterator;

  SequentialImpl();
  template <class... Modules>
  explicit SequentialImpl(Modules&&... modules) : SequentialImpl() {
    modules_.reserve(sizeof...(Modules));
    (push_back(std::forward<Modules>(modules)), ...);
  }
  explicit SequentialImpl(OrderedDict<std::string, AnyModule>&& ordered_dict);
  explicit SequentialImpl(std::initializer_list<NamedAnyModule> named_modules);

  // A new Sequential of each module's clone (AnyModule::clone), under the same names.
  std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const override;
  void reset() override {}

  // The first module's forward on `inputs`, each next module's on the previous output; the
  // last output as ReturnType (TypeError naming both types when it is another).
  template <class ReturnType = Tensor, class... InputTypes>
  ReturnType forward(InputTypes&&... inputs) {
    if constexpr (std::is_same_v<ReturnType, Tensor> && sizeof...(InputTypes) == 1 &&
                  (std::is_same_v<std::remove_cvref_t<InputTypes>, Tensor> && ...)) {
      return forward_tensor(inputs...);
    } else {
      check_not_empty();
      return returned<ReturnType>(forward_from(
          modules_.begin() + 1, modules_.front().any_forward(std::forward<InputTypes>(inputs)...)));
    }
  }

  void push_back(AnyModule module) { push_back(std::to_string(size()), std::move(module)); }
  void push_back(std::string name, AnyModule module);
  template <IsModule M>
  void push_back(std::shared_ptr<M> module) {
    push_back(AnyModule(std::move(module)));
  }
  template <IsModule M>
  void push_back(std::string name, std::shared_ptr<M> module) {
    push_back(std::move(name), AnyModule(std::move(module)));
  }
  template <IsModule M>
  void push_back(M&& module) {
    push_back(AnyModule(std::forward<M>(module)));
  }
  template <IsModule M>
  void push_back(std::string name, M&& module) {
    push_back(std::move(name), AnyModule(std::forward<M>(module)));
  }
  template <class M>
  void push_back(const ModuleHolder<M>& holder) {
    push_back(AnyModule(holder));
  }
  template <class M>
  void push_back(std::string name, const ModuleHolder<M>& holder) {
    push_back(std::move(name), AnyModule(holder));
  }
  // Appends every module of `container` (another Sequential, or any range of modules).
  template <class Container>
  void extend(const Container& container) {
    for (const auto& module : container) push_back(module);
  }

  size_t size() const noexcept { return modules_.size(); }
  bool is_empty() const noexcept { return modules_.empty(); }
  Iterator begin() { return modules_.begin(); }
  ConstIterator begin() const { return modules_.begin(); }
  Iterator end() { return modules_.end(); }
  ConstIterator end() const { return modules_.end(); }
  // The i-th module; IndexError past the end.
  std::shared_ptr<Module> ptr(size_t i) const { return at_index(i).ptr(); }
  std::shared_ptr<Module> operator[](size_t i) const { return ptr(i); }
  // The i-th module as its own type (seq->ptr<LinearImpl>(0)->weight); TypeError when it is
  // another kind of module.
  template <IsModule T>
  std::shared_ptr<T> ptr(size_t i) const {
    return at_index(i).ptr<T>();
  }
  template <IsModule T>
  T& at(size_t i) const {
    return at_index(i).get<T>();
  }
  void pretty_print(std::ostream& stream) const override;

 private:
  const AnyModule& at_index(size_t i) const;
  void check_not_empty() const;
  // Note [Sequential's tensor path]: LibTorch passes every value between modules as an AnyValue,
  // which allocates twice per module. A Tensor chain (Tensor in, Tensor out) is the common case
  // and on the training loop's path, so each leading module whose forward maps a Tensor to a
  // Tensor is called directly; the chain goes on through AnyValues from the first that does not.
  // The result is the same as LibTorch's, errors included.
  Tensor forward_tensor(const Tensor& input);
  AnyValue forward_from(ConstIterator first, AnyValue input) const;
  template <class ReturnType>
  static ReturnType returned(AnyValue output) {
    if (auto* value = output.template try_get<ReturnType>()) return std::move(*value);
    fail_return_type(output.type_info(), typeid(ReturnType));
  }
  [[noreturn]] static void fail_return_type(const std::type_info& actual,
                                            const std::type_info& requested);

  std::vector<AnyModule> modules_;
};

// LibTorch's holder adds the named-module list: Sequential({{"fc", nn::Linear(3, 4)}}).
class Sequential : public ModuleHolder<SequentialImpl> {
 public:
  using ModuleHolder<SequentialImpl>::ModuleHolder;
  Sequential() : ModuleHolder() {}
  Sequential(std::initializer_list<NamedAnyModule> named_modules)
      : ModuleHolder(std::make_shared<SequentialImpl>(named_modules)) {}
};

}  // namespace ember::nn
