// Random draws on every visible GPU against the CPU: after the same manual_seed, rand, randint
// and a sequence of draws give the CPU's tensors exactly, randn within the last bits of libm
// (Note [CPU and CUDA random streams] in src/kernels/philox.h). Skips visibly without a GPU.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "ember/ember.h"
#include "parity/parity_check.h"
#include "test_util.h"

namespace ember {
namespace {

using parity::expect_parity;
using parity::label;

// The draw on each device after the same seed.
std::function<Tensor(Device)> seeded(uint64_t seed, std::function<Tensor(Device)> draw) {
  return [seed, draw](Device d) {
    manual_seed(seed);
    return draw(d);
  };
}

TEST(RandomParity, UniformAndIntegerExact) {
  EMBER_SKIP_IF_NO_CUDA();
  for (Device device : parity::gpus()) {
    for (ScalarType t : parity::kFloatDTypes)
      expect_parity(label("rand", t, device), device,
                    seeded(5,
                           [&](Device d) {
                             return rand({7, 131}, TensorOptions(t).device(d));
                           }),
                    /*tol=*/0);
    for (ScalarType t : {kUInt8, kInt8, kInt16, kInt32, kInt64, kFloat32, kFloat64})
      expect_parity(
          label("randint", t, device), device,
          seeded(6, [&](Device d) { return randint(-3, 90, {1001}, TensorOptions(t).device(d)); }),
          /*tol=*/0);
  }
}

// Two draws in a row: the second starts at an odd offset, halfway through a Philox counter.
TEST(RandomParity, SequenceOfDraws) {
  EMBER_SKIP_IF_NO_CUDA();
  for (Device device : parity::gpus())
    expect_parity("rand after 3 elements on " + device.str(), device,
                  seeded(7,
                         [](Device d) {
                           (void)rand({3}, d);
                           return rand({2, 257}, d);
                         }),
                  /*tol=*/0);
}

TEST(RandomParity, NormalWithinLibmUlps) {
  EMBER_SKIP_IF_NO_CUDA();
  for (Device device : parity::gpus())
    for (ScalarType t : parity::kFloatDTypes) {
      // One unit in the last place of each dtype, relative.
      const double ulp = t == kFloat64   ? 1e-14
                         : t == kFloat32 ? 2.4e-7
                         : t == kFloat16 ? 1e-3
                                         : 8e-3;
      expect_parity(label("randn", t, device), device,
                    seeded(8,
                           [&](Device d) {
                             return randn({5, 203}, TensorOptions(t).device(d));
                           }),
                    ulp);
    }
}

}  // namespace
}  // namespace ember
