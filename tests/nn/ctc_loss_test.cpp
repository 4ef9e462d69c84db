// ctc_loss (both overloads), F::ctc_loss and nn::CTCLoss against PyTorch 1.13
// (ctc_loss_reference.h, made by gen_ctc_loss_reference.py from the same cases): losses and the
// gradients of log_probs in double, then a gradcheck, infinite losses, the errors and printing.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "autograd/gradcheck.h"
#include "ember/ember.h"
#include "nn/ctc_loss_reference.h"
#include "nn/reference_case.h"
#include "test_util.h"

namespace ember::test {
namespace {

namespace F = nn::functional;
using CtcInputs = std::vector<Tensor>;
using CtcLengths = std::vector<int64_t>;

// gen_ctc_loss_reference.py's normalised(): log-probabilities whose gradient is x's.
Tensor ctc_normalised(const Tensor& x) { return x - logsumexp(x, {x.dim() - 1}, true).detach(); }

Tensor ctc_lengths(const CtcLengths& lengths) { return tensor(lengths); }

// One case of gen_ctc_loss_reference.py, through F::ctc_loss (tensor lengths).
void check_ctc_case(const std::string& name, std::vector<int64_t> shape, const Tensor& targets,
                    const CtcLengths& input_lengths, const CtcLengths& target_lengths,
                    const F::CTCLossFuncOptions& options,
                    Tensor (*log_probs)(const Tensor&) = ctc_normalised) {
  check_reference_case(
      ctc_loss_reference(), name, {std::move(shape)}, {0}, [&](const CtcInputs& v) {
        return CtcInputs{F::ctc_loss(log_probs(v[0]), targets, ctc_lengths(input_lengths),
                                     ctc_lengths(target_lengths), options)};
      });
}

const Tensor& ctc_padded() {
  static const Tensor t = tensor({{1, 2, 2}, {3, 1, 0}, {4, 4, 4}}, kInt64);
  return t;
}
const CtcLengths kCtcInputLengths{7, 5, 6};
const CtcLengths kCtcTargetLengths{3, 2, 3};

TEST(CtcLoss, PaddedTargetsMatchPyTorchInEachReduction) {
  check_ctc_case("padded_mean", {7, 3, 5}, ctc_padded(), kCtcInputLengths, kCtcTargetLengths, {});
  check_ctc_case("padded_sum", {7, 3, 5}, ctc_padded(), kCtcInputLengths, kCtcTargetLengths,
                 F::CTCLossFuncOptions().reduction(kSum));
  check_ctc_case("padded_none", {7, 3, 5}, ctc_padded(), kCtcInputLengths, kCtcTargetLengths,
                 F::CTCLossFuncOptions().reduction(kNone));
  check_ctc_case("logits_mean", {7, 3, 5}, ctc_padded(), kCtcInputLengths, kCtcTargetLengths, {},
                 [](const Tensor& x) { return x.log_softmax(2); });
}

TEST(CtcLoss, ConcatenatedTargetsMatchPyTorch) {
  // The same targets as padded_none, so the same losses; int32 targets are read as int64.
  const Tensor concatenated = tensor({1, 2, 2, 3, 1, 4, 4, 4}, kInt32);
  check_ctc_case("concatenated_none", {7, 3, 5}, concatenated, kCtcInputLengths, kCtcTargetLengths,
                 F::CTCLossFuncOptions().reduction(kNone));
  const auto& want = ctc_loss_reference().at("padded_none").at("output0");
  const auto& got = ctc_loss_reference().at("concatenated_none").at("output0");
  for (size_t n = 0; n < want.size(); ++n) EXPECT_NEAR(got[n], want[n], 1e-12);
}

TEST(CtcLoss, LengthsBlankAndUnbatchedMatchPyTorch) {
  check_ctc_case("varying_lengths_mean", {6, 4, 4},
                 tensor({{1, 1, -1}, {2, 3, 1}, {3, -1, -1}, {2, 1, -1}}, kInt64), {6, 4, 2, 3},
                 {2, 3, 0, 1}, {});
  check_ctc_case("blank_last_none", {5, 3, 4}, tensor({{0, 1}, {2, 2}, {0, 0}}, kInt64), {5, 5, 4},
                 {2, 2, 1}, F::CTCLossFuncOptions().blank(3).reduction(kNone));
  check_ctc_case("unbatched_none", {6, 4}, tensor({3, 1, 3}, kInt64), {6}, {3},
                 F::CTCLossFuncOptions().reduction(kNone));
  check_ctc_case("unbatched_sum", {6, 4}, tensor({2, 2}, kInt64), {5}, {2},
                 F::CTCLossFuncOptions().blank(1).reduction(kSum));
  // The unbatched loss without reduction is 0-dim, as PyTorch's; 0-dim lengths work too.
  const Tensor lp = filled({6, 4}, 0).log_softmax(1);
  const Tensor loss = ctc_loss(lp, tensor({3, 1, 3}, kInt64), scalar_tensor(6, kInt64),
                               scalar_tensor(3, kInt64), 0, Reduction::None);
  EXPECT_EQ(loss.dim(), 0);
  EXPECT_NEAR(loss.item<double>(), ctc_loss_reference().at("unbatched_none").at("output0")[0],
              1e-10);
}

TEST(CtcLoss, Float32FollowsDouble) {
  // padded_none in float32, with int32 lengths: the losses and gradients to float precision.
  const Tensor x = filled({7, 3, 5}, 0).to(kFloat32).requires_grad_();
  const Tensor losses =
      ctc_loss(ctc_normalised(x), ctc_padded(), tensor(kCtcInputLengths).to(kInt32),
               tensor(kCtcTargetLengths).to(kInt32), 0, Reduction::None);
  EXPECT_EQ(losses.scalar_type(), kFloat32);
  const Tensor k = arange(losses.numel(), TensorOptions(kFloat32));
  (losses * cos(0.31 * k)).sum().backward();
  const auto& want = ctc_loss_reference().at("padded_none");
  const std::vector<float> got = losses.detach().to_vector<float>();
  for (size_t n = 0; n < got.size(); ++n) EXPECT_NEAR(got[n], want.at("output0")[n], 1e-4);
  const std::vector<float> grad = x.grad().to_vector<float>();
  for (size_t e = 0; e < grad.size(); ++e) EXPECT_NEAR(grad[e], want.at("grad0")[e], 1e-5);
}

TEST(CtcLoss, ZeroInfinityZeroesImpossibleAlignments) {
  // The second sample's [2, 2, 2] needs 5 steps (2 b 2 b 2) and has 4.
  const Tensor targets = tensor({{1, 2, 0}, {2, 2, 2}}, kInt64);
  check_ctc_case("zero_infinity_none", {4, 2, 3}, targets, {4, 4}, {2, 3},
                 F::CTCLossFuncOptions().reduction(kNone).zero_infinity(true));
  check_ctc_case("zero_infinity_mean", {4, 2, 3}, targets, {4, 4}, {2, 3},
                 F::CTCLossFuncOptions().zero_infinity(true));
  // Without zero_infinity the loss is infinite, as PyTorch's, and the other sample is as above.
  const Tensor lp = ctc_normalised(filled({4, 2, 3}, 0));
  const std::vector<double> losses =
      ctc_loss(lp, targets, CtcLengths{4, 4}, CtcLengths{2, 3}, 0, Reduction::None)
          .to_vector<double>();
  EXPECT_NEAR(losses[0], ctc_loss_reference().at("zero_infinity_none").at("output0")[0], 1e-10);
  EXPECT_TRUE(std::isinf(losses[1]) && losses[1] > 0);
  EXPECT_TRUE(std::isinf(ctc_loss(lp, targets, CtcLengths{4, 4}, CtcLengths{2, 3}).item<double>()));
  // No input steps: no loss for an empty target, an infinite one otherwise.
  const std::vector<double> empty_input =
      ctc_loss(lp, targets, CtcLengths{0, 0}, CtcLengths{0, 1}, 0, Reduction::None)
          .to_vector<double>();
  EXPECT_EQ(empty_input[0], 0);
  EXPECT_TRUE(std::isinf(empty_input[1]));
}

TEST(CtcLoss, MinusInfinityLogProbsStayFinite) {
  // A class of probability 0 (log -inf) that no alignment needs changes nothing.
  Tensor lp = ctc_normalised(filled({5, 1, 4}, 0));
  const double finite = ctc_loss(lp.narrow(2, 0, 3).log_softmax(2), tensor({{1, 2}}, kInt64),
                                 CtcLengths{5}, CtcLengths{2}, 0, Reduction::Sum)
                            .item<double>();
  Tensor with_zero = cat({lp.narrow(2, 0, 3).log_softmax(2),
                          full({5, 1, 1}, -std::numeric_limits<double>::infinity(), kFloat64)},
                         2)
                         .requires_grad_();
  Tensor loss = ctc_loss(with_zero, tensor({{1, 2}}, kInt64), CtcLengths{5}, CtcLengths{2}, 0,
                         Reduction::Sum);
  EXPECT_NEAR(loss.item<double>(), finite, 1e-12);
  loss.backward();
  EXPECT_FALSE(isnan(with_zero.grad()).any().item<bool>());
}

TEST(CtcLoss, Gradchecks) {
  manual_seed(3);
  using V = std::vector<Tensor>;
  // Through log_softmax, where ATen's log_probs gradient is the derivative of the logits.
  for (int64_t reduction : {Reduction::None, Reduction::Mean, Reduction::Sum}) {
    gradcheck("ctc_loss reduction " + std::to_string(reduction),
              [reduction](const V& v) {
                return ctc_loss(v[0].log_softmax(2), tensor({{1, 1}, {2, 0}}, kInt64),
                                CtcLengths{4, 3}, CtcLengths{2, 1}, 0, reduction);
              },
              {randn({4, 2, 3}, kFloat64)});
  }
}

TEST(CtcLoss, ErrorsSayWhatToChange) {
  const Tensor lp = ctc_normalised(filled({4, 2, 3}, 0));
  const Tensor targets = tensor({{1, 2}, {2, 1}}, kInt64);
  const CtcLengths two{2, 2}, four{4, 4};
  auto value_error = [&](auto&& call) { return error_of<ValueError>(call); };
  EXPECT_EQ(value_error([&] { ctc_loss(lp, targets, four, two, 3); }),
            "[ctc_loss] blank must be in label range [0, 3), got 3");
  EXPECT_EQ(value_error([&] { ctc_loss(lp, targets, CtcLengths{4}, two); }),
            "[ctc_loss] input_lengths must be of size batch_size: 2 samples, got 1 lengths");
  EXPECT_EQ(value_error([&] {
              ctc_loss(lp, targets, four, CtcLengths{2, 2, 2});
            }),
            "[ctc_loss] target_lengths must be of size batch_size: 2 samples, got 3 lengths");
  EXPECT_EQ(value_error([&] {
              ctc_loss(lp, targets, CtcLengths{4, 5}, two);
            }),
            "[ctc_loss] Expected input_lengths to have values in [0, 4] (the time steps of "
            "log_probs), but got value 5 for sample 1");
  EXPECT_EQ(value_error([&] {
              ctc_loss(lp, targets, four, CtcLengths{-1, 2});
            }),
            "[ctc_loss] Expected target_lengths to have value at least 0, but got value -1 for "
            "sample 0");
  EXPECT_EQ(value_error([&] {
              ctc_loss(lp, targets, four, CtcLengths{3, 2});
            }),
            "[ctc_loss] padded targets must be [N, S] with N = 2 and S at least the longest "
            "target length 3, got shape [2, 2]");
  EXPECT_EQ(value_error([&] {
              ctc_loss(lp, tensor({1, 2, 2}, kInt64), four, two);
            }),
            "[ctc_loss] concatenated targets must hold sum(target_lengths) = 4 labels, got shape "
            "[3]");
  EXPECT_NE(value_error([&] {
              ctc_loss(lp[0][0], targets, four, two);
            }).find("[ctc_loss] log_probs must be [T, N, C] (or unbatched [T, C]), got shape"),
            std::string::npos);
  EXPECT_NE(value_error([&] { ctc_loss(lp, targets, four, two, 0, 3); }).find("[ctc_loss] 3 is "),
            std::string::npos);
  EXPECT_EQ(error_of<IndexError>([&] {
              ctc_loss(lp, tensor({{1, 0}, {2, 1}}, kInt64), four, two);
            }),
            "[ctc_loss] target 1 of sample 0 is 0: targets must be class indices in [0, 3) other "
            "than the blank 0");
  EXPECT_NE(error_of<IndexError>([&] {
              ctc_loss(lp, tensor({{1, 2}, {3, 1}}, kInt64), four, two);
            }).find("target 0 of sample 1 is 3"),
            std::string::npos);
  EXPECT_NE(error_of<TypeError>([&] {
              ctc_loss(lp, targets, tensor({4.0, 4.0}), tensor({2, 2}, kInt64));
            }).find("[ctc_loss] input_lengths must be integral"),
            std::string::npos);
  EXPECT_NE(error_of<TypeError>([&] {
              ctc_loss(lp.to(kInt64), targets, four, two);
            }).find("[ctc_loss] log_probs must be float32 or float64"),
            std::string::npos);
}

TEST(CtcLoss, ModuleCallsFunctionalAndPrintsAsLibTorch) {
  nn::CTCLoss loss(nn::CTCLossOptions().blank(3).reduction(kSum).zero_infinity(true));
  std::ostringstream os;
  loss->pretty_print(os);
  EXPECT_EQ(os.str(), "torch::nn::CTCLoss()");
  EXPECT_EQ(loss->options.blank(), 3);
  EXPECT_TRUE(loss->options.zero_infinity());
  const Tensor lp = ctc_normalised(filled({5, 3, 4}, 0));
  const Tensor targets = tensor({{0, 1}, {2, 2}, {0, 0}}, kInt64);
  const Tensor input_lengths = tensor({5, 5, 4}, kInt64), target_lengths = tensor({2, 2, 1});
  const Tensor want = F::ctc_loss(lp, targets, input_lengths, target_lengths,
                                  F::CTCLossFuncOptions().blank(3).reduction(kSum));
  EXPECT_NEAR(loss(lp, targets, input_lengths, target_lengths).item<double>(), want.item<double>(),
              1e-12);
  double sum = 0;
  for (double v : ctc_loss_reference().at("blank_last_none").at("output0")) sum += v;
  EXPECT_NEAR(want.item<double>(), sum, 1e-10);
  // The defaults are LibTorch's: blank 0, kMean, no zero_infinity.
  const nn::CTCLossOptions defaults;
  EXPECT_EQ(defaults.blank(), 0);
  EXPECT_TRUE(std::holds_alternative<enumtype::kMean>(defaults.reduction()));
  EXPECT_FALSE(defaults.zero_infinity());
}

}  // namespace
}  // namespace ember::test
