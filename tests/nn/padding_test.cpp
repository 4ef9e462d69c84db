// F::pad, constant_pad_nd, the padding modules and Conv padding_mode: small cases whose
// values follow PyTorch's definitions (worked by hand; a generated reference is still to come).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "ember/ember.h"

namespace ember {
namespace {

namespace F = nn::functional;

std::vector<float> padtest_values(const Tensor& t) { return t.contiguous().to_vector<float>(); }

TEST(PaddingTest, ModesOn1dMatchPyTorch) {
  const Tensor x = tensor(std::vector<float>{1, 2, 3}).reshape({1, 1, 3});
  EXPECT_EQ(padtest_values(F::pad(x, F::PadFuncOptions({2, 1}).mode(kReflect))),
            (std::vector<float>{3, 2, 1, 2, 3, 2}));
  EXPECT_EQ(padtest_values(F::pad(x, F::PadFuncOptions({2, 1}).mode(kReplicate))),
            (std::vector<float>{1, 1, 1, 2, 3, 3}));
  EXPECT_EQ(padtest_values(F::pad(x, F::PadFuncOptions({2, 1}).mode(kCircular))),
            (std::vector<float>{2, 3, 1, 2, 3, 1}));
  EXPECT_EQ(padtest_values(F::pad(x, F::PadFuncOptions({1, -1}).value(5))),
            (std::vector<float>{5, 1, 2}));
}

TEST(PaddingTest, ModulesPrettyPrintAsLibTorch) {
  std::ostringstream a, c;
  nn::ReflectionPad2d(nn::ReflectionPad2dOptions({1, 1, 2, 0}))->pretty_print(a);
  EXPECT_EQ(a.str(), "torch::nn::ReflectionPad2d(padding=[1, 1, 2, 0])");
  nn::ConstantPad1d(nn::ConstantPad1dOptions(2, 3.5))->pretty_print(c);
  EXPECT_EQ(c.str(), "torch::nn::ConstantPad1d(padding=[2, 2], value=3.5)");
}

}  // namespace
}  // namespace ember
