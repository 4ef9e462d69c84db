// nn::Sequential: modules applied in order; submodules are named "0", "1", ... unless named.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ember/nn/any_module.h"
#include "ember/nn/module.h"

namespace ember::nn {

class EMBER_API SequentialImpl : public Module {
 public:
  using Iterator = std::vector<AnyModule>::const_iterator;

  SequentialImpl();
  template <class... Modules>
  explicit SequentialImpl(Modules&&... modules) : SequentialImpl() {
    (push_back(std::forward<Modules>(modules)), ...);
  }
  explicit SequentialImpl(std::initializer_list<NamedAnyModule> named_modules);

  void push_back(AnyModule module) { push_back(std::to_string(size()), std::move(module)); }
  void push_back(std::string name, AnyModule module);
  template <class M>
  void push_back(std::shared_ptr<M> module) {
    push_back(AnyModule(std::move(module)));
  }
  template <class M>
  void push_back(const ModuleHolder<M>& holder) {
    push_back(AnyModule(holder));
  }
  template <class M>
  void push_back(std::string name, std::shared_ptr<M> module) {
    push_back(std::move(name), AnyModule(std::move(module)));
  }
  template <class M>
  void push_back(std::string name, const ModuleHolder<M>& holder) {
    push_back(std::move(name), AnyModule(holder));
  }
  // Appends every module of `container` (another Sequential, or any range of modules).
  void extend(const SequentialImpl& other);
  template <class Container>
  void extend(const Container& container) {
    for (const auto& module : container) push_back(module);
  }

  // Each module's forward on the previous one's output.
  Tensor forward(const Tensor& input);
  size_t size() const noexcept { return modules_.size(); }
  bool is_empty() const noexcept { return modules_.empty(); }
  Iterator begin() const { return modules_.begin(); }
  Iterator end() const { return modules_.end(); }
  // The i-th module; IndexError past the end.
  std::shared_ptr<Module> ptr(size_t i) const;
  std::shared_ptr<Module> operator[](size_t i) const { return ptr(i); }
  // The i-th module as its own type (seq->ptr<LinearImpl>(0)->weight); TypeError when it is
  // another kind of module.
  template <class T>
  std::shared_ptr<T> ptr(size_t i) const {
    return at_index(i).ptr<T>();
  }
  template <class T>
  T& at(size_t i) const {
    return *ptr<T>(i);
  }
  void pretty_print(std::ostream& stream) const override;

 private:
  const AnyModule& at_index(size_t i) const;

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
