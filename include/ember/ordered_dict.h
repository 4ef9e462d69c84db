// OrderedDict: name -> value in insertion order with O(1) lookup; Module::named_parameters() and
// state dicts use it so keys come out in registration order, as in PyTorch.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

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
  const Item& operator[](size_t i) const { return items_[i]; }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }
  auto begin() { return items_.begin(); }
  auto end() { return items_.end(); }

 private:
  std::vector<Item> items_;
  std::unordered_map<std::string, size_t> index_;
};

}  // namespace ember
