// ReduceOutputs: where a reduction writes, and the step every reduce loop ends with (the CPU's and
// the GPU's block program): project an output's accumulator and store it as the output's storage
// type. Compiled by g++ and nvcc.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ember/macros.h"
#include "kernels/functors.h"
#include "kernels/reduce_functors.h"

namespace ember::kernels {

// Out: the values' storage type.
template <class Out>
struct ReduceOutputs {
  Out* values;       // null when only indices are wanted (argmax)
  int64_t* indices;  // the arg-extremum ops only; null when only values are wanted (amax)

  template <class Ops>
  EMBER_HOST_DEVICE void store(int64_t at, const Ops& ops, const acc_of<Ops>& acc) const {
    const auto result = ops.project(acc);
    if constexpr (IsValueIndex<std::remove_cv_t<decltype(result)>>::value) {
      if (values) values[at] = convert<Out>(result.value);
      if (indices) indices[at] = result.index;
    } else {
      values[at] = convert<Out>(result);
    }
  }
};

}  // namespace ember::kernels
