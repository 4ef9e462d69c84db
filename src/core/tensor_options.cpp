// TensorOptions' defaults, merging and printing.
#include "ember/tensor_options.h"

#include <ostream>

namespace ember {

TypeMeta TensorOptions::dtype() const noexcept { return dtype_.value_or(get_default_dtype()); }

TensorOptions TensorOptions::merge_in(const TensorOptions& options) const noexcept {
  TensorOptions merged = *this;
  if (options.device_) merged.device_ = options.device_;
  if (options.dtype_) merged.dtype_ = options.dtype_;
  if (options.layout_) merged.layout_ = options.layout_;
  if (options.requires_grad_) merged.requires_grad_ = options.requires_grad_;
  if (options.pinned_memory_) merged.pinned_memory_ = options.pinned_memory_;
  if (options.memory_format_) merged.memory_format_ = options.memory_format_;
  return merged;
}

namespace {
// A field as LibTorch prints it: its value, marked "(default)" when it was not set.
template <class T>
void print_field(std::ostream& os, const char* name, const T& value, bool set) {
  os << name << "=" << value << (set ? "" : " (default)");
}
}  // namespace

std::ostream& operator<<(std::ostream& os, const TensorOptions& options) {
  os << "TensorOptions(";
  print_field(os, "dtype", options.dtype(), options.has_dtype());
  os << ", ";
  print_field(os, "device", options.device(), options.has_device());
  os << ", ";
  print_field(os, "layout", options.layout(), options.has_layout());
  os << ", " << std::boolalpha;
  print_field(os, "requires_grad", options.requires_grad(), options.has_requires_grad());
  os << ", ";
  print_field(os, "pinned_memory", options.pinned_memory(), options.has_pinned_memory());
  os << ", memory_format=";
  if (options.has_memory_format()) os << *options.memory_format_opt();
  else os << "(nullopt)";
  return os << ")";
}

}  // namespace ember
