// The CUDA elementwise loop on the host (Note [Emulated GPU loop] in
// src/cuda/elementwise_program.h), over the iterators the library itself builds.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "cuda/elementwise_program.h"
#include "ember/ember.h"
#include "kernels/tensor_iter.h"

namespace ember::test {

// GpuLoop (src/cuda/loops.cuh) with the launch replaced by a loop over every block and thread:
// the same plan and per-thread program, as a Loop policy like cpu::CpuLoop.
struct EmulatedGpuLoop {
  template <class Out, class... In, class F>
  static void run(const char* /*op*/, const kernels::TensorIter& it, const F& f) {
    if (it.numel == 0) return;
    cuda::plan_elementwise<Out, In...>(it, [&](const auto& args, int64_t blocks) {
      using index_t = decltype(args.numel);
      for (int64_t b = 0; b < blocks; ++b)
        for (int t = 0; t < cuda::kThreadsPerBlock; ++t)
          cuda::elementwise_thread(cuda::ElementTypes<Out, In...>{}, args, f,
                                   static_cast<index_t>(b), t);
    });
  }
};

// kernels::make_iter writing `out` from `inputs` in their own dtypes, as copy_, sort and the
// index ops build theirs: broadcast, and with dims coalesced. The index ops turn the overlap
// checks off for their deliberate stride-0 views.
inline kernels::TensorIter iter_for(const Tensor& out, std::initializer_list<Tensor> inputs,
                                    bool check_mem_overlap = true) {
  return kernels::make_iter({"emulated",
                             out.scalar_type(),
                             out.scalar_type(),
                             /*convert_inputs=*/false,
                             {},
                             check_mem_overlap},
                            out, inputs);
}

}  // namespace ember::test
