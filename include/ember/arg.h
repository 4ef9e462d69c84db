// EMBER_ARG: one setting of an options class, as LibTorch's TORCH_ARG (which <ember/torch.h>
// defines as this): a getter, a chainable setter and the member, so that options read as
// LinearOptions(3, 1).bias(false) and options.bias(). It ends in `private:`.
#pragma once

#include <utility>

#define EMBER_ARG(T, name)                                 \
 public:                                                   \
  auto name(const T& new_##name)->decltype(*this) {        \
    this->name##_ = new_##name;                            \
    return *this;                                          \
  }                                                        \
  auto name(T&& new_##name)->decltype(*this) {             \
    this->name##_ = std::move(new_##name);                 \
    return *this;                                          \
  }                                                        \
  const T& name() const noexcept { return this->name##_; } \
  T& name() noexcept { return this->name##_; }             \
                                                           \
 private:                                                  \
  T name##_
