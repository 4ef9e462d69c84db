// The CUDA shape kernels' per-thread work run on the host for every thread: gather, scatter and
// scatter_add (src/cuda/scatter_gather_program.h) against the CPU ops, out-of-range indices
// reported through the kernel-error record and raised as the CPU raises them, and the bitonic
// sort of src/cuda/sort_program.h, both its shared-memory block program and its global-memory
// launches, against the CPU's sort and topk (NaN order, ties by position, descending, strided
// slices), and the geometry of advanced indexing (ops/advanced_index.h) through the same loop.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cuda/emulated_gpu_loop.h"
#include "cuda/kernel_error.h"
#include "cuda/scatter_gather_program.h"
#include "cuda/sort_program.h"
#include "ember/ember.h"
#include "ops/advanced_index.h"
#include "test_util.h"

namespace ember {
namespace {

using kernels::IndexOp;
using kernels::TensorIter;

// `t` cut to `shape`, with stride 0 along `dim` when `restride` (the base each element adds
// index * stride to, as the front half's restride()).
Tensor view_for(const Tensor& t, IntArrayRef shape, int64_t dim, bool restride) {
  Tensor v = t;
  for (int64_t d = 0; d < t.dim(); ++d)
    v = v.narrow(d, 0, d == dim && restride ? 1 : shape[static_cast<size_t>(d)]);
  return restride ? v.expand(shape) : v;
}

// shape_kernels.cu's scatter_gather launch, one thread per element, run on the host with a
// sequential scatter_add. An out-of-range index is reported through a kernel-error record as on
// the GPU; returns the message the host raises for it.
template <class T, IndexOp op>
std::optional<std::string> emulate(const TensorIter& it, const kernels::IndexBounds& bounds,
                                   int64_t dim_stride) {
  unsigned long long claimed = 0;
  cuda::KernelErrorRecord record{};
  const cuda::KernelErrorSlot error = cuda::make_kernel_error_slot(&claimed, &record, 1, bounds);
  auto run = [&]<class index_t>() {
    const auto args = cuda::make_scatter_gather_args<index_t>(it, bounds.size, dim_stride);
    auto add = [](T* dst, T v) { *dst = cuda::scatter_add_value(*dst, v); };
    for (index_t i = 0; i < args.numel; ++i) {
      int64_t index = 0;
      if (!cuda::scatter_gather_element<T, op>(args, i, add, index)) error.report(index);
    }
  };
  if (kernels::fits_32bit_indexing(it)) run.template operator()<uint32_t>();
  else run.template operator()<int64_t>();
  kernels::IndexBounds reported{};
  int64_t value = 0;
  if (!cuda::take_kernel_error(record, reported, value)) return std::nullopt;
  return test::error_of<IndexError>([&] { kernels::raise_out_of_bounds(reported, value); });
}

template <class T>
Tensor emulate_gather(const Tensor& x, int64_t dim, const Tensor& index,
                      std::optional<std::string>* error = nullptr) {
  Tensor out = empty(index.sizes(), x.scalar_type());
  // The index ops' iterator (src/ops/index.cpp): its views have stride 0 along dim on purpose.
  TensorIter it = test::iter_for(out, {view_for(x, index.sizes(), dim, true), index},
                                 /*check_mem_overlap=*/false);
  auto message = emulate<T, IndexOp::Gather>(it, kernels::bounds_of("gather", dim, x.size(dim)),
                                             x.stride(dim) * int64_t{sizeof(T)});
  if (error) *error = message;
  return out;
}

template <class T, IndexOp op>
Tensor emulate_scatter(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src) {
  Tensor out = x.clone();
  TensorIter it = test::iter_for(view_for(out, index.sizes(), dim, true),
                                 {view_for(src, index.sizes(), dim, false), index},
                                 /*check_mem_overlap=*/false);
  EXPECT_FALSE((emulate<T, op>(it, kernels::bounds_of("scatter", dim, out.size(dim)),
                               out.stride(dim) * int64_t{sizeof(T)})));
  return out;
}

void expect_identical(const Tensor& got, const Tensor& want, const std::string& what) {
  ASSERT_EQ(got.sizes(), want.sizes()) << what;
  ASSERT_EQ(got.scalar_type(), want.scalar_type()) << what;
  const bool same = isFloatingType(want.scalar_type())
                        ? allclose(got, want, 0, 0, /*equal_nan=*/true)
                        : equal(got, want);
  EXPECT_TRUE(same) << what << "\nemulated " << got << "\ncpu " << want;
}

// A random index into a dim of `size` for every element of `shape`.
Tensor index_for(IntArrayRef shape, int64_t size) { return randint(0, size, shape); }
// Distinct indices along `dim` (a permutation of [0, shape[dim])): scatter with duplicates keeps
// an unspecified one of them on the GPU.
Tensor unique_index_for(IntArrayRef shape, int64_t dim) { return argsort(rand(shape), dim); }

template <class T>
void check_index_ops(ScalarType dtype) {
  SCOPED_TRACE(toString(dtype));
  // Integer-valued data: scatter_add's sums are exact in any order.
  Tensor x = randint(-4, 5, {5, 6, 4}).to(dtype);
  for (int64_t dim : {0, 1, 2}) {
    std::vector<int64_t> shape = {4, 3, 4};
    Tensor index = index_for(shape, x.size(dim));
    expect_identical(emulate_gather<T>(x, dim, index), gather(x, dim, index), "gather");
    // A transposed x: strided sources.
    Tensor xt = x.transpose(0, 2).contiguous().transpose(0, 2);
    expect_identical(emulate_gather<T>(xt, dim, index), gather(xt, dim, index), "gather strided");
    Tensor src = randint(-4, 5, {5, 6, 5}).to(dtype);
    expect_identical(emulate_scatter<T, IndexOp::ScatterAdd>(x, dim, index, src),
                     scatter_add(x, dim, index, src), "scatter_add");
    Tensor unique = unique_index_for(shape, dim);  // shape[dim] <= x.size(dim)
    expect_identical(emulate_scatter<T, IndexOp::Scatter>(x, dim, unique, src),
                     scatter(x, dim, unique, src), "scatter");
  }
}

TEST(ShapeEmulated, GatherScatterEveryDtype) {
  manual_seed(41);
  check_index_ops<float>(kFloat32);
  check_index_ops<double>(kFloat64);
  check_index_ops<Half>(kFloat16);
  check_index_ops<BFloat16>(kBFloat16);
  check_index_ops<int64_t>(kInt64);
  check_index_ops<int32_t>(kInt32);
  check_index_ops<int16_t>(kInt16);
  check_index_ops<int8_t>(kInt8);
  check_index_ops<uint8_t>(kUInt8);
}

// Tensor::index and index_put_(..., accumulate) as the GPU runs them: the gather/scatter loop
// over the geometry advanced_index builds, one element as the dim stride and any offset in range.
TEST(ShapeEmulated, AdvancedIndexGeometry) {
  const Tensor x = arange(24, kFloat32).view({2, 3, 4}).transpose(1, 2);  // strided, [2, 4, 3]
  const std::vector<Tensor> separated = {tensor({1, 0, 1}), Tensor(), tensor({{2}, {-1}})};
  const kernels::IndexBounds any =
      kernels::bounds_of("index", 0, std::numeric_limits<int64_t>::max());
  const ops::AdvancedIndex read = ops::advanced_index("index", x, separated);
  Tensor out = empty(read.strided.sizes(), kFloat32);
  TensorIter it = test::iter_for(out, {read.strided, read.offsets}, /*check_mem_overlap=*/false);
  EXPECT_FALSE((emulate<float, IndexOp::Gather>(it, any, sizeof(float))));
  expect_identical(out, x.index({tensor({1, 0, 1}), indexing::Slice(), tensor({{2}, {-1}})}),
                   "index");

  // Repeated positions add up, as index_put_ with accumulate on the CPU.
  const std::vector<Tensor> pairs = {Tensor(), tensor({0, 3, 0}), tensor({1, 1, 1})};
  const Tensor values = arange(6, kFloat32).view({2, 3});
  Tensor emulated = zeros({2, 4, 3});
  const ops::AdvancedIndex write = ops::advanced_index("index_put_", emulated, pairs);
  TensorIter put = test::iter_for(write.strided, {values, write.offsets}, false);
  EXPECT_FALSE((emulate<float, IndexOp::ScatterAdd>(put, any, sizeof(float))));
  Tensor expected = zeros({2, 4, 3});
  expected.index_put_({std::nullopt, tensor({0, 3, 0}), tensor({1, 1, 1})}, values, true);
  expect_identical(emulated, expected, "index_put_ accumulate");
}

TEST(ShapeEmulated, ScatterAddBoolIsLogicalOr) {
  Tensor x = tensor({false, false, true});
  Tensor index = tensor({0, 0, 1, 1});
  Tensor src = tensor({false, true, false, false});
  expect_identical(emulate_scatter<bool, IndexOp::ScatterAdd>(x, 0, index, src),
                   scatter_add(x, 0, index, src), "scatter_add bool");
}

TEST(ShapeEmulated, OutOfRangeIndexIsRaisedAsOnTheCpu) {
  Tensor x = arange(12, kFloat32).view({3, 4});
  for (int64_t bad_value : {3, -1, 100}) {
    Tensor index = tensor({{0, 1, 2, 0}, {1, bad_value, 0, 2}});
    std::optional<std::string> error;
    (void)emulate_gather<float>(x, 0, index, &error);
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(*error, "[gather] index " + std::to_string(bad_value) +
                          " is out of bounds for dimension 0 with size 3");
    EXPECT_EQ(*error, test::error_of<IndexError>([&] { gather(x, 0, index); }));
  }
  std::optional<std::string> none;
  (void)emulate_gather<float>(x, 0, tensor({{0, 1, 2, 0}}), &none);
  EXPECT_FALSE(none.has_value());
}

// ---- sort

struct Sorted {
  Tensor values, indices;
};

// The sort kernel's two paths on the host for x along dim: the block program with a sequential
// phase, or the global-memory launches (used beyond kSortBlockMax, here run at any size).
template <class T>
Sorted emulate_sort(const Tensor& x, int64_t dim, int64_t k, bool descending, bool global) {
  std::vector<int64_t> shape = x.sizes().vec();
  shape[static_cast<size_t>(dim)] = k;
  Sorted out{empty(shape, x.scalar_type()), empty(shape, kInt64)};
  if (out.values.numel() == 0) return out;
  TensorIter it =
      test::iter_for(out.values.select(dim, 0), {x.select(dim, 0), out.indices.select(dim, 0)});
  auto bytes = [dim](const Tensor& t) { return t.stride(dim) * int64_t(t.element_size()); };
  const kernels::SortSpec spec{
      x.size(dim), k, {bytes(out.values), bytes(x), bytes(out.indices)}, descending, true};
  const cuda::SortArgs args = cuda::make_sort_args(it, spec);
  const int64_t slices = it.numel;
  if (!global) {
    EXPECT_LE(args.pow2, cuda::kSortBlockMax);
    // The block's shared memory (no std::vector: vector<bool> has no data()).
    auto values = std::make_unique<T[]>(static_cast<size_t>(args.pow2));
    auto positions = std::make_unique<int32_t[]>(static_cast<size_t>(args.pow2));
    auto phase = [](int64_t count, const auto& work) {
      for (int64_t t = 0; t < count; ++t) work(t);
    };
    for (int64_t s = 0; s < slices; ++s)
      cuda::sort_slice_in_block(args, s, values.get(), positions.get(), phase);
    return out;
  }
  auto values = std::make_unique<T[]>(static_cast<size_t>(slices * args.pow2));
  auto positions = std::make_unique<int64_t[]>(static_cast<size_t>(slices * args.pow2));
  for (int64_t e = 0; e < slices * args.pow2; ++e)
    cuda::sort_load_global(args, values.get(), positions.get(), e);
  for (cuda::BitonicStep step; step.k <= args.pow2; step = step.next())
    for (int64_t e = 0; e < slices * args.pow2 / 2; ++e)
      cuda::bitonic_exchange_global(args, values.get(), positions.get(), step.k, step.j, e);
  for (int64_t e = 0; e < slices * k; ++e)
    cuda::sort_store_global(args, values.get(), positions.get(), e);
  return out;
}

template <class T>
void check_sort(const Tensor& x, int64_t dim, const std::string& what) {
  const int64_t n = x.size(dim);
  for (bool descending : {false, true})
    for (bool global : {false, true}) {
      if (!global && cuda::sort_pow2(n) > cuda::kSortBlockMax) continue;  // the GPU goes global
      const std::string label = what + (descending ? " descending" : " ascending") +
                                (global ? " (global memory)" : " (block)");
      auto [values, indices] = sort(x, dim, descending);
      Sorted got = emulate_sort<T>(x, dim, n, descending, global);
      expect_identical(got.values, values, "sort values " + label);
      expect_identical(got.indices, indices, "sort indices " + label);
      if constexpr (std::is_same_v<T, bool>) continue;  // topk refuses bool, as PyTorch
      // topk: the first k of the same order (the GPU returns them sorted even when unsorted
      // output is allowed).
      const int64_t k = std::max<int64_t>(1, n / 3);
      auto [top, top_indices] = topk(x, k, dim, /*largest=*/descending, /*sorted=*/true);
      Sorted got_top = emulate_sort<T>(x, dim, k, descending, global);
      expect_identical(got_top.values, top, "topk values " + label);
      expect_identical(got_top.indices, top_indices, "topk indices " + label);
    }
}

TEST(ShapeEmulated, SortFloatsWithNaNZerosAndTies) {
  Tensor x = tensor({3.f, NAN, -0.f, 1.f, 0.f, -INFINITY, NAN, 1.f, INFINITY, -2.f, 0.f, 1.f});
  check_sort<float>(x, 0, "special floats");
  check_sort<double>(x.to(kFloat64), 0, "special doubles");
  check_sort<Half>(x.to(kFloat16), 0, "special halves");
  check_sort<BFloat16>(x.to(kBFloat16), 0, "special bfloat16");
}

TEST(ShapeEmulated, SortSlicesAlongEveryDim) {
  manual_seed(42);
  // Rounded values: many ties, which must keep their positions' order.
  Tensor x = round(mul(randn({4, 7, 5}), 2));
  for (int64_t dim : {0, 1, 2}) {
    check_sort<float>(x, dim, "float dim " + std::to_string(dim));
    check_sort<int64_t>(x.to(kInt64), dim, "int64 dim " + std::to_string(dim));
    check_sort<uint8_t>(abs(x).to(kUInt8), dim, "uint8 dim " + std::to_string(dim));
  }
  check_sort<float>(x.transpose(0, 2), 1, "transposed");
  check_sort<bool>(gt(x, 0), 1, "bool");
}

TEST(ShapeEmulated, SortLongSlices) {
  manual_seed(43);
  // Beyond kSortBlockMax: padding to 4096, the global path the GPU takes.
  Tensor x = round(mul(randn({2, 3000}), 100));
  check_sort<float>(x, 1, "3000 per slice");
  // A slice of exactly the block limit, and one element.
  check_sort<int32_t>(randint(-50, 50, {cuda::kSortBlockMax}, kInt32), 0, "2048");
  check_sort<float>(randn({3, 1}), 1, "one element");
}

// The network's steps: for each merge size k, the distances j from k / 2 down to 1.
TEST(ShapeEmulated, BitonicSteps) {
  std::vector<std::pair<int64_t, int64_t>> steps;
  for (cuda::BitonicStep s; s.k <= 8; s = s.next()) steps.emplace_back(s.k, s.j);
  const std::vector<std::pair<int64_t, int64_t>> expected = {{2, 1}, {4, 2}, {4, 1},
                                                             {8, 4}, {8, 2}, {8, 1}};
  EXPECT_EQ(steps, expected);
  EXPECT_EQ(cuda::sort_pow2(1), 1);
  EXPECT_EQ(cuda::sort_pow2(3000), 4096);
}

}  // namespace
}  // namespace ember
