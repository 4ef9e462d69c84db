// The CPU reductions of float16 and bfloat16 inputs, in the baseline copy only (the vector copies
// hand these dtypes to it: Note [Reduction compile units] in cpu/reduce_kernels.h).
#include "cpu/reduce_loop.h"
#include "ember/half.h"

namespace ember::cpu::baseline {

using kernels::ReduceKind;
using kernels::ReduceParams;

template void reduce_typed<Half>(const ReduceIter&, ReduceKind, const ReduceParams&);
template void reduce_typed<BFloat16>(const ReduceIter&, ReduceKind, const ReduceParams&);

}  // namespace ember::cpu::baseline
