// Area 10 (issue 23): torch::nn's losses as LibTorch's C++ frontend has them: the ATen
// functions (torch::l1_loss, ...), the F:: forms with their *FuncOptions, the modules with their
// *Options and printing, under each reduction, with input gradients and shape errors.
#include <string>
#include <vector>

#include "torch_api.h"

namespace {

namespace F = torch::nn::functional;
namespace nn = torch::nn;

using torch_api::printed;

// Values spread over [-1, 1] in double, shaped; `phase` tells tensors apart.
torch::Tensor spread(std::vector<int64_t> shape, double phase = 0) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return torch::arange(n, torch::kDouble).mul(0.37).add(phase).sin().reshape(shape);
}

// The gradient of f(x) (a reduced loss) with respect to x.
template <class Function>
torch::Tensor loss_grad(torch::Tensor x, Function f) {
  x = x.detach().clone().requires_grad_();
  f(x).backward();
  return x.grad();
}

void regression_losses(const torch::Tensor& x, const torch::Tensor& y) {
  SHOW(torch::l1_loss(x, y));
  SHOW(F::l1_loss(x, y, F::L1LossFuncOptions(torch::kNone)));
  SHOW(nn::L1Loss(torch::kSum)(x, y));
  SHOW(torch::smooth_l1_loss(x, y, at::Reduction::Sum, 0.5));
  SHOW(F::smooth_l1_loss(x, y, F::SmoothL1LossFuncOptions(torch::kNone), 0.3));
  SHOW(nn::SmoothL1Loss(nn::SmoothL1LossOptions().beta(0.5))(x, y));
  SHOW(torch::huber_loss(x, y, at::Reduction::None, 0.4));
  SHOW(F::huber_loss(x, y, F::HuberLossFuncOptions().delta(0.6)));
  SHOW(loss_grad(x, [&](const torch::Tensor& t) { return nn::HuberLoss()(t, y); }));
  SHOW(torch::soft_margin_loss(x, y.sign()));
  SHOW(F::soft_margin_loss(x, y.sign(), F::SoftMarginLossFuncOptions(torch::kNone)));
  SHOW(printed(nn::L1Loss()));
  SHOW(printed(nn::SmoothL1Loss()));
  SHOW(printed(nn::HuberLoss()));
  SHOW_THROWS("must match the size", torch::l1_loss(x, torch::ones({5}, torch::kDouble)));
}

void probability_losses(const torch::Tensor& x, const torch::Tensor& y) {
  torch::Tensor p = torch::sigmoid(x), q = torch::sigmoid(y);
  torch::Tensor w = torch::linspace(0.5, 2, 4, torch::kDouble);
  SHOW(torch::binary_cross_entropy(p, q));
  SHOW(F::binary_cross_entropy(p, q, F::BinaryCrossEntropyFuncOptions().weight(w)));
  SHOW(nn::BCELoss(nn::BCELossOptions().reduction(torch::kNone))(p, q));
  SHOW(loss_grad(x, [&](const torch::Tensor& t) { return nn::BCELoss()(torch::sigmoid(t), q); }));
  SHOW(torch::binary_cross_entropy(torch::zeros({2}, torch::kDouble),
                                   torch::ones({2}, torch::kDouble)));
  SHOW_THROWS("is deprecated", F::binary_cross_entropy(p, q[0]));
  torch::Tensor logp = torch::log_softmax(x, 1), target = torch::softmax(y, 1);
  SHOW(torch::kl_div(logp, target));
  SHOW(F::kl_div(logp, target, F::KLDivFuncOptions(torch::kBatchMean)));
  SHOW(F::kl_div(logp, target.log(), F::KLDivFuncOptions(torch::kNone).log_target(true)));
  SHOW(nn::KLDivLoss(torch::kSum)(logp, target));
  SHOW(loss_grad(x, [&](const torch::Tensor& t) {
    return nn::KLDivLoss(torch::kBatchMean)(torch::log_softmax(t, 1), target);
  }));
  torch::Tensor counts = (y + 1) * 3;
  SHOW(torch::poisson_nll_loss(x, counts, true, false, 1e-8, at::Reduction::Mean));
  SHOW(F::poisson_nll_loss(p, counts, F::PoissonNLLLossFuncOptions().log_input(false).full(true)));
  SHOW(nn::PoissonNLLLoss(nn::PoissonNLLLossOptions().reduction(torch::kNone))(x, counts));
  SHOW(printed(nn::BCELoss()));
  SHOW(printed(nn::KLDivLoss()));
  SHOW(printed(nn::PoissonNLLLoss()));
}

void cross_entropy(const torch::Tensor& x, const torch::Tensor& y) {
  torch::Tensor w = torch::linspace(0.5, 2, 4, torch::kDouble);
  torch::Tensor labels = torch::tensor({3, -100, 0}, torch::kLong);
  SHOW(F::cross_entropy(x, torch::softmax(y, 1), F::CrossEntropyFuncOptions().weight(w)));
  SHOW(F::cross_entropy(x, torch::softmax(y, 1),
                        F::CrossEntropyFuncOptions().label_smoothing(0.2).reduction(torch::kNone)));
  SHOW(F::cross_entropy(x, labels, F::CrossEntropyFuncOptions().weight(w).label_smoothing(0.3)));
  SHOW(nn::CrossEntropyLoss(nn::CrossEntropyLossOptions().weight(w).label_smoothing(0.3).reduction(
      torch::kSum))(x, labels));
  SHOW(loss_grad(x, [&](const torch::Tensor& t) {
    return F::cross_entropy(t, labels, F::CrossEntropyFuncOptions().weight(w).label_smoothing(0.1));
  }));
}

void margin_losses(const torch::Tensor& x, const torch::Tensor& y) {
  torch::Tensor a = x.flatten(), b = y.flatten(), sign = (a - b).sin().sign();
  SHOW(torch::margin_ranking_loss(a, b, sign, 0.2));
  SHOW(F::margin_ranking_loss(a, b, sign, F::MarginRankingLossFuncOptions().margin(0.1)));
  SHOW(nn::MarginRankingLoss()(a, b, sign));
  SHOW_THROWS("All input tensors should have same dimension", F::margin_ranking_loss(x, y, sign));
  SHOW(torch::hinge_embedding_loss(x, y.sign(), 0.5));
  SHOW(F::hinge_embedding_loss(x, y.sign(), F::HingeEmbeddingLossFuncOptions().margin(2)));
  SHOW(
      nn::HingeEmbeddingLoss(nn::HingeEmbeddingLossOptions().reduction(torch::kNone))(x, y.sign()));
  torch::Tensor pairs = torch::tensor({1, -1, 1}, torch::kLong);
  SHOW(torch::cosine_embedding_loss(x, y, pairs));
  SHOW(F::cosine_embedding_loss(x, y, pairs, F::CosineEmbeddingLossFuncOptions().margin(-0.3)));
  SHOW(
      loss_grad(x, [&](const torch::Tensor& t) { return nn::CosineEmbeddingLoss()(t, y, pairs); }));
  SHOW_THROWS("1D target tensor expects 2D input tensors",
              torch::cosine_embedding_loss(a, b, pairs));
  torch::Tensor n = spread({3, 4}, 2);
  SHOW(torch::triplet_margin_loss(x, y, n));
  SHOW(F::triplet_margin_loss(x, y, n, F::TripletMarginLossFuncOptions().p(1).swap(true)));
  SHOW(nn::TripletMarginLoss(nn::TripletMarginLossOptions().margin(0.5).reduction(torch::kNone))(
      x, y, n));
  SHOW(F::triplet_margin_with_distance_loss(x, y, n));
  SHOW(nn::TripletMarginWithDistanceLoss(
      nn::TripletMarginWithDistanceLossOptions()
          .distance_function([](const torch::Tensor& u, const torch::Tensor& v) {
            return 1 - torch::cosine_similarity(u, v);
          })
          .swap(true))(x, y, n));
  SHOW(printed(nn::MarginRankingLoss()));
  SHOW(printed(nn::HingeEmbeddingLoss()));
  SHOW(printed(nn::CosineEmbeddingLoss(nn::CosineEmbeddingLossOptions().margin(0.5))));
  SHOW(printed(nn::TripletMarginLoss()));
  SHOW(printed(nn::TripletMarginWithDistanceLoss()));
}

void classification_margin_losses(const torch::Tensor& x, const torch::Tensor& y) {
  torch::Tensor labels = torch::tensor({3, 0, 1}, torch::kLong);
  torch::Tensor w = torch::linspace(0.5, 2, 4, torch::kDouble);
  SHOW(torch::multi_margin_loss(x, labels));
  SHOW(torch::multi_margin_loss(x, labels, 2, 0.5, w, at::Reduction::None));
  SHOW(F::multi_margin_loss(x, labels, F::MultiMarginLossFuncOptions().p(2).weight(w)));
  SHOW(nn::MultiMarginLoss(nn::MultiMarginLossOptions().reduction(torch::kSum))(x, labels));
  SHOW(loss_grad(x, [&](const torch::Tensor& t) { return nn::MultiMarginLoss()(t, labels); }));
  torch::Tensor lists = torch::tensor({3, 0, -1, 1, 1, 2, 0, 3, -1, 2, 2, 2}, torch::kLong);
  lists = lists.reshape({3, 4});
  SHOW(torch::multilabel_margin_loss(x, lists));
  SHOW(F::multilabel_margin_loss(x, lists, F::MultilabelMarginLossFuncOptions(torch::kNone)));
  SHOW(loss_grad(x, [&](const torch::Tensor& t) { return nn::MultiLabelMarginLoss()(t, lists); }));
  torch::Tensor on = (y > 0).to(torch::kDouble);
  SHOW(F::multilabel_soft_margin_loss(x, on));
  SHOW(F::multilabel_soft_margin_loss(
      x, on, F::MultilabelSoftMarginLossFuncOptions().weight(w).reduction(torch::kNone)));
  SHOW(nn::MultiLabelSoftMarginLoss(nn::MultiLabelSoftMarginLossOptions().reduction(torch::kSum))(
      x, on));
  SHOW(printed(nn::MultiMarginLoss()));
  SHOW(printed(nn::MultiLabelMarginLoss()));
  SHOW(printed(nn::MultiLabelSoftMarginLoss()));
}

}  // namespace

void nn_losses() {
  torch_api::section("nn losses");
  torch::Tensor x = spread({3, 4}), y = spread({3, 4}, 1);
  regression_losses(x, y);
  probability_losses(x, y);
  cross_entropy(x, y);
  margin_losses(x, y);
  classification_margin_losses(x, y);
}
