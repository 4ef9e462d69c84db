// The CUDA elementwise loop run on the host (Note [Emulated GPU loop] in
// src/cuda/elementwise_program.h): the kernel's own per-thread function and launch plan, walked
// block by block and thread by thread over the iterator kernels::make_iter builds (dims
// coalesced), must give the CPU kernels' results byte for byte, for every path (vector width 4,
// 2, 1; offsets for broadcast, strided, merged and 0-dim geometry).
#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>

#include "cuda/elementwise_program.h"
#include "cuda/emulated_gpu_loop.h"
#include "ember/ember.h"
#include "kernels/functors.h"
#include "kernels/iter_offsets.h"

namespace ember {
namespace {

using kernels::opmath_t;
using kernels::TensorIter;
using test::iter_for;

struct Path {
  int ndim = 0;  // the iterator's, after coalescing
  bool index32 = false;
  int vector_size = 0;  // 0: nothing launched
};

// The plan GpuLoop makes for `it`.
template <class Out, class... In>
Path plan_of(const TensorIter& it) {
  Path path{it.ndim};
  if (it.numel == 0) return path;
  cuda::plan_elementwise<Out, In...>(it, [&](const auto& args, int64_t /*blocks*/) {
    path.index32 = sizeof(args.numel) == 4;
    path.vector_size = args.vector_size;
  });
  return path;
}

// Runs f through the emulated loop into a fresh tensor shaped like `expected` and compares the
// bytes (NaNs included) with `expected`, the CPU kernel's result.
template <class Out, class... In, class F>
Path expect_emulated_eq(const Tensor& expected, const F& f, std::initializer_list<Tensor> inputs) {
  Tensor out = empty(expected.sizes(), TensorOptions().dtype(expected.dtype()));
  const TensorIter it = iter_for(out, inputs);
  test::EmulatedGpuLoop::run<Out, In...>("emulated", it, f);
  Tensor want = expected.contiguous();
  EXPECT_TRUE(want.nbytes() == 0 ||
              std::memcmp(out.data_ptr(), want.data_ptr(), want.nbytes()) == 0)
      << "emulated GPU loop differs from the CPU kernel for shape " << expected.sizes();
  return plan_of<Out, In...>(it);
}

template <class T>
Tensor sample(IntArrayRef shape) {
  constexpr ScalarType dtype = CppTypeToScalarType<T>::value;
  if constexpr (std::is_same_v<T, bool>) return randint(0, 2, shape).to(dtype);
  else if constexpr (std::is_integral_v<T>) return randint(-20, 20, shape).to(dtype);
  else return mul(randn(shape), 10).to(dtype);
}

// A contiguous input whose first element is `elements` past an allocation's start.
template <class T>
Tensor offset_by(int64_t elements, int64_t n) {
  return sample<T>({n + elements}).narrow(0, elements, n);
}

template <class T>
void check_add_all_geometries() {
  using M = opmath_t<T>;
  const int alpha = std::is_same_v<T, bool> ? 1 : 2;  // a bool alpha must be a bool
  const kernels::Add<M> f{static_cast<M>(alpha)};
  auto check = [&](const Tensor& a, const Tensor& b) {
    return expect_emulated_eq<T, T, T>(add(a, b, alpha), f, {a, b});
  };
  // 2053 = 4 full blocks and a tail of 5: the vector path and the offset path in one launch.
  Path dense = check(sample<T>({2053}), sample<T>({2053}));
  EXPECT_TRUE(dense.index32);
  EXPECT_EQ(dense.vector_size, 4);
  EXPECT_EQ(check(offset_by<T>(2, 2053), sample<T>({2053})).vector_size, 2);
  EXPECT_EQ(check(offset_by<T>(1, 2053), sample<T>({2053})).vector_size, 1);
  EXPECT_EQ(check(sample<T>({7, 1, 5}), sample<T>({6, 1})).vector_size, 1);  // broadcast
  EXPECT_EQ(check(sample<T>({33, 17}).transpose(0, 1), sample<T>({17, 33})).ndim, 2);
  EXPECT_EQ(check(sample<T>({}), sample<T>({})).vector_size, 1);       // 0-dim
  EXPECT_EQ(check(sample<T>({0, 3}), sample<T>({3})).vector_size, 0);  // empty
  // Dims the iterator merges, the geometry the GPU really runs: dense 3-D operands become one
  // vectorised dim; a slice of the last dim, or a row broadcast over the outer two, leave the
  // outer two merged into one.
  Path merged = check(sample<T>({6, 7, 50}), sample<T>({6, 7, 50}));
  EXPECT_EQ(merged.ndim, 1);
  EXPECT_EQ(merged.vector_size, 4);
  Path sliced = check(sample<T>({6, 7, 50}).narrow(2, 3, 30), sample<T>({6, 7, 30}));
  EXPECT_EQ(sliced.ndim, 2);
  EXPECT_EQ(sliced.vector_size, 1);
  EXPECT_EQ(check(sample<T>({6, 7, 30}), sample<T>({30})).ndim, 2);
}

TEST(ElementwiseEmulated, AddEveryGeometry) {
  check_add_all_geometries<float>();
  check_add_all_geometries<double>();
  check_add_all_geometries<Half>();
  check_add_all_geometries<BFloat16>();
  check_add_all_geometries<int64_t>();
  check_add_all_geometries<int8_t>();
  check_add_all_geometries<bool>();
}

TEST(ElementwiseEmulated, BinaryFunctors) {
  Tensor a = sample<int32_t>({3, 700}), b = add(sample<int32_t>({700}), 25);  // b > 0
  expect_emulated_eq<int32_t, int32_t, int32_t>(remainder(a, b), kernels::Remainder<int32_t>{},
                                                {a, b});
  Tensor x = sample<float>({5, 300}).transpose(0, 1), y = sample<float>({300, 1});
  expect_emulated_eq<float, float, float>(maximum(x, y), kernels::Maximum<float>{}, {x, y});
  Tensor h = sample<Half>({4, 513}), g = sample<Half>({4, 513});
  expect_emulated_eq<Half, Half, Half>(mul(h, g), kernels::Mul<float>{}, {h, g});
}

// A 1-byte output beside 4-byte inputs: the vector path's mixed element sizes.
TEST(ElementwiseEmulated, CompareWritesBool) {
  using Lt = kernels::Lt<float>;
  Tensor a = sample<float>({1500}), b = sample<float>({1500});
  EXPECT_EQ((expect_emulated_eq<bool, float, float>(lt(a, b), Lt{}, {a, b}).vector_size), 4);
  Tensor c = sample<float>({9, 1, 4}), d = sample<float>({1, 11, 1});
  expect_emulated_eq<bool, float, float>(lt(c, d), Lt{}, {c, d});
}

TEST(ElementwiseEmulated, WhereThreeInputs) {
  Tensor cond = sample<bool>({6, 1, 130}), a = sample<double>({1, 5, 130}),
         b = sample<double>({130});
  expect_emulated_eq<double, bool, double, double>(where(cond, a, b), kernels::Where<double>{},
                                                   {cond, a, b});
  Tensor c2 = sample<bool>({1030}), a2 = sample<double>({1030}), b2 = offset_by<double>(1, 1030);
  expect_emulated_eq<double, bool, double, double>(where(c2, a2, b2), kernels::Where<double>{},
                                                   {c2, a2, b2});
}

TEST(ElementwiseEmulated, UnaryCastAndFill) {
  using Exp = kernels::Exp<float>;
  Tensor x = sample<BFloat16>({2, 1025});
  expect_emulated_eq<BFloat16, BFloat16>(exp(x), Exp{}, {x});
  // copy_ with a conversion: the CUDA copy kernel's identity functor.
  auto identity = [](auto v) { return v; };
  Tensor i = sample<int64_t>({40, 30}).transpose(0, 1);
  expect_emulated_eq<Half, int64_t>(i.to(kFloat16), identity, {i});
  Tensor f = sample<float>({3000});
  expect_emulated_eq<bool, float>(f.to(kBool), identity, {f});
  // fill_: no inputs at all.
  Tensor filled = empty({3, 700}, kInt16);
  filled.fill_(-7);
  expect_emulated_eq<int16_t>(filled, [] { return int16_t{-7}; }, {});
}

// Every element's offsets in `it` (ndim dims after coalescing) through both index widths: the
// byte offsets of its row-major index of `out` in each operand (broadcast ones expanded).
void check_offsets(const Tensor& out, std::initializer_list<Tensor> operands, const TensorIter& it,
                   int ndim) {
  ASSERT_EQ(it.ndim, ndim);
  const auto narrow = kernels::make_offset_calculator<3, uint32_t>(it);
  const auto wide = kernels::make_offset_calculator<3, int64_t>(it);
  for (int64_t i = 0; i < out.numel(); ++i) {
    const int64_t idx[3] = {i / (out.size(1) * out.size(2)), i / out.size(2) % out.size(1),
                            i % out.size(2)};
    const auto n = narrow.get(static_cast<uint32_t>(i));
    const auto w = wide.get(i);
    int k = 0;
    for (const Tensor& t : operands) {
      const int64_t want = (idx[0] * t.stride(0) + idx[1] * t.stride(1) + idx[2] * t.stride(2)) *
                           static_cast<int64_t>(t.element_size());
      ASSERT_EQ(w.at[k], want) << "operand " << k << " element " << i;
      ASSERT_EQ(static_cast<int64_t>(n.at[k]), want) << "operand " << k << " element " << i;
      ++k;
    }
  }
}

// The 64-bit offsets agree with the 32-bit ones, and with the row-major strides they came from,
// for an iterator without merged dims and for one with.
TEST(ElementwiseEmulated, OffsetCalculatorWidths) {
  Tensor a = sample<float>({4, 6, 5}).transpose(0, 2), b = sample<int16_t>({6, 1});
  Tensor out = empty({5, 6, 4}, kFloat32);
  check_offsets(out, {out, a, b.expand({5, 6, 4})}, iter_for(out, {a, b}), 3);
  Tensor c = sample<double>({5, 6, 9}).narrow(2, 2, 4), d = sample<int8_t>({4});
  check_offsets(out, {out, c, d.expand({5, 6, 4})}, iter_for(out, {c, d}), 2);
}

// Offsets past 2^31 bytes (or negative strides) switch the plan to 64-bit indexing; only the
// geometry is built, nothing is read.
TEST(ElementwiseEmulated, IndexWidthChoice) {
  TensorIter it;
  it.ntensors = 2;
  it.ndim = 2;
  it.numel = 4;
  it.shape[0] = 2;
  it.shape[1] = 2;
  it.strides[0][0] = 4;
  it.strides[0][1] = 8;
  it.strides[1][0] = 4;
  it.strides[1][1] = int64_t{1} << 31;
  EXPECT_FALSE(kernels::fits_32bit_indexing(it));
  it.strides[1][1] = 8;
  EXPECT_TRUE(kernels::fits_32bit_indexing(it));
  it.strides[1][0] = -4;
  EXPECT_FALSE(kernels::fits_32bit_indexing(it));
}

}  // namespace
}  // namespace ember
