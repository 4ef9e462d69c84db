// The CUDA elementwise loop run on the host (Note [Emulated GPU loop] in
// src/cuda/elementwise_program.h): the kernel's own per-thread function and launch plan, walked
// block by block and thread by thread, must give the CPU kernels' results byte for byte, for
// every path (vector width 4, 2, 1; offsets for broadcast, strided and 0-dim geometry).
#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>

#include "cuda/elementwise_program.h"
#include "cuda/emulated_iter.h"
#include "ember/ember.h"
#include "kernels/functors.h"

namespace ember {
namespace {

using cuda::ElementTypes;
using kernels::opmath_t;
using kernels::TensorIter;
using test::iter_for;

struct Path {
  bool index32 = false;
  int vector_size = 0;  // 0: nothing launched
};

// gpu_kernel (src/cuda/loops.cuh) with the launch replaced by a loop over blocks and threads.
template <class Out, class... In, class F>
Path emulate_gpu_kernel(const TensorIter& it, const F& f) {
  Path path;
  if (it.numel == 0) return path;
  cuda::plan_elementwise<Out, In...>(it, [&](const auto& args, int64_t blocks) {
    using index_t = decltype(args.numel);
    path = {sizeof(index_t) == 4, args.vector_size};
    for (int64_t b = 0; b < blocks; ++b)
      for (int t = 0; t < cuda::kThreadsPerBlock; ++t)
        cuda::elementwise_thread(ElementTypes<Out, In...>{}, args, f, static_cast<index_t>(b), t);
  });
  return path;
}

// Runs f through the emulated loop into a fresh tensor shaped like `expected` and compares the
// bytes (NaNs included) with `expected`, the CPU kernel's result.
template <class Out, class... In, class F>
Path expect_emulated_eq(const Tensor& expected, const F& f, std::initializer_list<Tensor> inputs) {
  Tensor out = empty(expected.sizes(), TensorOptions().dtype(expected.dtype()));
  Path path = emulate_gpu_kernel<Out, In...>(iter_for(out, inputs), f);
  Tensor want = expected.contiguous();
  EXPECT_TRUE(want.nbytes() == 0 ||
              std::memcmp(out.data_ptr(), want.data_ptr(), want.nbytes()) == 0)
      << "emulated GPU loop differs from the CPU kernel for shape " << expected.sizes();
  return path;
}

template <class T>
Tensor sample(IntArrayRef shape) {
  constexpr DType dtype = dtype_of_v<T>;
  if constexpr (std::is_same_v<T, bool>)
    return randint(0, 2, shape).to(dtype);
  else if constexpr (std::is_integral_v<T>)
    return randint(-20, 20, shape).to(dtype);
  else
    return mul(randn(shape), 10).to(dtype);
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
  const kernels::AddAlpha<M> f{static_cast<M>(alpha)};
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
  EXPECT_EQ(check(sample<T>({33, 17}).transpose(0, 1), sample<T>({17, 33})).vector_size, 1);
  EXPECT_EQ(check(sample<T>({}), sample<T>({})).vector_size, 1);       // 0-dim
  EXPECT_EQ(check(sample<T>({0, 3}), sample<T>({3})).vector_size, 0);  // empty
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
  using Lt = kernels::Compare<float, kernels::CompareOp::Lt>;
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
  using Exp = kernels::Unary<float, kernels::UnaryOp::Exp>;
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

// The 64-bit offsets agree with the 32-bit ones, and with the row-major strides they came from.
TEST(ElementwiseEmulated, OffsetCalculatorWidths) {
  Tensor a = sample<float>({4, 6, 5}).transpose(0, 2), b = sample<int16_t>({6, 1});
  Tensor out = empty({5, 6, 4}, kFloat32);
  TensorIter it = iter_for(out, {a, b});
  const auto narrow = cuda::make_offset_calculator<3, uint32_t>(it);
  const auto wide = cuda::make_offset_calculator<3, int64_t>(it);
  for (int64_t i = 0; i < out.numel(); ++i) {
    const int64_t idx[3] = {i / 24, i / 4 % 6, i % 4};
    const auto n = narrow.get(static_cast<uint32_t>(i));
    const auto w = wide.get(i);
    for (int k = 0; k < 3; ++k) {
      const Tensor& t = it.operands[k];
      const int64_t want = (idx[0] * t.stride(0) + idx[1] * t.stride(1) + idx[2] * t.stride(2)) *
                           static_cast<int64_t>(t.element_size());
      ASSERT_EQ(w.at[k], want) << "operand " << k << " element " << i;
      ASSERT_EQ(static_cast<int64_t>(n.at[k]), want) << "operand " << k << " element " << i;
    }
  }
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
  EXPECT_FALSE(cuda::fits_32bit_indexing(it));
  it.strides[1][1] = 8;
  EXPECT_TRUE(cuda::fits_32bit_indexing(it));
  it.strides[1][0] = -4;
  EXPECT_FALSE(cuda::fits_32bit_indexing(it));
}

}  // namespace
}  // namespace ember
