// OrderedDict: key -> value in insertion order with O(1) lookup, LibTorch's torch::OrderedDict.
// Module::named_parameters() and state dicts use it so keys come out in registration order.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ember/error.h"
#include "ember/string_util.h"

namespace ember {

template <class Key, class Value>
class OrderedDict {
 public:
  // An item reads as LibTorch's (item.key(), item.value(), *item) and as a pair, so both
  // `for (auto& p : d) p.key()` and `for (auto& [key, value] : d)` work.
  struct Item : std::pair<Key, Value> {
    using std::pair<Key, Value>::pair;
    const Key& key() const noexcept { return this->first; }
    Value& value() noexcept { return this->second; }
    const Value& value() const noexcept { return this->second; }
    Value& operator*() noexcept { return this->second; }
    const Value& operator*() const noexcept { return this->second; }
    Value* operator->() noexcept { return &this->second; }
    const Value* operator->() const noexcept { return &this->second; }
    const std::pair<Key, Value>& pair() const noexcept { return *this; }
  };
  using key_type = Key;
  using mapped_type = Value;

  OrderedDict() = default;
  OrderedDict(std::initializer_list<Item> items) {
    for (const Item& item : items) insert(item.first, item.second);
  }

  // Adds key -> value, or replaces the value of an existing key in its original position.
  Value& insert(Key key, Value value) {
    auto [it, inserted] = index_.try_emplace(key, items_.size());
    if (!inserted) return items_[it->second].second = std::move(value);
    items_.emplace_back(std::move(key), std::move(value));
    return items_.back().second;
  }
  void update(const OrderedDict& other) {
    for (const Item& item : other) insert(item.first, item.second);
  }
  void erase(const Key& key) {
    auto it = index_.find(key);
    if (it == index_.end()) throw IndexError(str("[OrderedDict] key '", key, "' is not defined"));
    size_t position = it->second;
    index_.erase(it);
    items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(position));
    for (auto& [k, i] : index_)
      if (i > position) --i;
  }
  void clear() {
    items_.clear();
    index_.clear();
  }
  void reserve(size_t capacity) {
    items_.reserve(capacity);
    index_.reserve(capacity);
  }

  const Value* find(const Key& key) const {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second].second;
  }
  Value* find(const Key& key) {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second].second;
  }
  bool contains(const Key& key) const { return index_.count(key) != 0; }
  size_t size() const noexcept { return items_.size(); }
  bool is_empty() const noexcept { return items_.empty(); }
  bool empty() const noexcept { return items_.empty(); }
  const std::vector<Item>& items() const noexcept { return items_; }
  std::vector<Key> keys() const {
    std::vector<Key> out;
    out.reserve(items_.size());
    for (const Item& item : items_) out.push_back(item.first);
    return out;
  }
  std::vector<Value> values() const {
    std::vector<Value> out;
    out.reserve(items_.size());
    for (const Item& item : items_) out.push_back(item.second);
    return out;
  }
  const Item& front() const { return at_position(0); }
  const Item& back() const { return at_position(items_.size() - 1); }
  // The i-th item, read-only from a non-const dict too (a changed key would break the lookup);
  // d[0] then picks this overload over the key one.
  const Item& operator[](size_t i) const { return at_position(i); }
  const Item& operator[](size_t i) { return at_position(i); }
  // The value of `key` (state["fc1.weight"]); IndexError naming the key when it is absent.
  const Value& operator[](const Key& key) const {
    if (const Value* value = find(key)) return *value;
    throw IndexError(str("[OrderedDict] key '", key, "' is not defined; see keys() for the names"));
  }
  Value& operator[](const Key& key) {
    return const_cast<Value&>(static_cast<const OrderedDict&>(*this)[key]);
  }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }
  auto begin() { return items_.begin(); }
  auto end() { return items_.end(); }

 private:
  const Item& at_position(size_t i) const {
    if (i >= items_.size())
      throw IndexError(
          str("[OrderedDict] index ", i, " is out of range for ", items_.size(), " items"));
    return items_[i];
  }

  std::vector<Item> items_;
  std::unordered_map<Key, size_t> index_;
};

}  // namespace ember
