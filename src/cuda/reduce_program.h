// The CUDA reduction minus the launch: the functor each ReduceKind and dtype runs, the launch plan
// chosen on the host, and the block program of one launch (Note [Block programs]). Compiled by
// g++ and nvcc; tests/cuda/reduce_emulated_test.cpp runs it on the host.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "cuda/block_program.h"
#include "ember/macros.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/reduce_dispatch.h"
#include "kernels/reduce_functors.h"
#include "kernels/reduce_geometry.h"
#include "kernels/reduce_iter.h"
#include "kernels/reduce_output.h"
#include "kernels/reduce_stubs.h"

namespace ember::cuda {

// Note [CUDA reduction plan]
// Output o folds the reduced elements of its ReduceIter line; the lanes of its block line (see
// BlockShape) take every lanes()-th element, kReduceLoads loads in flight per thread, then
// combine_lanes merges them. When the outputs alone make too few blocks to fill the GPU, each
// output's elements are also cut into `splits` ranges, one per block along grid.y: those blocks
// write partial accumulators, and a second launch folds them per output in split order. The
// functors make every split and order valid (kernels/reduce_functors.h); integer, bool and
// arg-extremum results are therefore exactly the CPU's, floating ones differ only by rounding.
inline constexpr int kReduceLoads = 4;
inline constexpr int64_t kReduceMinFold = 16;  // elements per thread before splitting further pays
inline constexpr int64_t kReduceBlocksPerSm = 4;
inline constexpr int64_t kReduceMaxSplits = 1024;
inline constexpr int kReduceFinishThreads = 128;

using kernels::acc_of;
using kernels::ReduceGeometry;
using kernels::ReduceOutputs;

struct ReducePlan {
  BlockShape shape;
  int64_t output_blocks = 1;  // grid.x
  int64_t splits = 1;         // grid.y
  int64_t split_size = 0;     // reduced elements per split, whole rounds of the lanes
};

inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// `sm_count`: the GPU's multiprocessors, which the splits aim to keep busy.
inline ReducePlan plan_reduce(const ReduceGeometry& g, int sm_count) {
  // Lanes along the reduced elements, unless the lanes of an outer reduction read neighbouring
  // outputs' elements together.
  const bool along_x = !g.is_outer_reduction();
  ReducePlan plan;
  plan.shape = block_shape(g.reduced_numel, g.num_outputs, along_x);
  plan.output_blocks = ceil_div(g.num_outputs, plan.shape.lines());
  const int64_t lanes = plan.shape.lanes();
  const int64_t wanted = kReduceBlocksPerSm * std::max(sm_count, 1);
  int64_t splits = 1;
  if (plan.output_blocks < wanted)
    splits = std::clamp(std::min(ceil_div(wanted, plan.output_blocks),
                                 ceil_div(g.reduced_numel, lanes * kReduceMinFold)),
                        int64_t{1}, kReduceMaxSplits);
  plan.split_size = ceil_div(ceil_div(g.reduced_numel, splits), lanes) * lanes;
  plan.splits = plan.split_size == 0 ? 1 : ceil_div(g.reduced_numel, plan.split_size);
  return plan;
}

// What one launch needs, passed by value as the kernels' parameter. T: the input's storage type;
// Out: the values' storage type.
template <class T, class Out, class Ops>
struct ReduceArgs {
  const T* input;
  ReduceOutputs<Out> outputs;
  acc_of<Ops>* partials;  // [splits][num_outputs], set by the launcher when splits > 1
  ReduceGeometry geometry;
  ReducePlan plan;
  Ops ops;
};

template <class T, class Out, class Ops>
ReduceArgs<T, Out, Ops> make_reduce_args(const kernels::ReduceIter& it, const Ops& ops,
                                         int sm_count) {
  ReduceArgs<T, Out, Ops> args{reinterpret_cast<const T*>(it.input),
                               {reinterpret_cast<Out*>(it.values), it.indices},
                               nullptr,
                               it.geometry,
                               {},
                               ops};
  args.plan = plan_reduce(args.geometry, sm_count);
  return args;
}

// Dynamic shared memory of a block (combine_lanes').
template <class T, class Out, class Ops>
size_t shared_bytes(const ReduceArgs<T, Out, Ops>& a) {
  return static_cast<size_t>(a.plan.shape.threads()) * sizeof(acc_of<Ops>);
}

// Folds the elements of output o's split `split` that lane `lane` takes.
template <class T, class Out, class Ops>
EMBER_HOST_DEVICE acc_of<Ops> fold_thread(const ReduceArgs<T, Out, Ops>& a, int64_t o,
                                          int64_t split, int lane) {
  using M = kernels::opmath_t<T>;
  const ReduceGeometry& g = a.geometry;
  const T* in = a.input + g.kept_offsets(o).in;
  const int64_t step = a.plan.shape.lanes();
  const int64_t split_end = (split + 1) * a.plan.split_size;
  const int64_t end = split_end < g.reduced_numel ? split_end : g.reduced_numel;
  acc_of<Ops> acc = a.ops.identity();
  int64_t i = split * a.plan.split_size + lane;
  for (; i + (kReduceLoads - 1) * step < end; i += kReduceLoads * step) {
    M x[kReduceLoads];  // all loads issued before the first fold, so their latencies overlap
    for (int k = 0; k < kReduceLoads; ++k)
      x[k] = static_cast<M>(in[g.reduced_offset(i + k * step)]);
    for (int k = 0; k < kReduceLoads; ++k) acc = a.ops.reduce(acc, x[k], i + k * step);
  }
  for (; i < end; i += step) acc = a.ops.reduce(acc, static_cast<M>(in[g.reduced_offset(i)]), i);
  return acc;
}

// Writes output o's result.
template <class T, class Out, class Ops>
EMBER_HOST_DEVICE void store_output(const ReduceArgs<T, Out, Ops>& a, int64_t o,
                                    const acc_of<Ops>& acc) {
  a.outputs.store(a.geometry.kept_offsets(o).out, a.ops, acc);
}

// Block (block, split) of the reduction: plan.shape.lines() outputs, one split of each.
template <class B, class T, class Out, class Ops>
EMBER_HOST_DEVICE void reduce_block(B& b, const ReduceArgs<T, Out, Ops>& a, int64_t block,
                                    int64_t split) {
  const BlockShape& shape = a.plan.shape;
  const int64_t num_outputs = a.geometry.num_outputs;
  auto acc = b.template regs<acc_of<Ops>>();
  b.each([&](int t) {
    const int64_t o = block * shape.lines() + shape.line_of(t);
    acc[t] = o < num_outputs ? fold_thread(a, o, split, shape.lane_of(t)) : a.ops.identity();
  });
  combine_lanes(b, shape, a.ops, acc);
  b.each([&](int t) {
    const int64_t o = block * shape.lines() + shape.line_of(t);
    if (shape.lane_of(t) != 0 || o >= num_outputs) return;
    if (a.plan.splits == 1) store_output(a, o, acc[t]);
    else a.partials[split * num_outputs + o] = acc[t];
  });
}

// The second launch when plan.splits > 1: one thread per output.
template <class T, class Out, class Ops>
EMBER_HOST_DEVICE void finish_output(const ReduceArgs<T, Out, Ops>& a, int64_t o) {
  const int64_t num_outputs = a.geometry.num_outputs;
  acc_of<Ops> acc = a.partials[o];
  for (int64_t s = 1; s < a.plan.splits; ++s)
    acc = a.ops.combine(acc, a.partials[s * num_outputs + o]);
  store_output(a, o, acc);
}

}  // namespace ember::cuda
