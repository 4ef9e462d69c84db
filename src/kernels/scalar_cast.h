// scalar_cast<T>(s): a Scalar operand as a kernel's element type.
#pragma once

#include <type_traits>

#include "ember/scalar.h"
#include "kernels/functors.h"

namespace ember::kernels {

// Note [Scalars in kernels]
// A number in an op (x + 300 on int8, fill_(2.5) on int64, an alpha) converts to the kernel's
// type as a one-element tensor of its kind would (Note [Float to integer conversion]): it wraps
// or truncates, never throws, as PyTorch's wrapped-number tensors do. Scalar's own accessors
// (toInt(), to<T>()) are c10's checked ones, for users.
template <class T>
T scalar_cast(const Scalar& s) {
  if (!s.isFloatingPoint()) return convert<T>(s.toLong());
  const double d = s.toDouble();
  if constexpr (std::is_arithmetic_v<T>) {
    return convert<T>(d);
  } else {  // Half, BFloat16: through float, as the copy kernels convert
    return T(static_cast<float>(d));
  }
}

}  // namespace ember::kernels
