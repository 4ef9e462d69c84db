// nn::AnyValue: one value of any type, as LibTorch's (an std::any whose value is read back by its
// exact type): what AnyModule passes to and returns from a forward it knows only at run time.
#pragma once

#include <memory>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "ember/macros.h"

namespace ember::nn {

class EMBER_API AnyValue {
 public:
  // Holds a copy of `value`, decayed: AnyValue(2) holds an int, AnyValue("a") a const char*.
  template <class T>
  requires(!std::is_same_v<std::decay_t<T>, AnyValue>) explicit AnyValue(T&& value)
      : content_(std::make_unique<Holder<std::decay_t<T>>>(std::forward<T>(value))) {}
  AnyValue(AnyValue&&) = default;
  AnyValue& operator=(AnyValue&&) = default;
  AnyValue(const AnyValue& other) : content_(other.content_->clone()) {}
  AnyValue& operator=(const AnyValue& other) {
    content_ = other.content_->clone();
    return *this;
  }

  // The value when it is a T, else nullptr.
  template <class T>
  T* try_get() {
    static_assert(!std::is_reference_v<T>,
                  "AnyValue stores decayed types, you cannot cast it to a reference type");
    static_assert(!std::is_array_v<T>,
                  "AnyValue stores decayed types, you must cast it to T* instead of T[]");
    if (typeid(T) != type_info()) return nullptr;
    return &static_cast<Holder<T>&>(*content_).value;
  }
  template <class T>
  const T* try_get() const {
    return const_cast<AnyValue&>(*this).try_get<T>();
  }
  // A copy of the value; TypeError naming both types when it is not a T.
  template <class T>
  T get() const {
    if (const T* value = try_get<T>()) return *value;
    fail_cast(typeid(T));
  }
  const std::type_info& type_info() const noexcept { return content_->type_info; }

 private:
  struct Placeholder {
    explicit Placeholder(const std::type_info& type) noexcept : type_info(type) {}
    virtual ~Placeholder() = default;
    virtual std::unique_ptr<Placeholder> clone() const = 0;
    const std::type_info& type_info;
  };
  template <class T>
  struct Holder final : Placeholder {
    template <class U>
    explicit Holder(U&& held) : Placeholder(typeid(T)), value(std::forward<U>(held)) {}
    std::unique_ptr<Placeholder> clone() const override { return std::make_unique<Holder>(value); }
    T value;
  };

  [[noreturn]] void fail_cast(const std::type_info& requested) const;

  std::unique_ptr<Placeholder> content_;
};

}  // namespace ember::nn
