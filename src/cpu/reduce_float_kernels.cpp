// The CPU reductions of float32 and float64 inputs, in every CPU copy (Note [Reduction compile
// units] in cpu/reduce_kernels.h).
#include "cpu/reduce_loop.h"
#include "cpu/vector_copy.h"  // compiled once per CPU capability

namespace ember::cpu::EMBER_CPU_CAPABILITY {

using kernels::ReduceKind;
using kernels::ReduceParams;

template void reduce_typed<float>(const ReduceIter&, ReduceKind, const ReduceParams&);
template void reduce_typed<double>(const ReduceIter&, ReduceKind, const ReduceParams&);

}  // namespace ember::cpu::EMBER_CPU_CAPABILITY
