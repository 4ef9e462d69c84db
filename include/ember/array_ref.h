// ArrayRef<T>: a non-owning view of consecutive values, as c10::ArrayRef; IntArrayRef (shapes,
// strides, dims) and TensorList are its two common forms.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <iterator>
#include <vector>

#include "ember/macros.h"

namespace ember {

namespace detail {
// The failures of ArrayRef's checked accessors, with c10's messages.
[[noreturn]] EMBER_API void fail_array_ref_empty(const char* accessor);
[[noreturn]] EMBER_API void fail_array_ref_index(size_t index, size_t length);
[[noreturn]] EMBER_API void fail_array_ref_slice(size_t n, size_t m, size_t length);
}  // namespace detail

template <class T>
class ArrayRef {
 public:
  using value_type = T;
  using iterator = const T*;
  using const_iterator = const T*;
  using reverse_iterator = std::reverse_iterator<iterator>;

  constexpr ArrayRef() = default;
  // One value, as c10: x.sum(1), x.view(6). The value must outlive the call.
  constexpr ArrayRef(const T& one) : data_(&one), size_(1) {}  // NOLINT
  constexpr ArrayRef(const T* data, size_t size) : data_(data), size_(size) {}
  constexpr ArrayRef(const T* begin, const T* end)
      : data_(begin), size_(static_cast<size_t>(end - begin)) {}
  template <class A>
  ArrayRef(const std::vector<T, A>& v) : data_(v.data()), size_(v.size()) {}  // NOLINT
  template <size_t N>
  constexpr ArrayRef(const std::array<T, N>& a) : data_(a.data()), size_(N) {}  // NOLINT
  template <size_t N>
  constexpr ArrayRef(const T (&a)[N]) : data_(a), size_(N) {}  // NOLINT
  // The list must outlive the call it is passed to, which is how shapes are written: ones({2, 3}).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  constexpr ArrayRef(const std::initializer_list<T>& list)  // NOLINT
      : data_(list.begin() == list.end() ? nullptr : list.begin()), size_(list.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

  constexpr iterator begin() const { return data_; }
  constexpr iterator end() const { return data_ + size_; }
  constexpr const_iterator cbegin() const { return data_; }
  constexpr const_iterator cend() const { return data_ + size_; }
  constexpr reverse_iterator rbegin() const { return reverse_iterator(end()); }
  constexpr reverse_iterator rend() const { return reverse_iterator(begin()); }
  constexpr const T* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const T& operator[](size_t i) const { return data_[i]; }
  // The checked accessors throw an ember::Error (c10::Error) as c10's do.
  const T& at(size_t i) const {
    if (i >= size_) detail::fail_array_ref_index(i, size_);
    return data_[i];
  }
  const T& front() const {
    if (empty()) detail::fail_array_ref_empty("front");
    return data_[0];
  }
  const T& back() const {
    if (empty()) detail::fail_array_ref_empty("back");
    return data_[size_ - 1];
  }
  // The m values from the n-th; the values from the n-th.
  ArrayRef slice(size_t n, size_t m) const {
    if (n + m > size_) detail::fail_array_ref_slice(n, m, size_);
    return ArrayRef(data_ + n, m);
  }
  ArrayRef slice(size_t n) const {
    if (n > size_) detail::fail_array_ref_slice(n, 0, size_);
    return slice(n, size_ - n);
  }
  bool equals(ArrayRef other) const {
    return size_ == other.size_ && std::equal(begin(), end(), other.begin());
  }
  std::vector<T> vec() const { return std::vector<T>(begin(), end()); }

  friend bool operator==(ArrayRef a, ArrayRef b) { return a.equals(b); }
  friend bool operator!=(ArrayRef a, ArrayRef b) { return !a.equals(b); }
  friend bool operator==(const std::vector<T>& a, ArrayRef b) { return b.equals(a); }
  friend bool operator!=(const std::vector<T>& a, ArrayRef b) { return !b.equals(a); }
  friend bool operator==(ArrayRef a, const std::vector<T>& b) { return a.equals(b); }
  friend bool operator!=(ArrayRef a, const std::vector<T>& b) { return !a.equals(b); }

 private:
  const T* data_ = nullptr;
  size_t size_ = 0;
};

using IntArrayRef = ArrayRef<int64_t>;

// Prints "[2, 3]", as c10 prints sizes in messages.
EMBER_API std::ostream& operator<<(std::ostream& os, IntArrayRef a);

}  // namespace ember
