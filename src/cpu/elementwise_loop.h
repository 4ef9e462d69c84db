// The Loop policy through which each copy of the CPU's elementwise kernel files
// (binary_kernels.cpp, unary_kernels.cpp) runs kernels/elementwise_kernels.h: this copy's
// CpuLoop (Note [Loops per CPU capability]), which in a vector copy serves the plain arithmetic
// of float32 and float64 only and hands the rest to the baseline copy (Note [Partial kernel
// copies]).
#pragma once

#include <type_traits>

#include "cpu/loops.h"

namespace ember::cpu {
namespace baseline {
struct ElementwiseLoop;
}

namespace EMBER_CPU_CAPABILITY {

struct ElementwiseLoop : CpuLoop {
#ifdef EMBER_CPU_VECTOR_COPY
  template <class T, bool kArithmetic>
  static constexpr bool kServes = kArithmetic &&
                                  (std::is_same_v<T, float> || std::is_same_v<T, double>);
  using Fallback = baseline::ElementwiseLoop;
#endif
};

}  // namespace EMBER_CPU_CAPABILITY
}  // namespace ember::cpu
