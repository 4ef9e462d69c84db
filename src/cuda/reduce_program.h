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
// write partial accumulators, and a second launch folds them: its blocks see the partials
// [splits][outputs] as an outer reduction, lanes across the splits (one output: the whole block
// on it, rather than one thread reading every partial in turn, which took 26 us of a 64 MiB sum's
// 77 on an H200). The functors make every split and order valid (kernels/reduce_functors.h);
// integer, bool and arg-extremum results are therefore exactly the CPU's, floating ones differ
// only by rounding.
inline constexpr int kReduceLoads = 4;
inline constexpr int64_t kReduceMinFold = 16;  // elements per thread before splitting further pays
inline constexpr int64_t kReduceBlocksPerSm = 3;  // the blocks the splits aim for: one full wave
inline constexpr int64_t kReduceMaxSplits = 1024;

using kernels::acc_of;
using kernels::ReduceGeometry;
using kernels::ReduceOutputs;

// The blocks of 512 threads that an SM must hold at once, which caps the kernel's registers at
// 40: left to itself nvcc gave a float sum 42, so 2 blocks fitted (50 % occupancy) and a 64 MiB
// sum read 1.36 TB/s on an H200 under ncu, against PyTorch's 2.9 at 100 %. Four blocks (32
// registers) made nvcc spill. Wider accumulators (double, Welford's, an index beside the value)
// keep what they need.
template <class Ops>
constexpr int reduce_min_blocks() {
  return sizeof(acc_of<Ops>) <= 4 ? static_cast<int>(kReduceBlocksPerSm) : 1;
}

struct ReducePlan {
  BlockShape shape;
  int64_t output_blocks = 1;  // grid.x
  int64_t splits = 1;         // grid.y
  int64_t split_size = 0;     // reduced elements per split, whole rounds of the lanes
  BlockShape finish_shape;    // the second launch's blocks, when splits > 1
  int64_t finish_blocks = 0;
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
  if (plan.splits > 1) {
    plan.finish_shape = block_shape(plan.splits, g.num_outputs, /*along_x=*/false);
    plan.finish_blocks = ceil_div(g.num_outputs, plan.finish_shape.lines());
  }
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

// Dynamic shared memory of a block of `shape` (combine_lanes').
template <class T, class Out, class Ops>
size_t shared_bytes(const ReduceArgs<T, Out, Ops>&, const BlockShape& shape) {
  return static_cast<size_t>(shape.threads()) * sizeof(acc_of<Ops>);
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
  for_strided_loads<kReduceLoads>(
      split * a.plan.split_size + lane, end, step,
      [&](int64_t i) { return static_cast<M>(in[g.reduced_offset(i)]); },
      [&](M x, int64_t i) { acc = a.ops.reduce(acc, x, i); });
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

// Block `block` of the second launch when plan.splits > 1: finish_shape.lines() outputs, each
// folding its partials with the lanes.
template <class B, class T, class Out, class Ops>
EMBER_HOST_DEVICE void finish_block(B& b, const ReduceArgs<T, Out, Ops>& a, int64_t block) {
  const BlockShape& shape = a.plan.finish_shape;
  const int64_t num_outputs = a.geometry.num_outputs;
  auto acc = b.template regs<acc_of<Ops>>();
  b.each([&](int t) {
    const int64_t o = block * shape.lines() + shape.line_of(t);
    acc_of<Ops> v = a.ops.identity();
    if (o < num_outputs)
      for (int64_t s = shape.lane_of(t); s < a.plan.splits; s += shape.lanes())
        v = a.ops.combine(v, a.partials[s * num_outputs + o]);
    acc[t] = v;
  });
  combine_lanes(b, shape, a.ops, acc);
  b.each([&](int t) {
    const int64_t o = block * shape.lines() + shape.line_of(t);
    if (shape.lane_of(t) == 0 && o < num_outputs) store_output(a, o, acc[t]);
  });
}

}  // namespace ember::cuda
