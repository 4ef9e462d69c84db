// TensorOptions: dtype, device and requires_grad for factories, built implicitly from either.
#pragma once

#include <optional>

#include "ember/device.h"
#include "ember/dtype.h"

namespace ember {

class TensorOptions {
 public:
  TensorOptions() = default;
  TensorOptions(Device d) : device_(d) {}            // NOLINT: ones({2}, try_gpu())
  TensorOptions(DeviceType t) : device_(Device(t)) {}  // NOLINT: ones({2}, kCUDA)
  TensorOptions(const char* d) : device_(Device(d)) {}  // NOLINT: ones({2}, "cuda:1")
  TensorOptions(DType t) : dtype_(t) {}               // NOLINT: ones({2}, kInt64)

  TensorOptions dtype(DType t) const {
    TensorOptions o = *this;
    o.dtype_ = t;
    return o;
  }
  TensorOptions device(Device d) const {
    TensorOptions o = *this;
    o.device_ = d;
    return o;
  }
  TensorOptions requires_grad(bool r) const {
    TensorOptions o = *this;
    o.requires_grad_ = r;
    return o;
  }

  DType dtype() const { return dtype_.value_or(kFloat32); }
  Device device() const { return device_.value_or(Device::cpu()); }
  bool requires_grad() const { return requires_grad_; }
  bool has_dtype() const { return dtype_.has_value(); }
  bool has_device() const { return device_.has_value(); }
  std::optional<DType> dtype_opt() const { return dtype_; }

 private:
  std::optional<DType> dtype_;
  std::optional<Device> device_;
  bool requires_grad_ = false;
};

// Free-function builders, as in LibTorch: ember::dtype(kInt64).device("cuda").
inline TensorOptions dtype(DType t) { return TensorOptions(t); }
inline TensorOptions device(Device d) { return TensorOptions(d); }

}  // namespace ember
