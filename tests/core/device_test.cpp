// Device parsing and printing: PyTorch's grammar, equality rule and messages (PYTORCH.md A1),
// and the CPU fallbacks try_gpu / try_all_gpus.
#include <gtest/gtest.h>

#include <sstream>
#include <unordered_set>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

using test::error_of;

TEST(Device, ParsesPyTorchGrammar) {
  EXPECT_EQ(Device("cpu"), Device(kCPU));
  EXPECT_EQ(Device("cuda"), Device(kCUDA, -1));
  EXPECT_EQ(Device("cuda:0"), Device(kCUDA, 0));
  EXPECT_EQ(Device("cuda:12").index(), 12);
  EXPECT_EQ(Device("cpu:0").index(), 0);
  EXPECT_FALSE(Device("cuda").has_index());
  EXPECT_TRUE(Device("cuda:1").is_cuda());
  EXPECT_TRUE(Device("cpu").is_cpu());
}

TEST(Device, EqualityComparesTypeAndIndex) {
  EXPECT_NE(Device("cuda"), Device("cuda:0"));  // as in PyTorch
  EXPECT_NE(Device("cuda:0"), Device("cuda:1"));
  EXPECT_NE(Device("cpu"), Device("cuda"));
  std::unordered_set<Device> set{Device("cuda:0"), Device("cuda:1"), Device("cuda:0")};
  EXPECT_EQ(set.size(), 2u);
}

TEST(Device, PrintsLikePyTorch) {
  EXPECT_EQ(Device("cpu").str(), "cpu");
  EXPECT_EQ(Device("cuda").str(), "cuda");
  EXPECT_EQ(Device("cuda:3").str(), "cuda:3");
  std::ostringstream os;
  os << Device(kCUDA, 1) << ' ' << kCPU;
  EXPECT_EQ(os.str(), "cuda:1 cpu");
}

TEST(Device, RejectsMalformedStrings) {
  for (const char* bad :
       {"cuda:", "cuda:01", "cuda:-1", "cuda:1:2", " cuda", "cuda ", "cuda:a", ":0", "cuda0:x"}) {
    EXPECT_EQ(error_of<ValueError>([&] { Device d(bad); }),
              std::string("Invalid device string: '") + bad + "'")
        << bad;
  }
  EXPECT_EQ(error_of<ValueError>([] { Device d(""); }), "Device string must not be empty");
  EXPECT_EQ(error_of<ValueError>([] { Device d("gpu"); }),
            "Expected one of cpu, cuda device type at start of device string: gpu");
  EXPECT_EQ(error_of<ValueError>([] { Device d("CUDA"); }),
            "Expected one of cpu, cuda device type at start of device string: CUDA");
  EXPECT_EQ(error_of<ValueError>([] { Device d("cpu:1"); }),
            "CPU device index must be -1 or zero, got 1");
  EXPECT_NE(error_of<ValueError>([] {
              Device d("cuda:99999999999");
            }).find("Could not parse device index '99999999999'"),
            std::string::npos);
  EXPECT_EQ(error_of<ValueError>([] { Device d(kCUDA, -2); }),
            "Device index must be -1 or non-negative, got -2");
}

TEST(Device, ImplicitFromStrings) {
  Tensor x = ones({2});
  EXPECT_TRUE(x.to("cpu").is_same(x));
  EXPECT_TRUE(x.to(std::string("cpu")).is_same(x));
}

TEST(Device, TryGpuFallsBackToCpu) {
  int n = cuda::device_count();
  EXPECT_EQ(try_gpu(), n > 0 ? Device("cuda:0") : Device("cpu"));
  EXPECT_EQ(try_gpu(10), n > 10 ? Device("cuda:10") : Device("cpu"));
  EXPECT_EQ(try_gpu(-1), Device("cpu"));
  std::vector<Device> all = try_all_gpus();
  ASSERT_EQ(all.size(), static_cast<size_t>(n > 0 ? n : 1));
  if (n == 0) {
    EXPECT_EQ(all[0], Device("cpu"));
  }
  for (int i = 0; i < n; ++i) EXPECT_EQ(all[i], Device(kCUDA, i));
}

}  // namespace
}  // namespace ember
