// IntArrayRef: a non-owning view of int64 values (shapes, strides, dims), as c10::IntArrayRef.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <vector>

#include "ember/macros.h"

namespace ember {

class IntArrayRef {
 public:
  constexpr IntArrayRef() = default;
  constexpr IntArrayRef(const int64_t* data, size_t size) : data_(data), size_(size) {}
  // The list must outlive the call it is passed to, which is how shapes are written: ones({2, 3}).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  constexpr IntArrayRef(std::initializer_list<int64_t> list)  // NOLINT
      : data_(list.begin()), size_(list.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  IntArrayRef(const std::vector<int64_t>& v) : data_(v.data()), size_(v.size()) {}  // NOLINT
  // One value, as c10: x.sum(1), x.view(6). The value must outlive the call, as above.
  constexpr IntArrayRef(const int64_t& single) : data_(&single), size_(1) {}  // NOLINT

  constexpr const int64_t* begin() const { return data_; }
  constexpr const int64_t* end() const { return data_ + size_; }
  constexpr const int64_t* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr int64_t operator[](size_t i) const { return data_[i]; }
  constexpr int64_t back() const { return data_[size_ - 1]; }
  std::vector<int64_t> vec() const { return std::vector<int64_t>(begin(), end()); }

  friend bool operator==(IntArrayRef a, IntArrayRef b) {
    if (a.size_ != b.size_) return false;
    for (size_t i = 0; i < a.size_; ++i)
      if (a.data_[i] != b.data_[i]) return false;
    return true;
  }

 private:
  const int64_t* data_ = nullptr;
  size_t size_ = 0;
};

// Prints "[2, 3]", as PyTorch prints sizes in messages.
EMBER_API std::ostream& operator<<(std::ostream& os, IntArrayRef a);

}  // namespace ember
