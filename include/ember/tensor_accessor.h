// TensorAccessor<T, N>: indexed access to a CPU tensor's elements through its strides, as
// LibTorch's (x.accessor<float, 2>()[i][j]). It points into the tensor: the tensor must outlive
// it, and its dims, sizes and strides are checked once, when it is made.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ember/array_ref.h"

namespace ember {

template <class T, size_t N>
class TensorAccessorBase {
 public:
  TensorAccessorBase(T* data, const int64_t* sizes, const int64_t* strides)
      : data_(data), sizes_(sizes), strides_(strides) {}
  IntArrayRef sizes() const { return IntArrayRef(sizes_, N); }
  IntArrayRef strides() const { return IntArrayRef(strides_, N); }
  int64_t size(int64_t i) const { return sizes_[i]; }
  int64_t stride(int64_t i) const { return strides_[i]; }
  T* data() { return data_; }
  const T* data() const { return data_; }

 protected:
  T* data_;
  const int64_t* sizes_;
  const int64_t* strides_;
};

template <class T, size_t N>
class TensorAccessor : public TensorAccessorBase<T, N> {
 public:
  using TensorAccessorBase<T, N>::TensorAccessorBase;
  // The sub-tensor at index i of the first dim.
  TensorAccessor<T, N - 1> operator[](int64_t i) const {
    return TensorAccessor<T, N - 1>(this->data_ + this->strides_[0] * i, this->sizes_ + 1,
                                    this->strides_ + 1);
  }
};

template <class T>
class TensorAccessor<T, 1> : public TensorAccessorBase<T, 1> {
 public:
  using TensorAccessorBase<T, 1>::TensorAccessorBase;
  T& operator[](int64_t i) const { return this->data_[this->strides_[0] * i]; }
};

}  // namespace ember
