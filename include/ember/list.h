// List<T>: LibTorch's c10::List as far as its C++ API reaches it: the index list of
// Tensor::index(const List<optional<Tensor>>&) and index_put_(..., accumulate), and the list an
// IValue holds. Copies share their elements, as c10::List's do (copying one that a pickle holds
// costs nothing); copy() makes an independent list.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

namespace ember {

template <class T>
class List {
 public:
  using value_type = T;
  List() : values_(std::make_shared<std::vector<T>>()) {}
  List(std::initializer_list<T> values)  // NOLINT: {rows, cols}
      : values_(std::make_shared<std::vector<T>>(values)) {}
  explicit List(std::vector<T> values)
      : values_(std::make_shared<std::vector<T>>(std::move(values))) {}

  size_t size() const { return values_->size(); }
  bool empty() const { return values_->empty(); }
  const T& get(size_t i) const { return values_->at(i); }
  const T& operator[](size_t i) const { return (*values_)[i]; }
  void set(size_t i, T value) const { values_->at(i) = std::move(value); }
  void push_back(T value) const { values_->push_back(std::move(value)); }
  auto begin() const { return values_->cbegin(); }
  auto end() const { return values_->cend(); }
  std::vector<T> vec() const { return *values_; }
  List copy() const { return List(*values_); }
  bool is(const List& other) const { return values_ == other.values_; }

 private:
  std::shared_ptr<std::vector<T>> values_;
};

}  // namespace ember
