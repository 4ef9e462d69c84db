// cuBLAS is loaded by the first matrix product on a GPU and by nothing else (Note [cuBLAS loaded
// on first use] in src/cuda/cublas_api.h): a process that only works on the CPU, asking whether a
// GPU is there included, never maps it.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

bool cublas_mapped() {
  std::ifstream maps("/proc/self/maps");
  EXPECT_TRUE(maps.is_open()) << "cannot read /proc/self/maps";
  for (std::string line; std::getline(maps, line);)
    if (line.find("libcublas") != std::string::npos) return true;
  return false;
}

TEST(CublasLoading, CpuWorkDoesNotLoadIt) {
  // Where a GPU is usable, GPU tests run earlier in this process may have loaded it.
  if (cuda::is_available() && cublas_mapped())
    GTEST_SKIP() << "cuBLAS was loaded by an earlier test of this process";
  (void)cuda::device_count();
  (void)try_gpu();
  const Tensor a = arange(12, kFloat32).view({3, 4});
  test::expect_values<float>(a.matmul(a.t()), {3, 3}, {14, 38, 62, 38, 126, 214, 62, 214, 366});
  EXPECT_FALSE(cublas_mapped());
}

TEST(CublasLoading, FirstGpuProductLoadsIt) {
  EMBER_SKIP_IF_NO_CUDA();
  const Tensor a = arange(12, TensorOptions(kFloat32).device("cuda")).view({3, 4});
  test::expect_values<float>(a.matmul(a.t()).cpu(), {3, 3},
                             {14, 38, 62, 38, 126, 214, 62, 214, 366});
  EXPECT_TRUE(cublas_mapped());
}

}  // namespace
}  // namespace ember
