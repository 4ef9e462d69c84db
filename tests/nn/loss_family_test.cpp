// The losses against torch 1.13 (loss_reference.h, made by gen_loss_reference.py from the same
// cases) under each reduction, through their modules, F:: forms and ATen functions; their
// first-order gradchecks; and the errors that name the op and the shapes.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "autograd/gradcheck.h"
#include "ember/ember.h"
#include "ember/nn.h"
#include "nn/loss_reference.h"
#include "nn/reference_case.h"
#include "test_util.h"

namespace ember::test {
namespace {

namespace F = nn::functional;

Tensor longs(const std::vector<int64_t>& values, IntArrayRef shape) {
  return tensor(values).reshape(shape);
}

using Loss = std::function<Tensor(const std::vector<Tensor>&)>;

// One case of gen_loss_reference.py: the loss is the case's only output.
void check_case(const std::string& name, const std::vector<std::vector<int64_t>>& shapes,
                const std::vector<size_t>& grads, const Loss& forward) {
  check_reference_case(
      loss_reference(), name, shapes, grads,
      [&forward](const std::vector<Tensor>& x) { return std::vector<Tensor>{forward(x)}; });
}

// One reduction as each form takes it: its name in the reference, ATen's int, LibTorch's enum.
struct ReductionCase {
  std::string name;
  int64_t aten;
  nn::loss_reduction_t option;
};

const std::vector<ReductionCase>& reductions() {
  static const std::vector<ReductionCase> all{{"none", Reduction::None, kNone},
                                              {"mean", Reduction::Mean, kMean},
                                              {"sum", Reduction::Sum, kSum}};
  return all;
}

using Shapes = std::vector<std::vector<int64_t>>;

TEST(LossFamily, ElementwiseLossesMatchPyTorch) {
  for (const ReductionCase& r : reductions()) {
    check_case("l1_" + r.name, {{3, 4}, {3, 4}}, {0, 1}, [&](const std::vector<Tensor>& x) {
      return nn::L1Loss(nn::L1LossOptions().reduction(r.option))(x[0], x[1]);
    });
    check_case("smooth_l1_" + r.name, {{3, 4}, {3, 4}}, {0, 1}, [&](const std::vector<Tensor>& x) {
      return F::smooth_l1_loss(x[0], x[1],
                               F::SmoothL1LossFuncOptions().reduction(r.option).beta(0.5));
    });
    check_case("huber_" + r.name, {{3, 4}, {3, 4}}, {0, 1}, [&](const std::vector<Tensor>& x) {
      return nn::HuberLoss(nn::HuberLossOptions().reduction(r.option).delta(0.7))(x[0], x[1]);
    });
    check_case("soft_margin_" + r.name, {{3, 4}, {3, 4}}, {0}, [&](const std::vector<Tensor>& x) {
      return soft_margin_loss(x[0], x[1].sign(), r.aten);
    });
    check_case("bce_" + r.name, {{3, 4}, {3, 4}, {4}}, {0, 1}, [&](const std::vector<Tensor>& x) {
      return nn::BCELoss(nn::BCELossOptions().weight(x[2].abs() + 0.5).reduction(r.option))(
          sigmoid(x[0]), (x[1] + 1) / 2);
    });
    check_case("kl_div_" + r.name, {{3, 4}, {3, 4}}, {0, 1}, [&](const std::vector<Tensor>& x) {
      return kl_div(log_softmax(x[0], 1), softmax(x[1], 1), r.aten);
    });
    check_case(
        "kl_div_log_target_" + r.name, {{3, 4}, {3, 4}}, {0, 1}, [&](const std::vector<Tensor>& x) {
          auto reduction =
              std::visit([](auto tag) { return F::KLDivFuncOptions::reduction_t(tag); }, r.option);
          return nn::KLDivLoss(nn::KLDivLossOptions().reduction(reduction).log_target(true))(
              log_softmax(x[0], 1), log_softmax(x[1], 1));
        });
    check_case("poisson_nll_" + r.name, {{3, 4}, {3, 4}}, {0}, [&](const std::vector<Tensor>& x) {
      return nn::PoissonNLLLoss(nn::PoissonNLLLossOptions().reduction(r.option))(x[0],
                                                                                 3 * (x[1] + 1));
    });
    check_case("poisson_nll_full_" + r.name, {{3, 4}, {3, 4}}, {0},
               [&](const std::vector<Tensor>& x) {
                 return poisson_nll_loss(x[0].exp(), 3 * (x[1] + 1), false, true, 1e-3, r.aten);
               });
    check_case("gaussian_nll_" + r.name, {{3, 4}, {3, 4}, {3, 4}}, {0, 1, 2},
               [&](const std::vector<Tensor>& x) {
                 return nn::GaussianNLLLoss(nn::GaussianNLLLossOptions().reduction(r.option))(
                     x[0], x[1], x[2] + 1.2);
               });
    check_case("gaussian_nll_homoscedastic_" + r.name, {{3, 4}, {3, 4}, {3}}, {0, 2},
               [&](const std::vector<Tensor>& x) {
                 return F::gaussian_nll_loss(
                     x[0], x[1], x[2].abs(),
                     F::GaussianNLLLossFuncOptions().full(true).eps(0.1).reduction(r.option));
               });
  }
  check_case("smooth_l1_beta0_broadcast", {{3, 4}, {4}}, {0, 1}, [](const std::vector<Tensor>& x) {
    return smooth_l1_loss(x[0], x[1], Reduction::Mean, 0.0);
  });
  check_case("kl_div_batchmean", {{3, 4}, {3, 4}}, {0}, [](const std::vector<Tensor>& x) {
    return F::kl_div(log_softmax(x[0], 1), softmax(x[1], 1), F::KLDivFuncOptions(kBatchMean));
  });
  check_case(
      "gaussian_nll_var_column", {{3, 4}, {3, 4}, {3, 1}}, {0, 2},
      [](const std::vector<Tensor>& x) { return F::gaussian_nll_loss(x[0], x[1], x[2] + 1.5); });
}

TEST(LossFamily, CrossEntropyMatchesPyTorch) {
  for (const ReductionCase& r : reductions()) {
    check_case("cross_entropy_probs_" + r.name, {{3, 4}, {3, 4}, {4}}, {0, 1},
               [&](const std::vector<Tensor>& x) {
                 return nn::CrossEntropyLoss(nn::CrossEntropyLossOptions()
                                                 .weight(x[2].abs() + 0.5)
                                                 .reduction(r.option)
                                                 .label_smoothing(0.2))(x[0], softmax(x[1], 1));
               });
    check_case("cross_entropy_indices_" + r.name, {{4, 3, 2}, {3}}, {0},
               [&](const std::vector<Tensor>& x) {
                 return F::cross_entropy(x[0], longs({0, 2, 1, -100, 2, 2, -100, 0}, {4, 2}),
                                         F::CrossEntropyFuncOptions()
                                             .weight(x[1].abs() + 0.5)
                                             .reduction(r.option)
                                             .label_smoothing(0.3));
               });
  }
}

TEST(LossFamily, MarginLossesMatchPyTorch) {
  for (const ReductionCase& r : reductions()) {
    check_case("margin_ranking_" + r.name, {{6}, {6}, {6}}, {0, 1},
               [&](const std::vector<Tensor>& x) {
                 return nn::MarginRankingLoss(nn::MarginRankingLossOptions().margin(0.3).reduction(
                     r.option))(x[0], x[1], x[2].sign());
               });
    check_case("hinge_embedding_" + r.name, {{3, 4}, {3, 4}}, {0},
               [&](const std::vector<Tensor>& x) {
                 return hinge_embedding_loss(x[0], x[1].sign(), 0.8, r.aten);
               });
    check_case(
        "cosine_embedding_" + r.name, {{4, 5}, {4, 5}}, {0, 1}, [&](const std::vector<Tensor>& x) {
          return nn::CosineEmbeddingLoss(nn::CosineEmbeddingLossOptions().margin(0.2).reduction(
              r.option))(x[0], x[1], longs({1, -1, 1, -1}, {4}));
        });
    check_case("triplet_margin_" + r.name, {{4, 5}, {4, 5}, {4, 5}}, {0, 1, 2},
               [&](const std::vector<Tensor>& x) {
                 return nn::TripletMarginLoss(nn::TripletMarginLossOptions().margin(1.5).reduction(
                     r.option))(x[0], x[1], x[2]);
               });
    check_case("triplet_margin_p1_swap_" + r.name, {{4, 5}, {4, 5}, {4, 5}}, {0, 1, 2},
               [&](const std::vector<Tensor>& x) {
                 return triplet_margin_loss(x[0], x[1], 0.5 * x[2], 0.5, 1, 1e-6, true, r.aten);
               });
    check_case("triplet_distance_" + r.name, {{4, 5}, {4, 5}, {4, 5}}, {0, 1, 2},
               [&](const std::vector<Tensor>& x) {
                 auto cosine_distance = [](const Tensor& a, const Tensor& b) {
                   return 1 - cosine_similarity(a, b);
                 };
                 return nn::TripletMarginWithDistanceLoss(nn::TripletMarginWithDistanceLossOptions()
                                                              .distance_function(cosine_distance)
                                                              .margin(0.8)
                                                              .swap(true)
                                                              .reduction(r.option))(x[0], x[1],
                                                                                    x[2]);
               });
    check_case("multi_margin_" + r.name, {{4, 5}}, {0}, [&](const std::vector<Tensor>& x) {
      return nn::MultiMarginLoss(nn::MultiMarginLossOptions().reduction(r.option))(
          x[0], longs({1, 0, 4, 2}, {4}));
    });
    check_case(
        "multi_margin_p2_weight_" + r.name, {{4, 5}, {5}}, {0}, [&](const std::vector<Tensor>& x) {
          return multi_margin_loss(x[0], longs({3, 3, 0, 1}, {4}), 2, 0.7, x[1].abs(), r.aten);
        });
    check_case("multilabel_margin_" + r.name, {{3, 4}}, {0}, [&](const std::vector<Tensor>& x) {
      return nn::MultiLabelMarginLoss(nn::MultiLabelMarginLossOptions().reduction(r.option))(
          x[0], longs({3, 0, -1, 1, 0, 1, 2, 3, 2, -1, 0, 0}, {3, 4}));
    });
    check_case("multilabel_soft_margin_" + r.name, {{3, 4}, {3, 4}, {4}}, {0, 1},
               [&](const std::vector<Tensor>& x) {
                 return nn::MultiLabelSoftMarginLoss(
                     nn::MultiLabelSoftMarginLossOptions().weight(x[2].abs()).reduction(r.option))(
                     x[0], (x[1] + 1) / 2);
               });
  }
  check_case("cosine_embedding_unbatched", {{5}, {5}}, {0, 1}, [](const std::vector<Tensor>& x) {
    return F::cosine_embedding_loss(x[0], x[1], scalar_tensor(-1, kInt64),
                                    F::CosineEmbeddingLossFuncOptions().margin(-0.5));
  });
  check_case("multi_margin_unbatched", {{5}}, {0}, [](const std::vector<Tensor>& x) {
    return F::multi_margin_loss(x[0], scalar_tensor(3, kInt64),
                                F::MultiMarginLossFuncOptions().reduction(kNone));
  });
  check_case("multilabel_margin_unbatched", {{4}}, {0}, [](const std::vector<Tensor>& x) {
    return F::multilabel_margin_loss(x[0], longs({2, 1, -1, 3}, {4}), kNone);
  });
}

// d<v, loss>/dx against central differences, for every differentiable input of every loss.
TEST(LossFamily, FirstOrderGradchecks) {
  manual_seed(3);
  Tensor x = randn({3, 4}, kFloat64), y = randn({3, 4}, kFloat64), z = randn({3, 4}, kFloat64);
  Tensor labels = longs({2, 0, 3}, {3});
  auto check = [](const std::string& what, const Loss& loss, const std::vector<Tensor>& inputs) {
    first_order_check(what, loss, inputs, Device::cpu(), 1e-6, /*allow_unused=*/false);
  };
  check("l1_loss", [](const std::vector<Tensor>& t) { return l1_loss(t[0], t[1]); }, {x, y});
  check(
      "smooth_l1_loss",
      [](const std::vector<Tensor>& t) { return smooth_l1_loss(t[0], t[1], Reduction::Sum, 0.7); },
      {x, y});
  check("huber_loss",
        [](const std::vector<Tensor>& t) { return huber_loss(t[0], t[1], Reduction::Mean, 0.6); },
        {x, y});
  check("soft_margin_loss",
        [](const std::vector<Tensor>& t) { return soft_margin_loss(t[0], t[1]); }, {x, y});
  check("binary_cross_entropy",
        [](const std::vector<Tensor>& t) {
          return binary_cross_entropy(sigmoid(t[0]), sigmoid(t[1]));
        },
        {x, y});
  check("kl_div",
        [](const std::vector<Tensor>& t) {
          return kl_div(log_softmax(t[0], 1), softmax(t[1], 1), Reduction::Sum);
        },
        {x, y});
  check("kl_div_log_target",
        [](const std::vector<Tensor>& t) { return kl_div(t[0], t[1], Reduction::None, true); },
        {x, y});
  check("cross_entropy_probs",
        [](const std::vector<Tensor>& t) {
          return cross_entropy_loss(t[0], softmax(t[1], 1), {}, Reduction::Mean, -100, 0.1);
        },
        {x, y});
  check(
      "cross_entropy_indices",
      [&labels, &y](const std::vector<Tensor>& t) {  // class weights get no gradient, as in PyTorch
        return cross_entropy_loss(t[0], labels, y.abs().sum(0) + 0.5, Reduction::Mean, 0, 0.2);
      },
      {x});
  check("poisson_nll_loss",
        [](const std::vector<Tensor>& t) {
          return poisson_nll_loss(t[0].exp(), t[1].abs() * 3, false, true, 1e-8, Reduction::Mean);
        },
        {x, y});
  check("gaussian_nll_loss",
        [](const std::vector<Tensor>& t) {
          return F::gaussian_nll_loss(t[0], t[1], t[2].abs() + 0.5);
        },
        {x, y, z});
  check("margin_ranking_loss",
        [](const std::vector<Tensor>& t) {
          return margin_ranking_loss(t[0], t[1], t[2].sign(), 0.1);
        },
        {x, y, z});
  check("hinge_embedding_loss",
        [&y](const std::vector<Tensor>& t) { return hinge_embedding_loss(t[0], y.sign(), 0.5); },
        {x});
  check("cosine_embedding_loss",
        [](const std::vector<Tensor>& t) {
          return cosine_embedding_loss(t[0], t[1], longs({1, -1, -1}, {3}), -0.2);
        },
        {x, y});
  check("triplet_margin_loss",
        [](const std::vector<Tensor>& t) {
          return triplet_margin_loss(t[0], t[1], t[2], 2.0, 3, 1e-6, true);
        },
        {x, y, z});
  check("multi_margin_loss",
        [&labels](const std::vector<Tensor>& t) {
          return multi_margin_loss(t[0], labels, 2, 1.5, t[1].abs().sum(0));
        },
        {x, y});
  check(
      "multilabel_margin_loss",
      [](const std::vector<Tensor>& t) {
        return multilabel_margin_loss(t[0], longs({1, 3, -1, 0, 0, 2, 1, 3, 2, 1, 0, -1}, {3, 4}));
      },
      {x});
  check("multilabel_soft_margin_loss",
        [](const std::vector<Tensor>& t) {
          return F::multilabel_soft_margin_loss(t[0], sigmoid(t[1]));
        },
        {x, y});
}

TEST(LossFamily, ErrorsNameTheOpAndShapes) {
  Tensor a = ones({2, 3}), b = ones({4});
  EXPECT_EQ(error_of<ValueError>([&] { l1_loss(a, b); }),
            "[l1_loss] The size of tensor a (3) must match the size of tensor b (4) at "
            "non-singleton dimension 1 (shapes [2, 3] and [4] cannot be broadcast together)");
  EXPECT_EQ(error_of<ValueError>([&] { F::huber_loss(a, b); }),
            "[huber_loss] The size of tensor a (3) must match the size of tensor b (4) at "
            "non-singleton dimension 1 (shapes [2, 3] and [4] cannot be broadcast together)");
  EXPECT_EQ(error_of<ValueError>([&] { nn::BCELoss()(a * 0.5, ones({3})); }),
            "[binary_cross_entropy] Using a target size ([3]) that is different to the input size "
            "([2, 3]) is deprecated. Please ensure they have the same size.");
  EXPECT_EQ(error_of<ValueError>([&] { binary_cross_entropy(a * 2, a); }),
            "[binary_cross_entropy] all elements of input should be between 0 and 1");
  EXPECT_EQ(error_of<ValueError>([&] { F::gaussian_nll_loss(a, a, ones({3})); }),
            "[gaussian_nll_loss] var is of incorrect size: var of shape [3] for input of shape "
            "[2, 3] (it must be the input's shape, or it without its last dimension, or with 1 "
            "there)");
  EXPECT_EQ(error_of<ValueError>([&] { F::gaussian_nll_loss(a, a, -a); }),
            "[gaussian_nll_loss] var has negative entry/entries");
  EXPECT_EQ(error_of<ValueError>([&] { F::margin_ranking_loss(a, a, ones({3})); }),
            "[margin_ranking_loss] All input tensors should have same dimension but got sizes: "
            "input1: [2, 3], input2: [2, 3], target: [3]");
  EXPECT_EQ(error_of<ValueError>([&] {
              cosine_embedding_loss(a, a, ones({2, 3}));
            }),
            "[cosine_embedding_loss] 0D or 1D target tensor expected, multi-target not supported, "
            "got target of shape [2, 3]");
  EXPECT_EQ(error_of<ValueError>([&] { cosine_embedding_loss(b, b, ones({4})); }),
            "[cosine_embedding_loss] 1D target tensor expects 2D input tensors, but found inputs "
            "with sizes [4] and [4].");
  EXPECT_EQ(error_of<ValueError>([&] { triplet_margin_loss(a, a, b); }),
            "[triplet_margin_loss] All inputs should have same dimension but got 2D, 2D and 1D "
            "inputs: anchor [2, 3], positive [2, 3], negative [4]");
  EXPECT_EQ(error_of<ValueError>([&] {
              multi_margin_loss(a, longs({0, 1, 2}, {3}));
            }),
            "[multi_margin_loss] inconsistent target size, expected 2 but got target of shape [3] "
            "for input of shape [2, 3]");
  EXPECT_EQ(error_of<ValueError>([&] {
              multi_margin_loss(a, longs({0, 1}, {2}), 3);
            }),
            "[multi_margin_loss] only p == 1 and p == 2 supported, got p=3");
  EXPECT_EQ(error_of<IndexError>([&] {
              multi_margin_loss(a, longs({0, 3}, {2}));
            }),
            "[multi_margin_loss] target out of range: class indices must lie in [0, 3)");
  EXPECT_EQ(error_of<ValueError>([&] {
              multilabel_margin_loss(a, longs({0, 1}, {2}));
            }),
            "[multilabel_margin_loss] inconsistent size [2] for target: expected the input's "
            "shape [2, 3]");
  EXPECT_EQ(error_of<ValueError>([&] { smooth_l1_loss(a, a, Reduction::Mean, -1); }),
            "[smooth_l1_loss] smooth_l1_loss does not support negative values for beta, got -1");
  EXPECT_EQ(
      error_of<ValueError>([&] { l1_loss(a, a, 7); }),
      "[l1_loss] 7 is not a valid value for reduction: pass at::Reduction::None, Mean or Sum");
}

TEST(LossFamily, ModulesPrintAndHoldTheirWeights) {
  nn::MultiMarginLoss multi(nn::MultiMarginLossOptions().weight(ones({3})));
  EXPECT_EQ(multi->named_buffers().size(), 1u);
  std::ostringstream printed;
  printed << *nn::TripletMarginLoss() << " " << *nn::HingeEmbeddingLoss() << " "
          << *nn::SmoothL1Loss();
  EXPECT_EQ(printed.str(),
            "torch::nn::TripletMarginLoss(margin=1, p=2, eps=1e-06, swap=false) "
            "torch::nn::HingeEmbeddingLoss(margin=1) torch::nn::SmoothL1Loss");
}

}  // namespace
}  // namespace ember::test
