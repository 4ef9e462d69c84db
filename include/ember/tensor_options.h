// TensorOptions: what a factory makes (dtype, device, layout, requires_grad, pinned memory,
// memory format), as LibTorch's c10::TensorOptions: built implicitly from any one of them, each
// setter returning a changed copy, each unset field answering its default.
#pragma once

#include <iosfwd>
#include <optional>
#include <type_traits>
#include <utility>

#include "ember/device.h"
#include "ember/dtype.h"
#include "ember/layout.h"
#include "ember/macros.h"
#include "ember/memory_format.h"

namespace ember {

class EMBER_API TensorOptions {
 public:
  TensorOptions() = default;
  TensorOptions(Layout layout) : layout_(layout) {}                             // NOLINT
  TensorOptions(TypeMeta dtype) : dtype_(dtype) {}                              // NOLINT
  TensorOptions(ScalarType dtype) : dtype_(TypeMeta::fromScalarType(dtype)) {}  // NOLINT
  TensorOptions(MemoryFormat format) : memory_format_(format) {}                // NOLINT
  // Anything a Device is made from: ones({2}, kCUDA), ones({2}, "cuda:1"), TensorOptions(kCUDA, 1).
  template <class... Args>
  requires std::is_constructible_v<Device, Args&&...> TensorOptions(Args&&... args)
      : device_(Device(std::forward<Args>(args)...)) {}  // NOLINT

  // ---- setters: a copy with one field changed (nullopt unsets it)
  [[nodiscard]] TensorOptions device(std::optional<Device> device) const noexcept {
    TensorOptions o = *this;
    o.device_ = device;
    return o;
  }
  template <class... Args>
  requires std::is_constructible_v<Device, Args&&...>
  [[nodiscard]] TensorOptions device(Args&&... args) const {
    return device(std::optional<Device>(Device(std::forward<Args>(args)...)));
  }
  [[nodiscard]] TensorOptions device_index(int16_t index) const {
    return device(Device(DeviceType::CUDA, index));
  }
  [[nodiscard]] TensorOptions dtype(std::optional<TypeMeta> dtype) const noexcept {
    TensorOptions o = *this;
    o.dtype_ = dtype;
    return o;
  }
  [[nodiscard]] TensorOptions dtype(std::optional<ScalarType> dtype) const noexcept {
    return this->dtype(dtype ? std::optional<TypeMeta>(TypeMeta::fromScalarType(*dtype))
                             : std::nullopt);
  }
  [[nodiscard]] TensorOptions dtype(ScalarType dtype) const noexcept {
    return this->dtype(std::optional<TypeMeta>(TypeMeta::fromScalarType(dtype)));
  }
  // In place, as LibTorch's: opts.dtype<float>().
  template <class T>
  TensorOptions& dtype() {
    dtype_ = TypeMeta::Make<T>();
    return *this;
  }
  [[nodiscard]] TensorOptions layout(std::optional<Layout> layout) const noexcept {
    TensorOptions o = *this;
    o.layout_ = layout;
    return o;
  }
  [[nodiscard]] TensorOptions requires_grad(std::optional<bool> requires_grad) const noexcept {
    TensorOptions o = *this;
    o.requires_grad_ = requires_grad;
    return o;
  }
  [[nodiscard]] TensorOptions pinned_memory(std::optional<bool> pinned) const noexcept {
    TensorOptions o = *this;
    o.pinned_memory_ = pinned;
    return o;
  }
  [[nodiscard]] TensorOptions memory_format(std::optional<MemoryFormat> format) const noexcept {
    TensorOptions o = *this;
    o.memory_format_ = format;
    return o;
  }

  // ---- getters: the field, or its default (cpu, the default dtype, strided, false)
  Device device() const noexcept { return device_.value_or(Device(DeviceType::CPU)); }
  int32_t device_index() const noexcept { return device().index(); }
  TypeMeta dtype() const noexcept;
  Layout layout() const noexcept { return layout_.value_or(kStrided); }
  bool requires_grad() const noexcept { return requires_grad_.value_or(false); }
  bool pinned_memory() const noexcept { return pinned_memory_.value_or(false); }
  bool is_sparse() const noexcept { return layout() == Layout::Sparse; }
  bool is_sparse_csr() const noexcept { return layout() == Layout::SparseCsr; }

  bool has_device() const noexcept { return device_.has_value(); }
  bool has_dtype() const noexcept { return dtype_.has_value(); }
  bool has_layout() const noexcept { return layout_.has_value(); }
  bool has_requires_grad() const noexcept { return requires_grad_.has_value(); }
  bool has_pinned_memory() const noexcept { return pinned_memory_.has_value(); }
  bool has_memory_format() const noexcept { return memory_format_.has_value(); }
  std::optional<Device> device_opt() const noexcept { return device_; }
  std::optional<TypeMeta> dtype_opt() const noexcept { return dtype_; }
  std::optional<Layout> layout_opt() const noexcept { return layout_; }
  std::optional<bool> requires_grad_opt() const noexcept { return requires_grad_; }
  std::optional<bool> pinned_memory_opt() const noexcept { return pinned_memory_; }
  std::optional<MemoryFormat> memory_format_opt() const noexcept { return memory_format_; }

  // These options with each field `options` sets taking its value.
  [[nodiscard]] TensorOptions merge_in(const TensorOptions& options) const noexcept;
  [[nodiscard]] TensorOptions merge_memory_format(
      std::optional<MemoryFormat> format) const noexcept {
    return format ? memory_format(format) : *this;
  }
  // Whether both make tensors of the same dtype, device and layout.
  bool type_equal(const TensorOptions& other) const noexcept {
    return dtype() == other.dtype() && device() == other.device() && layout() == other.layout();
  }

 private:
  std::optional<Device> device_;
  std::optional<TypeMeta> dtype_;
  std::optional<Layout> layout_;
  std::optional<bool> requires_grad_;
  std::optional<bool> pinned_memory_;
  std::optional<MemoryFormat> memory_format_;
};

// "TensorOptions(dtype=float, device=cpu, layout=Strided, requires_grad=false (default), ...)",
// as LibTorch prints it.
EMBER_API std::ostream& operator<<(std::ostream& os, const TensorOptions& options);

// Free builders, as in LibTorch: ember::dtype(kInt64).device("cuda"), requires_grad().
inline TensorOptions dtype(TypeMeta dtype) { return TensorOptions().dtype(dtype); }
inline TensorOptions dtype(ScalarType dtype) { return TensorOptions().dtype(dtype); }
template <class T>
TensorOptions dtype() {
  return dtype(TypeMeta::Make<T>());
}
inline TensorOptions layout(Layout layout) { return TensorOptions().layout(layout); }
inline TensorOptions device(Device device) { return TensorOptions().device(device); }
inline TensorOptions device_index(int16_t index) { return TensorOptions().device_index(index); }
inline TensorOptions requires_grad(bool requires_grad = true) {
  return TensorOptions().requires_grad(requires_grad);
}
inline TensorOptions memory_format(MemoryFormat format) {
  return TensorOptions().memory_format(format);
}

}  // namespace ember
