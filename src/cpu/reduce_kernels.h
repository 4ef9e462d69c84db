// The CPU reduction of one input element type, declared for reduce_kernels.cpp's dtype switch
// and defined in cpu/reduce_loop.h (Note [Reduction compile units]).
#pragma once

#include "cpu/vector_copy.h"  // compiled once per CPU capability
#include "kernels/reduce_iter.h"
#include "kernels/reduce_stubs.h"

namespace ember::cpu::EMBER_CPU_CAPABILITY {

// Note [Reduction compile units]
// In one file, every dtype's reductions were the library's longest compile (32 s of CPU on this
// project's 2-core machine, then 17 s for each vector copy), which a build on more cores waited
// for alone. So the instantiations of reduce_typed are split by dtype family: each
// reduce_{float,half,integer}_kernels.cpp instantiates it explicitly for its dtypes (at most
// 12 s each), reduce_kernels.cpp holds the dtype switch and sees only the declaration below,
// softmax has a file of its own, and the vector copies compile only the float file, the softmax
// file and the switch (Note [Reductions in the vector copies] in cpu/reduce_loop.h).

// kernels::dispatch_reduce_typed<T> with the CPU reduce loop.
template <class T>
void reduce_typed(const kernels::ReduceIter& it, kernels::ReduceKind kind,
                  const kernels::ReduceParams& params);

}  // namespace ember::cpu::EMBER_CPU_CAPABILITY
