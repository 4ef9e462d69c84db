// OrderedDict: name -> value in insertion order with O(1) lookup; Module::named_parameters() and
// state dicts use it so keys come out in registration order, as in PyTorch.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ember/error.h"

namespace ember {

template <class V>
class OrderedDict {
 public:
  using Item = std::pair<std::string, V>;

  // Adds key -> value, or replaces the value of an existing key in its original position.
  V& insert(std::string key, V value) {
    auto [it, inserted] = index_.try_emplace(key, items_.size());
    if (!inserted) return items_[it->second].second = std::move(value);
    items_.emplace_back(std::move(key), std::move(value));
    return items_.back().second;
  }
  const V* find(const std::string& key) const {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second].second;
  }
  V* find(const std::string& key) {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second].second;
  }
  bool contains(const std::string& key) const { return index_.count(key) != 0; }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  std::vector<std::string> keys() const {
    std::vector<std::string> out;
    out.reserve(items_.size());
    for (const Item& item : items_) out.push_back(item.first);
    return out;
  }
  std::vector<V> values() const {
    std::vector<V> out;
    out.reserve(items_.size());
    for (const Item& item : items_) out.push_back(item.second);
    return out;
  }
  // The i-th item, read-only from a non-const dict too (a changed key would break the lookup);
  // d[0] then picks this overload over the string one.
  const Item& operator[](size_t i) const { return items_[i]; }
  const Item& operator[](size_t i) { return items_[i]; }
  // The value of `key` (state["fc1.weight"]); IndexError naming the key when it is absent.
  const V& operator[](const std::string& key) const {
    if (const V* value = find(key)) return *value;
    throw IndexError("[OrderedDict] key '" + key + "' is not defined; see keys() for the names");
  }
  V& operator[](const std::string& key) {
    return const_cast<V&>(static_cast<const OrderedDict&>(*this)[key]);
  }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }
  auto begin() { return items_.begin(); }
  auto end() { return items_.end(); }

 private:
  std::vector<Item> items_;
  std::unordered_map<std::string, size_t> index_;
};

}  // namespace ember
