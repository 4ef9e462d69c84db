// GroupNorm, InstanceNorm, LocalResponseNorm, the distances and pixel shuffles against torch
// 1.13 (norm_reference.h, made by gen_norm_reference.py from the same cases), their gradchecks,
// errors and modules, and the statistics of the channel and alpha dropouts.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "autograd/gradcheck.h"
#include "ember/ember.h"
#include "nn/norm_reference.h"
#include "nn/reference_case.h"

namespace ember::test {
namespace {

namespace F = nn::functional;

using Outputs = CaseOutputs;

void check_case(const std::string& name, const std::vector<std::vector<int64_t>>& shapes,
                const std::vector<size_t>& grads, const Outputs& forward) {
  check_reference_case(norm_reference(), name, shapes, grads, forward);
}

TEST(NormDistance, GroupAndInstanceNormMatchPyTorch) {
  check_case("group_norm", {{2, 6, 3, 2}, {6}, {6}}, {0, 1, 2}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{group_norm(x[0], 3, x[1], x[2], 1e-5, false)};
  });
  check_case("group_norm_no_affine", {{3, 4, 5}}, {0}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{F::group_norm(x[0], F::GroupNormFuncOptions(2).eps(1e-3))};
  });
  check_case("instance_norm_training", {{2, 3, 5}, {3}, {3}, {3}, {3}}, {0, 1, 2},
             [](const std::vector<Tensor>& x) {
               Tensor mean = x[3].detach().clone(), var = x[4].detach().abs() + 0.5;
               Tensor out = instance_norm(x[0], x[1], x[2], mean, var, true, 0.2, 1e-5, false);
               return std::vector<Tensor>{out, mean, var};
             });
  check_case("instance_norm_eval", {{2, 3, 2, 2}, {3}, {3}, {3}, {3}}, {0, 1, 2},
             [](const std::vector<Tensor>& x) {
               return std::vector<Tensor>{F::instance_norm(x[0], F::InstanceNormFuncOptions()
                                                                     .weight(x[1])
                                                                     .bias(x[2])
                                                                     .running_mean(x[3].detach())
                                                                     .running_var(x[4].abs() + 0.5)
                                                                     .use_input_stats(false))};
             });
}

TEST(NormDistance, LocalResponseNormMatchesPyTorch) {
  check_case("local_response_norm_3d", {{2, 5, 3}}, {0}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{F::local_response_norm(
        x[0], F::LocalResponseNormFuncOptions(3).alpha(0.1).beta(0.75).k(2.0))};
  });
  check_case("local_response_norm_4d", {{2, 6, 2, 2}}, {0}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{
        nn::LocalResponseNorm(nn::LocalResponseNormOptions(4).alpha(0.3).beta(0.5))(x[0])};
  });
}

TEST(NormDistance, DistancesAndShufflesMatchPyTorch) {
  check_case("cosine_similarity", {{3, 4}, {3, 4}}, {0, 1}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{F::cosine_similarity(x[0], x[1])};
  });
  check_case("cosine_similarity_broadcast", {{2, 1, 4}, {3, 4}}, {0, 1},
             [](const std::vector<Tensor>& x) {
               return std::vector<Tensor>{cosine_similarity(x[0], x[1], -1)};
             });
  check_case("pairwise_distance", {{3, 4}, {3, 4}}, {0, 1}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{nn::PairwiseDistance()(x[0], x[1])};
  });
  check_case(
      "pairwise_distance_p1_keepdim", {{3, 4}, {3, 4}}, {0, 1}, [](const std::vector<Tensor>& x) {
        return std::vector<Tensor>{
            F::pairwise_distance(x[0], x[1], F::PairwiseDistanceFuncOptions().p(1).keepdim(true))};
      });
  check_case("pairwise_distance_p3_broadcast", {{3, 4}, {4}}, {0, 1},
             [](const std::vector<Tensor>& x) {
               return std::vector<Tensor>{pairwise_distance(x[0], x[1], 3.0)};
             });
  check_case("pixel_shuffle", {{1, 8, 2, 3}}, {0}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{nn::PixelShuffle(2)(x[0])};
  });
  check_case("pixel_unshuffle", {{2, 1, 4, 6}}, {0}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{F::pixel_unshuffle(x[0], 2)};
  });
}

TEST(NormDistance, Gradchecks) {
  manual_seed(7);
  Tensor x = randn({2, 4, 3}, kFloat64), w = randn({4}, kFloat64), b = randn({4}, kFloat64);
  gradcheck("group_norm",
            [](const std::vector<Tensor>& v) { return group_norm(v[0], 2, v[1], v[2]); },
            {x, w, b});
  gradcheck("instance_norm",
            [](const std::vector<Tensor>& v) {
              return instance_norm(v[0], v[1], v[2], {}, {}, true, 0.1, 1e-5, false);
            },
            {x, w, b});
  gradcheck("local_response_norm",
            [](const std::vector<Tensor>& v) {
              return F::local_response_norm(v[0], F::LocalResponseNormFuncOptions(2).alpha(0.5));
            },
            {x});
  Tensor y = randn({2, 4, 3}, kFloat64);
  gradcheck("cosine_similarity",
            [](const std::vector<Tensor>& v) { return cosine_similarity(v[0], v[1]); }, {x, y});
  gradcheck("pairwise_distance",
            [](const std::vector<Tensor>& v) { return pairwise_distance(v[0], v[1]); }, {x, y});
}

// Fails unless f throws an ember::Error whose message contains `words`.
void norm_expect_error(const std::function<void()>& f, const std::string& words) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one saying: " << words;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(NormDistance, ErrorsNameTheProblem) {
  norm_expect_error(
      [] {
        group_norm(ones({2, 4, 3}), 3);
      },
      "Expected number of channels in input to be divisible by num_groups, but got "
      "input of shape [2, 4, 3] and num_groups=3");
  norm_expect_error(
      [] {
        nn::GroupNorm(2, 4)(ones({2, 6, 3}));
      },
      "Expected weight to be a vector of size equal to the number of channels in input, "
      "but got weight of shape [4] and input of shape [2, 6, 3]");
  norm_expect_error(
      [] {
        nn::InstanceNorm1d(3)(ones({2, 3, 4, 5}));
      },
      "expected 2D or 3D input (got 4D input)");
  norm_expect_error(
      [] {
        nn::BatchNorm3d(3)(ones({2, 3, 4}));
      },
      "expected 5D input (got 3D input)");
  norm_expect_error(
      [] {
        nn::LocalResponseNorm(2)(ones({2, 3}));
      },
      "Expected 3D or higher dimensionality input (got 2 dimensions)");
  norm_expect_error(
      [] {
        pixel_shuffle(ones({1, 5, 2, 2}), 2);
      },
      "pixel_shuffle expects its input's 'channel' dimension to be divisible by the "
      "square of upscale_factor, but input.size(-3)=5 is not divisible by 4");
  norm_expect_error(
      [] {
        pixel_unshuffle(ones({1, 1, 4, 3}), 2);
      },
      "pixel_unshuffle expects width to be divisible by downscale_factor, but "
      "input.size(-1)=3 is not divisible by 2");
  norm_expect_error(
      [] {
        pixel_shuffle(ones({2, 3}), 2);
      },
      "pixel_shuffle expects input to have at least 3 dimensions, but got input with 2 "
      "dimension(s)");
  norm_expect_error(
      [] {
        cosine_similarity(ones({2, 3}, kLong), ones({2, 3}, kLong));
      },
      "expected common dtype to be floating point, yet common dtype is Long");
  norm_expect_error([] { feature_alpha_dropout(ones({3}), 0.5, true); },
                    "Feature dropout requires at least 2 dimensions in the input");
  norm_expect_error([] { nn::Dropout2d(1.5); },
                    "dropout probability has to be between 0 and 1, but got 1.5");
  norm_expect_error(
      [] {
        nn::Unflatten(1, std::vector<int64_t>{2, 4})(ones({2, 6}));
      },
      "unflatten: Provided sizes [2, 4] don't multiply up to the size of dim 1 (6) in "
      "the input tensor");
}

TEST(NormDistance, Dropout2dDropsWholeChannels) {
  manual_seed(3);
  Tensor x = ones({16, 64, 3, 3});
  Tensor out = F::dropout2d(x, F::Dropout2dFuncOptions().p(0.25));
  // Each channel is all 0 or all 1 / (1 - p), and about p of them are 0.
  Tensor per_channel = out.reshape({16 * 64, 9});
  Tensor channel_min = per_channel.amin({1}), channel_max = per_channel.amax({1});
  EXPECT_TRUE(channel_min.eq(channel_max).all().item<bool>());
  EXPECT_TRUE((channel_max.eq(0) | channel_max.eq(1 / 0.75)).all().item<bool>());
  const double dropped = channel_max.eq(0).to(kFloat64).mean().item<double>();
  EXPECT_NEAR(dropped, 0.25, 0.05);
  // Unbatched [C, H, W] drops channels too; eval() is the identity.
  Tensor unbatched = F::dropout2d(ones({64, 2, 2}), F::Dropout2dFuncOptions().p(0.5));
  EXPECT_TRUE(unbatched.amin({1, 2}).eq(unbatched.amax({1, 2})).all().item<bool>());
  nn::Dropout3d layer(0.5);
  layer->eval();
  Tensor volume = ones({2, 3, 2, 2, 2});
  EXPECT_TRUE(layer(volume).is_same(volume));
}

TEST(NormDistance, AlphaDropoutKeepsMeanAndVariance) {
  manual_seed(5);
  Tensor x = randn({200000});
  Tensor out = F::alpha_dropout(x, F::AlphaDropoutFuncOptions().p(0.3).training(true));
  EXPECT_NEAR(out.mean().item<double>(), 0.0, 0.02);
  EXPECT_NEAR(out.var().item<double>(), 1.0, 0.03);
  // A dropped value is a' (-alpha') + b, the same for every dropped element.
  const double alpha = 1.7580993408473766, a = 1 / std::sqrt((alpha * alpha * 0.3 + 1) * 0.7);
  const double dropped = -alpha * a + alpha * a * 0.3;
  const double share = out.sub(dropped).abs().lt(1e-6).to(kFloat64).mean().item<double>();
  EXPECT_NEAR(share, 0.3, 0.01);
  // Off by default in the F:: form, and in eval() for the module.
  EXPECT_TRUE(F::alpha_dropout(x).is_same(x));
  nn::FeatureAlphaDropout layer(0.3);
  Tensor y = randn({400, 8, 5});
  Tensor features = layer(y);
  Tensor is_dropped = features.sub(dropped).abs().lt(1e-6).to(kFloat64).mean({2});
  EXPECT_TRUE((is_dropped.eq(0) | is_dropped.eq(1)).all().item<bool>());  // whole channels
  EXPECT_NEAR(is_dropped.mean().item<double>(), 0.3, 0.03);
  layer->eval();
  EXPECT_TRUE(layer(y).is_same(y));
}

TEST(NormDistance, InplaceDropoutWritesIntoTheInput) {
  manual_seed(9);
  Tensor x = ones({4, 32, 2, 2});
  Tensor out = F::dropout2d(x, F::Dropout2dFuncOptions().p(0.5).inplace(true));
  EXPECT_TRUE(out.is_same(x));
  EXPECT_GT(x.eq(0).sum().item<int64_t>(), 0);
  Tensor y = randn({1000});
  Tensor before = y.clone();
  nn::AlphaDropout layer(nn::AlphaDropoutOptions(0.2).inplace(true));
  Tensor alpha_out = layer(y);
  EXPECT_TRUE(alpha_out.data_ptr() == y.data_ptr());
  EXPECT_FALSE(y.equal(before));
}

template <class Module>
std::string norm_printed(const Module& module) {
  std::ostringstream os;
  os << module;
  return os.str();
}

TEST(NormDistance, ModulesAsLibTorch) {
  nn::GroupNorm group(2, 4);
  EXPECT_EQ(norm_printed(group), "torch::nn::GroupNorm(2, 4, eps=1e-05, affine=true)");
  EXPECT_EQ(group->named_parameters().keys(), (std::vector<std::string>{"weight", "bias"}));
  EXPECT_TRUE(group->weight.equal(ones({4})));
  EXPECT_TRUE(group->bias.equal(zeros({4})));
  EXPECT_EQ(nn::GroupNorm(nn::GroupNormOptions(1, 3).affine(false))->parameters().size(), 0u);

  nn::InstanceNorm2d instance(nn::InstanceNormOptions(3).affine(true).track_running_stats(true));
  EXPECT_EQ(norm_printed(instance),
            "torch::nn::InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=true, "
            "track_running_stats=true)");
  EXPECT_EQ(instance->named_buffers().keys(),
            (std::vector<std::string>{"running_mean", "running_var", "num_batches_tracked"}));
  nn::InstanceNorm1d plain(4);
  EXPECT_EQ(plain->parameters().size() + plain->buffers().size(), 0u);
  EXPECT_EQ(norm_printed(plain),
            "torch::nn::InstanceNorm1d(4, eps=1e-05, momentum=0.1, affine=false, "
            "track_running_stats=false)");

  // Training moves the running statistics; eval() normalises with them.
  Tensor x = arange(24, TensorOptions(kFloat)).reshape({2, 3, 4});
  nn::InstanceNorm1d tracked(nn::InstanceNormOptions(3).track_running_stats(true));
  tracked(x);
  EXPECT_TRUE(allclose(tracked->running_mean, tensor({0.75f, 1.15f, 1.55f})));
  EXPECT_TRUE(allclose(tracked->running_var, full({3}, 0.9f + 0.1f * 5.0f / 3.0f)));
  tracked->eval();
  Tensor evaluated = tracked(x);
  EXPECT_TRUE(allclose(evaluated, (x - tracked->running_mean.view({1, 3, 1})) /
                                      sqrt(tracked->running_var.view({1, 3, 1}) + 1e-5)));
  tracked->reset_running_stats();
  EXPECT_TRUE(tracked->running_mean.equal(zeros({3})) && tracked->running_var.equal(ones({3})));
  // Unbatched [C, L] is a batch of one.
  EXPECT_TRUE(plain(x[0]).equal(plain(x[0].unsqueeze(0))[0]));

  nn::BatchNorm3d batch3d(3);
  EXPECT_EQ(norm_printed(batch3d),
            "torch::nn::BatchNorm3d(3, eps=1e-05, momentum=0.1, affine=true, "
            "track_running_stats=true)");
  EXPECT_EQ(batch3d(ones({2, 3, 1, 2, 2})).sizes(), IntArrayRef({2, 3, 1, 2, 2}));

  EXPECT_EQ(norm_printed(nn::LocalResponseNorm(3)),
            "torch::nn::LocalResponseNorm(3, alpha=0.0001, beta=0.75, k=1)");
  EXPECT_EQ(norm_printed(nn::Dropout2d()), "torch::nn::Dropout2d(p=0.5, inplace=false)");
  EXPECT_EQ(norm_printed(nn::AlphaDropout(nn::AlphaDropoutOptions(0.2).inplace(true))),
            "torch::nn::AlphaDropout(p=0.2, inplace=true)");
  EXPECT_EQ(norm_printed(nn::CosineSimilarity()), "torch::nn::CosineSimilarity(dim=1, eps=1e-08)");
  EXPECT_EQ(norm_printed(nn::PairwiseDistance(nn::PairwiseDistanceOptions().p(1).keepdim(true))),
            "torch::nn::PairwiseDistance(p=1, eps=1e-06, keepdim=true)");
  EXPECT_EQ(norm_printed(nn::PixelUnshuffle(3)), "torch::nn::PixelUnshuffle(downscale_factor=3)");

  nn::Unflatten unflatten(1, std::vector<int64_t>{2, -1});
  EXPECT_EQ(norm_printed(unflatten), "torch::nn::Unflatten(dim=1, unflattened_size={2, -1})");
  EXPECT_EQ(unflatten(ones({2, 6, 5})).sizes(), IntArrayRef({2, 2, 3, 5}));
  Tensor image = arange(2 * 8 * 2 * 4, TensorOptions(kFloat)).reshape({2, 8, 2, 4});
  EXPECT_TRUE(nn::PixelUnshuffle(2)(nn::PixelShuffle(2)(image)).equal(image));
}

}  // namespace
}  // namespace ember::test
