// The CPU reduction kernel: the dtype switch over reduce_typed, whose instantiations live in the
// reduce_*_kernels.cpp files (Note [Reduction compile units] in cpu/reduce_kernels.h).
#include "cpu/reduce_kernels.h"

#include "cpu/kernels.h"
#include "cpu/vector_copy.h"  // compiled once per CPU capability
#include "kernels/dtype_dispatch.h"
#include "kernels/reduce_stubs.h"

namespace ember::cpu::EMBER_CPU_CAPABILITY {

void reduce_kernel(const kernels::ReduceIter& it, kernels::ReduceKind kind,
                   const kernels::ReduceParams& params) {
#ifdef EMBER_CPU_VECTOR_COPY
  if (it.input_dtype == kFloat32) return reduce_typed<float>(it, kind, params);
  if (it.input_dtype == kFloat64) return reduce_typed<double>(it, kind, params);
  baseline::reduce_kernel(it, kind, params);
#else
  kernels::dispatch_dtype(it.input_dtype, "reduction", [&](auto tag) {
    reduce_typed<typename decltype(tag)::type>(it, kind, params);
  });
#endif
}

void register_reduce_kernels() { kernels::reduce_stub.set(DeviceType::CPU, &reduce_kernel); }

}  // namespace ember::cpu::EMBER_CPU_CAPABILITY
