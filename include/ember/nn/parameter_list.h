// nn::ParameterList and nn::ParameterDict: parameters held by position or by key. clone() copies
// each parameter (LibTorch's refuses a container that is not empty); reset() has nothing to
// build.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "ember/nn/module.h"

namespace ember::nn {

// Parameters named "0", "1", ... in the order they were appended.
class EMBER_API ParameterListImpl : public Cloneable<ParameterListImpl> {
 public:
  ParameterListImpl();
  std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const override;
  void reset() override {}
  template <class... Tensors>
  explicit ParameterListImpl(Tensors&&... tensors) : ParameterListImpl() {
    (append(std::forward<Tensors>(tensors)), ...);
  }
  void append(Tensor parameter);
  template <class Container>
  void extend(const Container& container) {
    for (const auto& parameter : container) append(parameter);
  }
  size_t size() const noexcept { return parameters_.size(); }
  bool is_empty() const noexcept { return parameters_.is_empty(); }
  // The i-th parameter; IndexError past the end.
  const Tensor& at(size_t index) const { return parameters_[index].second; }
  const Tensor& operator[](size_t index) const { return at(index); }
  auto begin() const { return parameters_.begin(); }
  auto end() const { return parameters_.end(); }
  void pretty_print(std::ostream& stream) const override;
};
EMBER_MODULE(ParameterList);

// Parameters by key, in insertion order.
class EMBER_API ParameterDictImpl : public Cloneable<ParameterDictImpl> {
 public:
  ParameterDictImpl();
  explicit ParameterDictImpl(const OrderedDict<std::string, Tensor>& parameters);
  std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const override;
  void reset() override {}

  // Adds or replaces `key`.
  void insert(std::string key, Tensor parameter);
  template <class Container>
  void update(const Container& container) {
    for (const auto& item : container) insert(item.first, item.second);
  }
  // Removes `key` and returns its tensor; IndexError when absent.
  Tensor pop(const std::string& key);
  void clear() { parameters_.clear(); }

  size_t size() const noexcept { return parameters_.size(); }
  bool is_empty() const noexcept { return parameters_.is_empty(); }
  bool contains(const std::string& key) const { return parameters_.contains(key); }
  std::vector<std::string> keys() const { return parameters_.keys(); }
  std::vector<Tensor> values() const { return parameters_.values(); }
  const auto& items() const { return parameters_.items(); }
  auto begin() const { return parameters_.begin(); }
  auto end() const { return parameters_.end(); }
  // The tensor of `key`; IndexError when absent.
  Tensor get(const std::string& key) const { return parameters_[key]; }
  Tensor& operator[](const std::string& key) { return parameters_[key]; }
  const Tensor& operator[](const std::string& key) const { return parameters_[key]; }
  void pretty_print(std::ostream& stream) const override;
};
EMBER_MODULE(ParameterDict);

}  // namespace ember::nn
