// Every elementwise op with a CUDA kernel, on every dtype it accepts and every visible GPU,
// against the CPU kernels: integer and bool results must be equal, floating ones close (the
// GPU's libm differs from the host's by a few ulps). Skips visibly without a GPU.
#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "ember/ember.h"
#include "parity/parity_check.h"
#include "test_util.h"

namespace ember {
namespace {

using parity::expect_parity_each;
using parity::gpus;
using parity::is_floating;
using parity::kAllDTypes;
using parity::sample;

// The geometries the CUDA loop treats differently: dense (vector path and tail), broadcast,
// transposed, offset by one element (unaligned), 0-dim, empty.
struct ElementwiseCase {
  const char* name;
  std::vector<int64_t> a, b;
  bool transpose_a = false, offset_a = false;
};
const std::vector<ElementwiseCase> kElementwiseCases = {
    {"dense", {2053}, {2053}},
    {"broadcast", {7, 1, 5}, {6, 1}},
    {"transposed", {33, 17}, {17, 33}, true},
    {"unaligned", {1029}, {1029}, true},
    {"0-dim", {}, {}},
    {"empty", {0, 3}, {3}},
};

Tensor make(const std::vector<int64_t>& shape, ScalarType dtype, bool transpose, bool offset) {
  if (transpose) return sample({shape[1], shape[0]}, dtype).transpose(0, 1);
  if (offset) return sample({shape[0] + 1}, dtype).narrow(0, 1, shape[0]);
  return sample(shape, dtype);
}

// Elementwise results are one rounding (or one libm call) from exact.
double elementwise_tolerance(ScalarType t) {
  return t == kBFloat16 ? 1e-2 : t == kFloat16 ? 1e-3 : 1e-5;
}

void expect_elementwise_parity(const std::string& what, Device device,
                               const std::function<Tensor(Device)>& op) {
  expect_parity_each(
      what, device, [&](Device d) { return std::vector<Tensor>{op(d)}; }, elementwise_tolerance);
}

std::string label(const char* op, ScalarType dtype, const char* geometry, Device device) {
  return std::string(op) + " " + toString(dtype) + " " + geometry + " on " + device.str();
}

using BinaryOpFn = std::function<Tensor(const Tensor&, const Tensor&)>;
struct NamedBinary {
  const char* name;
  BinaryOpFn fn;
  bool nonzero_rhs = false;  // integer division by zero is an error, not a value
};

void run_binary(const std::vector<NamedBinary>& ops) {
  for (Device device : gpus()) {
    for (const NamedBinary& op : ops) {
      for (ScalarType dtype : kAllDTypes) {
        for (const ElementwiseCase& c : kElementwiseCases) {
          Tensor a = make(c.a, dtype, c.transpose_a, c.offset_a);
          Tensor b = make(c.b, dtype, false, false);
          if (op.nonzero_rhs && !is_floating(dtype) && dtype != kBool) b = add(abs(b), 1).to(dtype);
          expect_elementwise_parity(label(op.name, dtype, c.name, device), device,
                                    [&](Device d) { return op.fn(a.to(d), b.to(d)); });
        }
      }
    }
  }
}

// Every row of the binary table, through its public name: arithmetic, comparisons, logic and
// bits. A divisor of an integer division is kept away from zero (an error, not a value).
TEST(ElementwiseParity, EveryBinaryRow) {
  EMBER_SKIP_IF_NO_CUDA();
  const std::set<std::string> divisions = {"div", "floor_divide", "remainder", "fmod"};
  std::vector<NamedBinary> ops;
#define EMBER_BINARY_CASE(name)                                                      \
  ops.push_back({#name, [](const Tensor& a, const Tensor& b) { return name(a, b); }, \
                 divisions.count(#name) == 1});
  EMBER_PUBLIC_BINARY_ALPHA_OPS(EMBER_BINARY_CASE)
  EMBER_PUBLIC_BINARY_SCALAR_OPS(EMBER_BINARY_CASE)
  EMBER_PUBLIC_BINARY_TENSOR_OPS(EMBER_BINARY_CASE)
#undef EMBER_BINARY_CASE
  ops.push_back({"add alpha", [](const Tensor& a, const Tensor& b) {
                   return add(a, b, a.scalar_type() == kBool ? 1 : 2);
                 }});
  run_binary(ops);
}

// Every row of the unary table; integer inputs of the floating ops check the front half's
// promotion on the GPU too.
TEST(ElementwiseParity, EveryUnaryRow) {
  EMBER_SKIP_IF_NO_CUDA();
#define EMBER_UNARY_CASE(name) {#name, [](const Tensor& x) { return name(x); }},
  const std::vector<std::pair<const char*, Tensor (*)(const Tensor&)>> ops = {
      EMBER_PUBLIC_UNARY_OPS(EMBER_UNARY_CASE)};
#undef EMBER_UNARY_CASE
  for (Device device : gpus())
    for (const auto& [name, op] : ops)
      for (ScalarType dtype : kAllDTypes)
        for (const ElementwiseCase& c : kElementwiseCases) {
          Tensor x = make(c.a, dtype, c.transpose_a, c.offset_a);
          auto fn = op;  // clang 14 cannot capture a structured binding yet (C++20 allows it)
          expect_elementwise_parity(label(name, dtype, c.name, device), device,
                                    [&](Device d) { return fn(x.to(d)); });
        }
}

TEST(ElementwiseParity, ClampWhereFillCopy) {
  EMBER_SKIP_IF_NO_CUDA();
  for (Device device : gpus()) {
    for (ScalarType dtype : kAllDTypes) {
      for (const ElementwiseCase& c : kElementwiseCases) {
        Tensor x = make(c.a, dtype, c.transpose_a, c.offset_a);
        Tensor y = make(c.b, dtype, false, false);
        Tensor cond = make(c.b, kBool, false, false);
        expect_elementwise_parity(label("clamp", dtype, c.name, device), device,
                                  [&](Device d) { return clamp(x.to(d), -3, 5); });
        expect_elementwise_parity(label("where", dtype, c.name, device), device,
                                  [&](Device d) { return where(cond.to(d), x.to(d), y.to(d)); });
        // Casts, and contiguous() of the strided cases. Negative floats to uint8 are undefined
        // behaviour in C++ (the CPU wraps, the GPU saturates), as in PyTorch: cast |x| there.
        for (ScalarType to : kAllDTypes) {
          Tensor src = to == kUInt8 && is_floating(dtype) ? abs(x) : x;
          expect_elementwise_parity(
              label("copy_ to", to, c.name, device) + " from " + toString(dtype), device,
              [&](Device d) { return src.to(d).to(to).contiguous(); });
        }
      }
      expect_elementwise_parity(label("fill_", dtype, "dense", device), device, [&](Device d) {
        Tensor filled = empty({3, 700}, TensorOptions().dtype(dtype).device(d));
        return filled.fill_(1);
      });
    }
  }
}

}  // namespace
}  // namespace ember
