// Grad mode, InferenceMode and anomaly detection, as PyTorch defines them.
#include <gtest/gtest.h>

#include <thread>

#include "test_util.h"

namespace ember::test {
namespace {

TEST(Modes, GuardsNestAndRestore) {
  EXPECT_TRUE(GradMode::is_enabled());
  {
    NoGradGuard off;
    EXPECT_FALSE(GradMode::is_enabled());
    {
      AutoGradMode on(true);
      EXPECT_TRUE(GradMode::is_enabled());
      InferenceMode inference;
      EXPECT_FALSE(GradMode::is_enabled());
      EXPECT_TRUE(InferenceMode::is_enabled());
      {
        InferenceMode not_inside(false);  // grad back on, no inference tensors
        EXPECT_TRUE(GradMode::is_enabled());
        EXPECT_FALSE(ones({1}).is_inference());
      }
      EXPECT_TRUE(ones({1}).is_inference());
    }
    EXPECT_FALSE(GradMode::is_enabled());
    EXPECT_FALSE(InferenceMode::is_enabled());
  }
  EXPECT_TRUE(GradMode::is_enabled());
}

TEST(Modes, GradModeIsPerThread) {
  NoGradGuard off;
  bool other_thread = false;
  std::thread([&] { other_thread = GradMode::is_enabled(); }).join();
  EXPECT_TRUE(other_thread);
}

TEST(Modes, InferenceTensorsOnEveryDevice) {
  for (Device device : all_devices()) {
    Tensor w = ones({2}, TensorOptions().device(device)).requires_grad_();
    Tensor made;
    {
      InferenceMode guard;
      made = w * 4.0;  // no graph, and an inference tensor
      EXPECT_FALSE(made.requires_grad());
      EXPECT_TRUE(made.is_inference());
      EXPECT_FALSE(w.is_inference());
      EXPECT_TRUE(made[0].is_inference());  // views keep their base's kind
    }
    expect_close((w + made).cpu(), {2}, {5, 5});  // add saves nothing: allowed
    EXPECT_NE(error_of([&] { (void)(w * made); }).find("cannot be saved for backward"),
              std::string::npos);
    EXPECT_NE(error_of([&] { made.mul_(2.0); }).find("Inplace update to inference tensor"),
              std::string::npos);
    Tensor normal = made.clone();
    EXPECT_FALSE(normal.is_inference());
    (w * normal).sum().backward();
    expect_close(w.grad().cpu(), {2}, {4, 4});
  }
}

TEST(Modes, AnomalyModeNamesTheNodeAndItsForwardOperands) {
  Tensor x = tensor({-1.0, 4.0}).requires_grad_();
  Tensor y = x.log();  // nan forward, and its gradient 1/x is fine: no anomaly from log
  std::string message;
  {
    autograd::DetectAnomalyGuard detect;
    EXPECT_TRUE(autograd::AnomalyMode::is_enabled());
    message = error_of([&] { (x.sqrt() * 2.0).sum().backward(); });
    y.sum().backward();  // log's backward returns no nan
  }
  EXPECT_FALSE(autograd::AnomalyMode::is_enabled());
  EXPECT_NE(message.find("Function 'SqrtBackward0' returned nan values in its 0th output"),
            std::string::npos);
  EXPECT_NE(message.find("Its forward op took Float[2] on cpu"), std::string::npos) << message;
  expect_close(x.grad(), {2}, {-1, 0.25});
}

}  // namespace
}  // namespace ember::test
