// The CPU reductions of integer and bool inputs, in the baseline copy only (the vector copies
// hand these dtypes to it: Note [Reduction compile units] in cpu/reduce_kernels.h).
#include <cstdint>

#include "cpu/reduce_loop.h"

namespace ember::cpu::baseline {

using kernels::ReduceKind;
using kernels::ReduceParams;

template void reduce_typed<bool>(const ReduceIter&, ReduceKind, const ReduceParams&);
template void reduce_typed<uint8_t>(const ReduceIter&, ReduceKind, const ReduceParams&);
template void reduce_typed<int8_t>(const ReduceIter&, ReduceKind, const ReduceParams&);
template void reduce_typed<int16_t>(const ReduceIter&, ReduceKind, const ReduceParams&);
template void reduce_typed<int32_t>(const ReduceIter&, ReduceKind, const ReduceParams&);
template void reduce_typed<int64_t>(const ReduceIter&, ReduceKind, const ReduceParams&);

}  // namespace ember::cpu::baseline
