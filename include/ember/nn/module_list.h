// nn::ModuleList and nn::ModuleDict: submodules held by position or by key, without a forward.
// clone() clones each submodule; reset() has nothing to build.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ember/nn/module.h"

namespace ember::nn {

// Submodules named "0", "1", ... in the order they were added.
class EMBER_API ModuleListImpl : public Cloneable<ModuleListImpl> {
 public:
  using Iterator = std::vector<std::shared_ptr<Module>>::const_iterator;

  ModuleListImpl();
  std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const override;
  void reset() override {}
  template <class... Modules>
  explicit ModuleListImpl(Modules&&... modules) : ModuleListImpl() {
    (push_back(std::forward<Modules>(modules)), ...);
  }
  void push_back(std::shared_ptr<Module> module);
  template <class M>
  void push_back(const ModuleHolder<M>& holder) {
    push_back(std::shared_ptr<Module>(holder.ptr()));
  }
  // Inserts before position `index` (size() appends); the later modules are renamed.
  void insert(size_t index, std::shared_ptr<Module> module);
  template <class M>
  void insert(size_t index, const ModuleHolder<M>& holder) {
    insert(index, std::shared_ptr<Module>(holder.ptr()));
  }
  template <class Container>
  void extend(const Container& container) {
    for (const auto& module : container) push_back(module);
  }

  size_t size() const noexcept { return modules_.size(); }
  bool is_empty() const noexcept { return modules_.empty(); }
  Iterator begin() const { return modules_.begin(); }
  Iterator end() const { return modules_.end(); }
  // The i-th module; IndexError past the end. ptr<T> is TypeError for another kind of module.
  std::shared_ptr<Module> ptr(size_t index) const;
  std::shared_ptr<Module> operator[](size_t index) const { return ptr(index); }
  template <class T>
  std::shared_ptr<T> ptr(size_t index) const {
    auto typed = std::dynamic_pointer_cast<T>(ptr(index));
    if (typed == nullptr) fail_wrong_type(index);
    return typed;
  }
  template <class T>
  T& at(size_t index) const {
    return *ptr<T>(index);
  }
  void pretty_print(std::ostream& stream) const override;

 private:
  [[noreturn]] void fail_wrong_type(size_t index) const;

  std::vector<std::shared_ptr<Module>> modules_;
};
EMBER_MODULE(ModuleList);

// Submodules by key, in insertion order.
class EMBER_API ModuleDictImpl : public Cloneable<ModuleDictImpl> {
 public:
  ModuleDictImpl();
  explicit ModuleDictImpl(
      const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& modules);
  explicit ModuleDictImpl(const OrderedDict<std::string, std::shared_ptr<Module>>& modules);
  std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const override;
  void reset() override {}

  // Adds or replaces `key`.
  void insert(const std::string& key, std::shared_ptr<Module> module);
  template <class M>
  void insert(const std::string& key, const ModuleHolder<M>& holder) {
    insert(key, std::shared_ptr<Module>(holder.ptr()));
  }
  template <class Container>
  void update(const Container& container) {
    for (const auto& item : container) insert(item.first, item.second);
  }
  // Removes `key` and returns its module; IndexError when absent.
  std::shared_ptr<Module> pop(const std::string& key);
  void clear() { children_.clear(); }

  size_t size() const noexcept { return children_.size(); }
  bool is_empty() const noexcept { return children_.is_empty(); }
  bool contains(const std::string& key) const { return children_.contains(key); }
  std::vector<std::string> keys() const { return children_.keys(); }
  std::vector<std::shared_ptr<Module>> values() const { return children_.values(); }
  const auto& items() const { return children_.items(); }
  auto begin() const { return children_.begin(); }
  auto end() const { return children_.end(); }
  // The module of `key`; IndexError when absent. operator[] as LibTorch's.
  std::shared_ptr<Module> operator[](const std::string& key) const { return children_[key]; }
  template <class T>
  T& at(const std::string& key) const {
    auto typed = std::dynamic_pointer_cast<T>((*this)[key]);
    if (typed == nullptr) fail_wrong_type(key);
    return *typed;
  }
  void pretty_print(std::ostream& stream) const override;

 private:
  [[noreturn]] void fail_wrong_type(const std::string& key) const;
};
EMBER_MODULE(ModuleDict);

}  // namespace ember::nn
