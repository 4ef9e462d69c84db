// List<T>: LibTorch's c10::List as far as its C++ API reaches it: the index list of
// Tensor::index(const List<optional<Tensor>>&) and index_put_(..., accumulate). A plain sequence
// of values (c10::List shares its elements between copies; no ember API relies on that).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <utility>
#include <vector>

namespace ember {

template <class T>
class List {
 public:
  using value_type = T;
  List() = default;
  List(std::initializer_list<T> values) : values_(values) {}  // NOLINT: {rows, cols}
  explicit List(std::vector<T> values) : values_(std::move(values)) {}

  size_t size() const { return values_.size(); }
  bool empty() const { return values_.empty(); }
  const T& get(size_t i) const { return values_.at(i); }
  const T& operator[](size_t i) const { return values_[i]; }
  void set(size_t i, T value) { values_.at(i) = std::move(value); }
  void push_back(T value) { values_.push_back(std::move(value)); }
  auto begin() const { return values_.begin(); }
  auto end() const { return values_.end(); }
  std::vector<T> vec() const { return values_; }

 private:
  std::vector<T> values_;
};

}  // namespace ember
