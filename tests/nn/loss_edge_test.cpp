// Loss edge cases the differential test found against LibTorch 1.13 (expected values from it).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "ember/ember.h"
#include "ember/nn.h"
#include "test_util.h"

namespace ember {
namespace {

namespace F = nn::functional;
using test::error_of;
using test::expect_close;

TEST(LossEdges, EveryTargetIgnoredGivesNaNLossAndZeroGradients) {
  Tensor x = tensor({0.5, 1.0, -1.0, 2.0, 0.0, 1.0}).view({2, 3}).requires_grad_();
  Tensor loss = F::cross_entropy(x, tensor({int64_t{-100}, int64_t{-100}}));
  EXPECT_TRUE(std::isnan(loss.item<double>()));  // a mean over no targets
  loss.backward();
  expect_close(x.grad(), {2, 3}, {0, 0, 0, 0, 0, 0});    // nothing flows into ignored targets
  Tensor s = tensor({0.5, 1.0, -1.0}).requires_grad_();  // label smoothing: the same
  F::cross_entropy(s, scalar_tensor(-100, kInt64),
                   F::CrossEntropyFuncOptions().label_smoothing(0.25))
      .backward();
  expect_close(s.grad(), {3}, {0, 0, 0});
  Tensor p = tensor({-1.0, -2.0}).view({1, 2}).requires_grad_();
  F::nll_loss(p, tensor({int64_t{7}}), F::NLLLossFuncOptions().ignore_index(7)).backward();
  expect_close(p.grad(), {1, 2}, {0, 0});
}

TEST(LossEdges, IgnoreIndexWithProbabilityTargets) {
  Tensor x = tensor({0.5, 1.0, -1.0, 2.0, 0.0, 1.0}).view({2, 3});
  Tensor probs = softmax(x, 1);
  EXPECT_EQ(error_of<ValueError>(
                [&] { F::cross_entropy(x, probs, F::CrossEntropyFuncOptions().ignore_index(1)); }),
            "[cross_entropy] ignore_index is not supported for floating point target (class "
            "probabilities); got ignore_index=1");
  // A negative ignore_index (the default -100 included) is accepted and means nothing here.
  expect_close(F::cross_entropy(x, probs, F::CrossEntropyFuncOptions().ignore_index(-5)), {},
               {0.8584236868604691}, 1e-6);
}

TEST(LossEdges, BceWeightsMustBroadcastToTheInput) {
  Tensor x = tensor({0.5, -1.0}), y = tensor({1.0, 0.0});
  EXPECT_EQ(error_of<ValueError>([&] {
              F::binary_cross_entropy_with_logits(
                  x, y, F::BinaryCrossEntropyWithLogitsFuncOptions().weight(ones({2, 2})));
            }),
            "[binary_cross_entropy_with_logits] weight of shape [2, 2] doesn't match the "
            "broadcast shape: it must broadcast to the input's shape [2]");
  EXPECT_EQ(error_of<ValueError>([&] {
              F::binary_cross_entropy_with_logits(
                  x, y, F::BinaryCrossEntropyWithLogitsFuncOptions().pos_weight(ones({3, 1})));
            }),
            "[binary_cross_entropy_with_logits] pos_weight of shape [3, 1] doesn't match the "
            "broadcast shape: it must broadcast to the input's shape [2]");
  // A weight that broadcasts to the input is fine: softplus(-0.5) * 2 and softplus(-1) * 2.
  expect_close(
      F::binary_cross_entropy_with_logits(
          x, y,
          F::BinaryCrossEntropyWithLogitsFuncOptions().weight(full({1}, 2.0)).reduction(kNone)),
      {2}, {2 * std::log1p(std::exp(-0.5)), 2 * std::log1p(std::exp(-1.0))}, 1e-6);
}

}  // namespace
}  // namespace ember
