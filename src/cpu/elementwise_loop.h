// The Loop policy through which each copy of the CPU's elementwise kernel files
// (binary_kernels.cpp, unary_kernels.cpp) runs kernels/elementwise_kernels.h. Include it after
// cpu/vector_copy.h, which names the copy.
#pragma once

#include <type_traits>

#include "cpu/loops.h"
#include "cpu/vector_copy.h"

namespace ember::cpu {
namespace baseline {
struct ElementwiseLoop;
}

namespace EMBER_CPU_CAPABILITY {

// A type of each copy's own, so that every kernel template instantiated with it is that copy's
// symbol, compiled with its flags: two copies never meet in one weak symbol, of which the linker
// would keep just one.
struct ElementwiseLoop {
  template <class Out, class... In, class F>
  static void run(const char* op, const TensorIter& it, const F& f) {
    CpuLoop::run<Out, In...>(op, it, f);
  }
#ifdef EMBER_CPU_VECTOR_COPY
  // Note [Partial kernel copies]
  template <class T>
  static constexpr bool kServes = std::is_same_v<T, float> || std::is_same_v<T, double>;
  using Fallback = baseline::ElementwiseLoop;
#endif
};

}  // namespace EMBER_CPU_CAPABILITY
}  // namespace ember::cpu
