// F::embedding_bag, nn::EmbeddingBag and F::embedding's max_norm and scale_grad_by_freq against
// PyTorch 1.13 (embedding_bag_reference.h, made by gen_embedding_bag_reference.py from the same
// cases): outputs, the renormalised weight and gradients in double, then gradchecks, the errors
// and the layers' printing.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "autograd/gradcheck.h"
#include "ember/ember.h"
#include "nn/embedding_bag_reference.h"
#include "nn/reference_case.h"
#include "test_util.h"

namespace ember::test {
namespace {

namespace F = nn::functional;
using BagInputs = std::vector<Tensor>;
const std::vector<int64_t> kBagWeight{10, 3};
const std::vector<int64_t> kBagIndices{1, 2, 4, 5, 4, 3, 2, 9};
const std::vector<int64_t> kBagOffsets{0, 2, 2, 5};  // bag 1 is empty
const std::vector<int64_t> kBagPadIndices{1, 2, 4, 2, 2, 3, 2};
const std::vector<int64_t> kBagPadOffsets{0, 3, 3, 5, 6};  // bag 1 empty, bag 2 only padding

Tensor bag_longs(const std::vector<int64_t>& values) { return tensor(values); }
Tensor bag_input_2d() { return tensor(std::vector<int64_t>{0, 2, 3, 3, 3, 1}).view({2, 3}); }

// A case over the weight alone.
void check_bag_case(const std::string& name,
                    const std::function<std::vector<Tensor>(const Tensor&)>& forward) {
  check_reference_case(embedding_bag_reference(), name, {kBagWeight}, {0},
                       [&](const BagInputs& v) { return forward(v[0]); });
}

std::string embbag_mode_name(const nn::EmbeddingBagMode& mode) {
  std::string name = enumtype::get_enum_name(mode).substr(1);
  name[0] = static_cast<char>(name[0] - 'A' + 'a');
  return name;
}

TEST(EmbeddingBag, ModesMatchPyTorch) {
  for (nn::EmbeddingBagMode mode :
       {nn::EmbeddingBagMode(kSum), nn::EmbeddingBagMode(kMean), nn::EmbeddingBagMode(kMax)}) {
    const std::string m = embbag_mode_name(mode);
    check_bag_case(m + "_offsets", [&](const Tensor& w) {
      return BagInputs{F::embedding_bag(
          bag_longs(kBagIndices), w,
          F::EmbeddingBagFuncOptions().offsets(bag_longs(kBagOffsets)).mode(mode))};
    });
    check_bag_case(m + "_2d", [&](const Tensor& w) {
      return BagInputs{
          F::embedding_bag(bag_input_2d(), w, F::EmbeddingBagFuncOptions().mode(mode))};
    });
    check_bag_case(m + "_last_offset", [&](const Tensor& w) {
      return BagInputs{F::embedding_bag(bag_longs({1, 2, 4, 5, 4, 3}), w,
                                        F::EmbeddingBagFuncOptions()
                                            .offsets(bag_longs({0, 2, 2, 6}))
                                            .mode(mode)
                                            .include_last_offset(true))};
    });
    check_bag_case(m + "_padding", [&](const Tensor& w) {
      return BagInputs{F::embedding_bag(bag_longs(kBagPadIndices), w,
                                        F::EmbeddingBagFuncOptions()
                                            .offsets(bag_longs(kBagPadOffsets))
                                            .mode(mode)
                                            .padding_idx(-8))};
    });
    check_bag_case(m + "_padding_2d", [&](const Tensor& w) {
      return BagInputs{F::embedding_bag(bag_longs({2, 2, 2, 7, 5, 4}).view({3, 2}), w,
                                        F::EmbeddingBagFuncOptions().mode(mode).padding_idx(2))};
    });
  }
}

TEST(EmbeddingBag, PerSampleWeightsMatchPyTorch) {
  auto weighted = [](const std::string& name, const Tensor& input, const Tensor& offsets,
                     std::optional<int64_t> padding_idx = std::nullopt) {
    check_reference_case(embedding_bag_reference(), name, {kBagWeight, input.sizes().vec()}, {0, 1},
                         [&](const BagInputs& v) {
                           return BagInputs{F::embedding_bag(input, v[0],
                                                             F::EmbeddingBagFuncOptions()
                                                                 .offsets(offsets)
                                                                 .mode(kSum)
                                                                 .per_sample_weights(v[1])
                                                                 .padding_idx(padding_idx))};
                         });
  };
  weighted("weighted_offsets", bag_longs(kBagIndices), bag_longs(kBagOffsets));
  weighted("weighted_2d", bag_input_2d(), Tensor());
  weighted("weighted_padding", bag_longs(kBagPadIndices), bag_longs(kBagPadOffsets), 2);
}

// max_norm renormalises the looked-up rows of weight in place: the second output is the weight
// after the call.
TEST(EmbeddingBag, MaxNormRenormalisesWeightAsPyTorch) {
  for (nn::EmbeddingBagMode mode :
       {nn::EmbeddingBagMode(kSum), nn::EmbeddingBagMode(kMean), nn::EmbeddingBagMode(kMax)}) {
    check_bag_case(embbag_mode_name(mode) + "_max_norm", [&](const Tensor& w) {
      Tensor out = F::embedding_bag(
          bag_longs(kBagIndices), w,
          F::EmbeddingBagFuncOptions().offsets(bag_longs(kBagOffsets)).mode(mode).max_norm(1.2));
      return BagInputs{out, w.detach().clone()};
    });
  }
  check_bag_case("sum_max_norm_l1", [](const Tensor& w) {
    Tensor out = F::embedding_bag(bag_longs(kBagIndices), w,
                                  F::EmbeddingBagFuncOptions()
                                      .offsets(bag_longs(kBagOffsets))
                                      .mode(kSum)
                                      .max_norm(2.0)
                                      .norm_type(1.0));
    return BagInputs{out, w.detach().clone()};
  });
}

TEST(Embedding, MaxNormAndScaleGradByFreqMatchPyTorch) {
  check_bag_case("embedding_max_norm", [](const Tensor& w) {
    Tensor out = F::embedding(bag_input_2d(), w, F::EmbeddingFuncOptions().max_norm(1.2));
    return BagInputs{out, w.detach().clone()};
  });
  check_bag_case("embedding_max_norm_l3_padding", [](const Tensor& w) {
    Tensor out = F::embedding(
        bag_input_2d(), w, F::EmbeddingFuncOptions().max_norm(1.0).norm_type(3.0).padding_idx(3));
    return BagInputs{out, w.detach().clone()};
  });
  check_bag_case("embedding_scale_grad_by_freq", [](const Tensor& w) {
    return BagInputs{F::embedding(bag_longs({1, 1, 2, 0, 1, 4}).view({2, 3}), w,
                                  F::EmbeddingFuncOptions().scale_grad_by_freq(true))};
  });
  check_bag_case("embedding_scale_grad_by_freq_padding", [](const Tensor& w) {
    return BagInputs{
        F::embedding(bag_longs({1, 1, 2, 0, 1, 0}).view({2, 3}), w,
                     F::EmbeddingFuncOptions().scale_grad_by_freq(true).padding_idx(0))};
  });
}

TEST(Embedding, LayerRenormalisesItsWeight) {
  nn::Embedding embedding(nn::EmbeddingOptions(4, 2).max_norm(1.0));
  {
    NoGradGuard no_grad;
    embedding->weight.copy_(tensor(std::vector<double>{3, 4, 0.3, 0.4, 6, 8, 1, 0}).view({4, 2}));
  }
  Tensor out = embedding(bag_longs({0, 1, 0}));
  // Row 0 (norm 5) becomes norm 1 (less 1e-7 relative); row 1 (norm 0.5) and the unused row 2
  // are left alone.
  const std::vector<float> w = embedding->weight.detach().to_vector<float>();
  EXPECT_NEAR(w[0], 0.6, 1e-6);
  EXPECT_NEAR(w[1], 0.8, 1e-6);
  EXPECT_FLOAT_EQ(w[2], 0.3f);
  EXPECT_FLOAT_EQ(w[4], 6.f);
  EXPECT_NEAR(out.to_vector<float>()[4], 0.6, 1e-6);
  // The free function renormalises with any norm.
  Tensor table = tensor(std::vector<double>{3, -4, 1, 1}, kFloat64).view({2, 2});
  embedding_renorm_(table, bag_longs({0, 0}), 2.0, 1.0);
  EXPECT_NEAR(table.to_vector<double>()[0], 3.0 * 2.0 / (7.0 + 1e-7), 1e-12);
  EXPECT_EQ(table.to_vector<double>()[3], 1.0);
}

// scale_grad_by_freq divides each row's gradient by its index's count in the whole input (torch
// 1.13's embedding_bag looks the count up wrongly, so this is worked out by hand).
TEST(EmbeddingBag, ScaleGradByFreqByHand) {
  Tensor w = arange(15, TensorOptions(kFloat64)).view({5, 3}).requires_grad_();
  Tensor out = F::embedding_bag(
      bag_longs({2, 0, 1, 1, 1, 4}), w,
      F::EmbeddingBagFuncOptions().offsets(bag_longs({0, 2})).mode(kSum).scale_grad_by_freq(true));
  EXPECT_EQ(out.to_vector<double>(), (std::vector<double>{6, 8, 10, 21, 25, 29}));
  out.sum().backward();
  // Row 1 occurs 3 times (each gradient 1/3), rows 0, 2 and 4 once, row 3 never. (No
  // gradcheck: the scaled gradient is by design not the derivative.)
  std::vector<double> g = w.grad().to_vector<double>();
  const std::vector<double> want{1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(g[i], want[i], 1e-12) << i;
  // kMean: bag 1 holds 4 rows, so row 1 gets 3 * (1/4) / 3 and row 4 gets 1/4.
  Tensor w2 = w.detach().clone().requires_grad_();
  F::embedding_bag(bag_longs({2, 0, 1, 1, 1, 4}), w2,
                   F::EmbeddingBagFuncOptions().offsets(bag_longs({0, 2})).scale_grad_by_freq(true))
      .sum()
      .backward();
  g = w2.grad().to_vector<double>();
  EXPECT_NEAR(g[0], 0.5, 1e-12);
  EXPECT_NEAR(g[3], 0.25, 1e-12);
  EXPECT_NEAR(g[12], 0.25, 1e-12);
}

TEST(EmbeddingBag, EmptyAndIntInputs) {
  const Tensor w = arange(6, TensorOptions(kFloat32)).view({3, 2});
  // Every bag empty, int32 indices and offsets: zeros of [bags, dim] in each mode.
  for (nn::EmbeddingBagMode mode :
       {nn::EmbeddingBagMode(kSum), nn::EmbeddingBagMode(kMean), nn::EmbeddingBagMode(kMax)}) {
    Tensor out = F::embedding_bag(
        tensor(std::vector<int32_t>{}), w,
        F::EmbeddingBagFuncOptions().offsets(tensor(std::vector<int32_t>{0, 0})).mode(mode));
    EXPECT_EQ(out.sizes(), IntArrayRef({2, 2}));
    EXPECT_EQ(out.to_vector<float>(), (std::vector<float>(4, 0.f)));
  }
  Tensor out = F::embedding_bag(
      tensor(std::vector<int32_t>{2, 0, 1}), w,
      F::EmbeddingBagFuncOptions().offsets(tensor(std::vector<int32_t>{0, 1})).mode(kMax));
  EXPECT_EQ(out.to_vector<float>(), (std::vector<float>{4, 5, 2, 3}));
  EXPECT_EQ(out.scalar_type(), kFloat32);
  // The all-empty case still backpropagates (zeros) into a weight that requires grad.
  Tensor wg = w.clone().requires_grad_();
  F::embedding_bag(bag_longs({}), wg,
                   F::EmbeddingBagFuncOptions().offsets(bag_longs({0})).mode(kMax))
      .sum()
      .backward();
  EXPECT_EQ(wg.grad().to_vector<float>(), (std::vector<float>(6, 0.f)));
}

TEST(EmbeddingBag, Gradchecks) {
  manual_seed(7);
  using V = std::vector<Tensor>;
  for (nn::EmbeddingBagMode mode :
       {nn::EmbeddingBagMode(kSum), nn::EmbeddingBagMode(kMean), nn::EmbeddingBagMode(kMax)}) {
    gradcheck(
        "embedding_bag " + enumtype::get_enum_name(mode),
        [mode](const V& v) {
          return F::embedding_bag(
              bag_longs({1, 0, 3, 3, 2}), v[0],
              F::EmbeddingBagFuncOptions().offsets(bag_longs({0, 2, 2})).mode(mode).padding_idx(0));
        },
        {randn({4, 3}, kFloat64)});
  }
  gradcheck("embedding_bag per_sample_weights",
            [](const V& v) {
              return F::embedding_bag(
                  bag_longs({1, 0, 3, 1, 2}).view({1, 5}), v[0],
                  F::EmbeddingBagFuncOptions().mode(kSum).per_sample_weights(v[1]));
            },
            {randn({4, 3}, kFloat64), randn({1, 5}, kFloat64)});
}

TEST(EmbeddingBag, ErrorsSayWhatToChange) {
  const Tensor w = ones({5, 2});
  auto bag_error = [&](const Tensor& input, const F::EmbeddingBagFuncOptions& options) {
    return error_of<Error>([&] { F::embedding_bag(input, w, options); });
  };
  const Tensor ids = bag_longs({0, 1, 2});
  EXPECT_NE(bag_error(bag_input_2d(), F::EmbeddingBagFuncOptions().offsets(bag_longs({0})))
                .find("[embedding_bag] If input is 2D, then offsets has to be null"),
            std::string::npos);
  EXPECT_NE(bag_error(ids, {}).find("offsets has to be a 1D Tensor but got null"),
            std::string::npos);
  EXPECT_NE(bag_error(ids, F::EmbeddingBagFuncOptions().offsets(bag_longs({1})))
                .find("offsets[0] has to be 0"),
            std::string::npos);
  EXPECT_NE(bag_error(ids, F::EmbeddingBagFuncOptions().offsets(bag_longs({0, 4})))
                .find("offsets[-1] can not be greater than input's length(3), but got "
                      "offsets[-1] of 4"),
            std::string::npos);
  EXPECT_NE(bag_error(ids, F::EmbeddingBagFuncOptions().offsets(bag_longs({0, 2, 1})))
                .find("offsets must be non-decreasing"),
            std::string::npos);
  EXPECT_NE(bag_error(ids.view({1, 1, 3}), {}).find("input has to be 1D or 2D Tensor"),
            std::string::npos);
  EXPECT_NE(bag_error(bag_longs({0, 7}), F::EmbeddingBagFuncOptions().offsets(bag_longs({0})))
                .find("[embedding_bag] index 7 is out of range for an embedding table of 5 rows"),
            std::string::npos);
  EXPECT_NE(bag_error(ids, F::EmbeddingBagFuncOptions()
                               .offsets(bag_longs({0}))
                               .mode(kMean)
                               .per_sample_weights(ones({3})))
                .find("per_sample_weights is only supported for mode='kSum' (got mode='kMean')"),
            std::string::npos);
  EXPECT_NE(bag_error(ids, F::EmbeddingBagFuncOptions()
                               .offsets(bag_longs({0}))
                               .mode(kSum)
                               .per_sample_weights(ones({2})))
                .find("If per_sample_weights ([2]) is not null, then it must have the same shape "
                      "as the input ([3])"),
            std::string::npos);
  EXPECT_NE(
      bag_error(
          ids,
          F::EmbeddingBagFuncOptions().offsets(bag_longs({0})).mode(kMax).scale_grad_by_freq(true))
          .find("max mode does not support scaling the gradient by the frequency"),
      std::string::npos);
  EXPECT_NE(bag_error(ids, F::EmbeddingBagFuncOptions().offsets(bag_longs({0})).padding_idx(5))
                .find("padding_idx must be within the number of embeddings, -5 through 4"),
            std::string::npos);
  EXPECT_NE(error_of<NotImplementedError>([&] {
              F::embedding_bag(ids, w,
                               F::EmbeddingBagFuncOptions().offsets(bag_longs({0})).sparse(true));
            }).find("sparse gradients are not supported"),
            std::string::npos);
  EXPECT_NE(error_of<TypeError>([&] {
              F::embedding_bag(ids.to(kFloat32), w,
                               F::EmbeddingBagFuncOptions().offsets(bag_longs({0})));
            }).find("expected input of type Long or Int"),
            std::string::npos);
  EXPECT_NE(error_of<ValueError>([] { nn::EmbeddingBag::from_pretrained(ones({3})); })
                .find("[EmbeddingBag::from_pretrained] Embeddings parameter is expected to be "
                      "2-dimensional"),
            std::string::npos);
}

std::string bag_printed(const nn::Module& module) {
  std::ostringstream os;
  module.pretty_print(os);
  return os.str();
}

TEST(EmbeddingBag, LayerForwardsAndPrintsAsLibTorch) {
  nn::EmbeddingBag plain(4, 3);
  EXPECT_EQ(bag_printed(*plain), "torch::nn::EmbeddingBag(num_embeddings=4, embedding_dim=3)");
  EXPECT_EQ(plain->weight.sizes(), IntArrayRef({4, 3}));
  EXPECT_TRUE(plain->weight.requires_grad());
  nn::EmbeddingBag full(nn::EmbeddingBagOptions(4, 3)
                            .max_norm(2.5)
                            .norm_type(1.5)
                            .scale_grad_by_freq(true)
                            .mode(kSum)
                            .include_last_offset(true)
                            .padding_idx(-1));
  EXPECT_EQ(bag_printed(*full),
            "torch::nn::EmbeddingBag(num_embeddings=4, embedding_dim=3, max_norm=2.5, "
            "norm_type=1.5, scale_grad_by_freq=true, mode=kSum, include_last_offset=true, "
            "padding_idx=3)");
  // The padding row starts at zero.
  EXPECT_EQ(full->weight[3].to_vector<float>(), (std::vector<float>(3, 0.f)));

  const Tensor table = arange(8, TensorOptions(kFloat64)).view({4, 2});
  nn::EmbeddingBag pretrained =
      nn::EmbeddingBag::from_pretrained(table, nn::EmbeddingBagFromPretrainedOptions().mode(kMax));
  EXPECT_FALSE(pretrained->weight.requires_grad());
  EXPECT_EQ(bag_printed(*pretrained),
            "torch::nn::EmbeddingBag(num_embeddings=4, embedding_dim=2, mode=kMax)");
  EXPECT_EQ(pretrained(bag_longs({0, 3, 1, 2}).view({2, 2})).to_vector<double>(),
            (std::vector<double>{6, 7, 4, 5}));
  EXPECT_EQ(pretrained(bag_longs({1, 2, 0}), bag_longs({0, 1})).to_vector<double>(),
            (std::vector<double>{2, 3, 4, 5}));
  nn::EmbeddingBag weighted = nn::EmbeddingBag::from_pretrained(
      table, nn::EmbeddingBagFromPretrainedOptions().mode(kSum).freeze(false));
  EXPECT_TRUE(weighted->weight.requires_grad());
  EXPECT_EQ(
      weighted(bag_longs({1, 2}), bag_longs({0}), tensor(std::vector<double>{2, -1}, kFloat64))
          .to_vector<double>(),
      (std::vector<double>{0, 1}));
  // Through AnyModule / Sequential, offsets and per_sample_weights default to undefined.
  nn::Sequential seq(pretrained);
  EXPECT_EQ(seq->forward(bag_longs({0, 3}).view({1, 2})).sizes(), IntArrayRef({1, 2}));
}

TEST(Embedding, LayerPrintsAndLoadsAsLibTorch) {
  nn::Embedding embedding(
      nn::EmbeddingOptions(5, 2).padding_idx(-1).max_norm(1.5).norm_type(3).scale_grad_by_freq(
          true));
  EXPECT_EQ(bag_printed(*embedding),
            "torch::nn::Embedding(num_embeddings=5, embedding_dim=2, padding_idx=4, max_norm=1.5, "
            "norm_type=3, scale_grad_by_freq=true)");
  const Tensor table = arange(6, TensorOptions(kFloat64)).view({3, 2});
  nn::Embedding pretrained = nn::Embedding::from_pretrained(table);
  EXPECT_FALSE(pretrained->weight.requires_grad());
  EXPECT_EQ(pretrained(bag_longs({2, 0})).to_vector<double>(), (std::vector<double>{4, 5, 0, 1}));
  EXPECT_EQ(bag_printed(*pretrained), "torch::nn::Embedding(num_embeddings=3, embedding_dim=2)");
  EXPECT_TRUE(
      nn::Embedding::from_pretrained(table, nn::EmbeddingFromPretrainedOptions().freeze(false))
          ->weight.requires_grad());
  EXPECT_THROW(nn::Embedding(nn::EmbeddingOptions(3, 2).sparse(true)), NotImplementedError);
}

}  // namespace
}  // namespace ember::test
