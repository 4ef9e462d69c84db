// scaled_dot_product_attention, nn::MultiheadAttention and the Transformer modules against
// PyTorch 1.13 (attention_reference.h, made by gen_attention_reference.py from the same cases):
// outputs, attention weights, gradients of inputs and parameters, parameter names and shapes;
// then gradchecks, LibTorch's options and the messages of the checks.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "autograd/gradcheck.h"
#include "ember/ember.h"
#include "ember/nn/attention.h"
#include "ember/nn/transformer.h"
#include "nn/attention_reference.h"
#include "test_util.h"

namespace ember::test {
namespace {

namespace F = nn::functional;

// cos(step k + phase) over `shape`, k the flat index: the script's wave(), which fills the
// inputs (step 0.23, phase 0.7 i for the i-th) and, times 0.3, the parameters.
Tensor wave(IntArrayRef shape, double step, double phase) {
  const int64_t n = std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<>());
  return cos(step * arange(n, TensorOptions(kFloat64)) + phase).reshape(shape);
}

// The i-th of named_parameters() gets 0.3 wave(step 0.37, phase 0.11 i).
void fill_parameters(nn::Module& module) {
  autograd::NoGradGuard no_grad;
  double i = 0;
  for (const auto& item : module.named_parameters())
    item.value().copy_(0.3 * wave(item.value().sizes(), 0.37, 0.11 * i++));
}

// [3, 5]: key j is kept for query i when (i + 2 j) % 3 != 0, as the script's `keep`.
Tensor keep_mask() {
  Tensor i = arange(3, TensorOptions(kInt64)).view({3, 1});
  Tensor j = arange(5, TensorOptions(kInt64)).view({1, 5});
  return (i + 2 * j).remainder(3) != 0;
}
Tensor padding_mask() { return tensor({{false, false, true}, {false, true, true}}); }
Tensor memory_padding_mask() {
  return tensor({{false, false, false, true, true}, {false, false, false, false, false}});
}
// The script's causal_bias: -inf above the diagonal.
Tensor causal_bias(int64_t n) {
  return full({n, n}, -std::numeric_limits<double>::infinity(), TensorOptions(kFloat64)).triu(1);
}

using Forward = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;

void expect_near_values(const std::string& key, const Tensor& actual,
                        const std::vector<double>& want) {
  ASSERT_TRUE(actual.defined()) << key;
  ASSERT_EQ(actual.numel(), static_cast<int64_t>(want.size())) << key;
  const std::vector<double> got = actual.detach().contiguous().to_vector<double>();
  for (size_t e = 0; e < want.size(); ++e)
    EXPECT_NEAR(got[e], want[e], 1e-10) << key << " element " << e;
}

// The script's run(): the same fills and loss, then every value the reference holds for `name`:
// outputs, input gradients, parameter gradients ("grad_<name>"), parameter shapes ("NN:<name>").
void check_case(const std::string& name, const std::vector<std::vector<int64_t>>& shapes,
                const Forward& forward, nn::Module* module = nullptr) {
  SCOPED_TRACE(name);
  if (module != nullptr) {
    module->to(kFloat64);
    fill_parameters(*module);
  }
  std::vector<Tensor> xs;
  for (size_t i = 0; i < shapes.size(); ++i)
    xs.push_back(wave(shapes[i], 0.23, 0.7 * static_cast<double>(i)).requires_grad_());
  std::vector<Tensor> outputs;
  for (const Tensor& output : forward(xs))
    if (output.defined()) outputs.push_back(output);
  Tensor loss = zeros({}, kFloat64);
  for (size_t j = 0; j < outputs.size(); ++j) {
    Tensor k = arange(outputs[j].numel(), TensorOptions(kFloat64)).reshape(outputs[j].sizes());
    loss = loss + (outputs[j] * cos(0.31 * k + static_cast<double>(j))).sum();
  }
  loss.backward();

  const OrderedDict<std::string, Tensor> parameters =
      module != nullptr ? module->named_parameters() : OrderedDict<std::string, Tensor>();
  size_t shapes_seen = 0;
  for (const auto& [key, want] : attention_reference().at(name)) {
    if (key.rfind("output", 0) == 0) {
      const size_t j = std::stoul(key.substr(6));
      ASSERT_LT(j, outputs.size()) << key;
      expect_near_values(key, outputs[j], want);
    } else if (key.rfind("grad_", 0) == 0) {
      expect_near_values(key, parameters[key.substr(5)].grad(), want);
    } else if (key.rfind("grad", 0) == 0) {
      expect_near_values(key, xs[std::stoul(key.substr(4))].grad(), want);
    } else {  // "NN:name": the NN-th parameter's name and shape
      const auto& item = parameters[std::stoul(key.substr(0, 2))];
      EXPECT_EQ(item.key(), key.substr(3));
      EXPECT_EQ(item.value().sizes().vec(), std::vector<int64_t>(want.begin(), want.end())) << key;
      ++shapes_seen;
    }
  }
  EXPECT_EQ(parameters.size(), shapes_seen);
}

TEST(Attention, ScaledDotProductAttentionMatchesPyTorch) {
  check_case("sdpa_float_mask", {{2, 3, 4}, {2, 5, 4}, {2, 5, 3}, {3, 5}},
             [](const std::vector<Tensor>& x) {
               return std::vector<Tensor>{scaled_dot_product_attention(x[0], x[1], x[2], x[3])};
             });
  check_case("sdpa_bool_mask", {{2, 3, 4}, {2, 5, 4}, {2, 5, 3}}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{F::scaled_dot_product_attention(x[0], x[1], x[2], keep_mask())};
  });
  check_case("sdpa_causal", {{1, 2, 4, 3}, {1, 2, 4, 3}, {1, 2, 4, 2}},
             [](const std::vector<Tensor>& x) {
               return std::vector<Tensor>{
                   scaled_dot_product_attention(x[0], x[1], x[2], {}, 0.0, /*is_causal=*/true)};
             });
}

std::vector<Tensor> both(const std::tuple<Tensor, Tensor>& result) {
  return {std::get<0>(result), std::get<1>(result)};
}

TEST(Attention, MultiheadAttentionMatchesPyTorch) {
  nn::MultiheadAttention mha(4, 2);
  check_case(
      "mha_self_masked", {{3, 2, 4}},
      [&](const std::vector<Tensor>& x) {
        return both(mha(x[0], x[0], x[0], padding_mask(), /*need_weights=*/true, causal_bias(3)));
      },
      mha.get());
  mha->zero_grad();
  check_case(
      "mha_cross", {{3, 2, 4}, {5, 2, 4}, {5, 2, 4}},
      [&](const std::vector<Tensor>& x) {
        return both(mha(x[0], x[1], x[2], Tensor(), true, keep_mask().logical_not()));
      },
      mha.get());

  nn::MultiheadAttention kv(
      nn::MultiheadAttentionOptions(4, 2).add_bias_kv(true).add_zero_attn(true).kdim(3).vdim(5));
  EXPECT_FALSE(kv->_qkv_same_embed_dim);
  EXPECT_FALSE(kv->in_proj_weight.defined());
  check_case(
      "mha_kdim_vdim_per_head", {{3, 2, 4}, {5, 2, 3}, {5, 2, 5}},
      [&](const std::vector<Tensor>& x) {
        return both(kv(x[0], x[1], x[2], memory_padding_mask(), true, Tensor(),
                       /*average_attn_weights=*/false));
      },
      kv.get());

  nn::MultiheadAttention unbatched(nn::MultiheadAttentionOptions(6, 3).bias(false));
  check_case(
      "mha_unbatched", {{3, 6}, {5, 6}, {5, 6}},
      [&](const std::vector<Tensor>& x) {
        return both(unbatched(x[0], x[1], x[2], Tensor(), true, keep_mask().logical_not()));
      },
      unbatched.get());
}

nn::TransformerEncoderLayerOptions small_layer() {
  return nn::TransformerEncoderLayerOptions(4, 2).dim_feedforward(6).dropout(0.0);
}

TEST(Attention, TransformerModulesMatchPyTorch) {
  nn::TransformerEncoderLayer encoder_layer(small_layer());
  check_case(
      "encoder_layer", {{3, 2, 4}},
      [&](const std::vector<Tensor>& x) {
        return std::vector<Tensor>{encoder_layer(x[0], causal_bias(3), padding_mask())};
      },
      encoder_layer.get());
  nn::TransformerDecoderLayer decoder_layer(small_layer().activation(kGELU));
  check_case(
      "decoder_layer", {{3, 2, 4}, {5, 2, 4}},
      [&](const std::vector<Tensor>& x) {
        return std::vector<Tensor>{
            decoder_layer(x[0], x[1], causal_bias(3), Tensor(), Tensor(), memory_padding_mask())};
      },
      decoder_layer.get());
  nn::TransformerEncoder encoder(nn::TransformerEncoderOptions(small_layer(), 2)
                                     .norm(nn::AnyModule(nn::LayerNorm(std::vector<int64_t>{4}))));
  check_case(
      "encoder_with_norm", {{3, 2, 4}},
      [&](const std::vector<Tensor>& x) {
        return std::vector<Tensor>{encoder(x[0], causal_bias(3))};
      },
      encoder.get());
  nn::Transformer transformer(nn::TransformerOptions(4, 2, 1, 1).dim_feedforward(6).dropout(0.0));
  check_case(
      "transformer", {{5, 2, 4}, {3, 2, 4}},
      [&](const std::vector<Tensor>& x) {
        return std::vector<Tensor>{transformer(x[0], x[1], Tensor(), causal_bias(3))};
      },
      transformer.get());
}

TEST(Attention, TransformerAsLibTorch) {
  expect_values(nn::TransformerImpl::generate_square_subsequent_mask(3), {3, 3},
                std::vector<float>{0, -INFINITY, -INFINITY, 0, 0, -INFINITY, 0, 0, 0});
  // A std::function activation computes what the kReLU one does with the same parameters.
  nn::TransformerEncoderLayer relu(small_layer());
  nn::TransformerEncoderLayer custom(
      small_layer().activation([](const Tensor& x) { return x.clamp_min(0); }));
  custom->load_state_dict(relu->state_dict());
  Tensor x = randn({3, 2, 4});
  EXPECT_TRUE(custom(x).allclose(relu(x)));
  // The stack holds clones: training one layer leaves the prototype and the others alone.
  nn::TransformerEncoder encoder(relu, 2);
  {
    autograd::NoGradGuard no_grad;
    encoder->layers->at<nn::TransformerEncoderLayerImpl>(0).linear1->weight.fill_(1.0);
  }
  EXPECT_FALSE(relu->linear1->weight.equal(ones({6, 4})));
  EXPECT_FALSE(
      encoder->layers->at<nn::TransformerEncoderLayerImpl>(1).linear1->weight.equal(ones({6, 4})));
  EXPECT_EQ(encoder->named_parameters().size(), 2 * relu->named_parameters().size());
  std::ostringstream printed;
  relu->pretty_print(printed);
  EXPECT_EQ(printed.str(), "torch::nn::TransformerEncoderLayerImpl");
  // LibTorch's defaults.
  nn::TransformerOptions defaults;
  EXPECT_EQ(defaults.d_model(), 512);
  EXPECT_EQ(defaults.num_encoder_layers(), 6);
  EXPECT_EQ(nn::TransformerEncoderLayerOptions(8, 2).dim_feedforward(), 2048);
  EXPECT_EQ(nn::TransformerEncoderLayerOptions(8, 2).dropout(), 0.1);
  nn::Transformer transformer(nn::TransformerOptions(4, 2, 1, 1).dim_feedforward(6));
  EXPECT_NE(error_of([&] {
              transformer(randn({5, 2, 4}), randn({3, 3, 4}));
            }).find("src and tgt should have equal batch size (at dim 1), but got 2 and 3"),
            std::string::npos);
}

TEST(Attention, Gradchecks) {
  manual_seed(3);
  Tensor q = randn({2, 3, 4}, kFloat64), k = randn({2, 2, 4}, kFloat64);
  Tensor v = randn({2, 2, 3}, kFloat64), bias = randn({3, 2}, kFloat64);
  gradcheck("scaled_dot_product_attention",
            [](const std::vector<Tensor>& x) {
              return scaled_dot_product_attention(x[0], x[1], x[2], x[3]);
            },
            {q, k, v, bias});
  Tensor query = randn({2, 1, 4}, kFloat64), w = randn({12, 4}, kFloat64);
  Tensor out_w = randn({4, 4}, kFloat64);
  gradcheck(
      "multi_head_attention_forward",
      [](const std::vector<Tensor>& x) {
        return std::get<0>(F::multi_head_attention_forward(
            x[0], x[0], x[0],
            F::MultiheadAttentionForwardFuncOptions(4, 2, x[1], {}, {}, {}, false, 0.0, x[2], {})));
      },
      {query, w, out_w});
}

TEST(Attention, ScaledDotProductAttentionOptions) {
  manual_seed(5);
  Tensor q = randn({2, 3, 4}), k = randn({2, 5, 4}), v = randn({2, 5, 3});
  // scale s is 1 / sqrt(E) applied to a query s sqrt(E) times larger.
  Tensor scaled = scaled_dot_product_attention(q, k, v, {}, 0.0, false, 0.7);
  expect_close(scaled, {2, 3, 3},
               scaled_dot_product_attention(q * (0.7 * 2.0), k, v).to_vector<double>(), 1e-6);
  // Every weight dropped: the output is zero.
  Tensor dropped = scaled_dot_product_attention(q, k, v, {}, 1.0);
  EXPECT_EQ(dropped.abs().sum().item<float>(), 0.0f);
  // A mask that keeps only key 0 copies value 0 to every query.
  Tensor only_first = zeros({3, 5}, kBool);
  only_first.narrow(1, 0, 1).fill_(true);
  Tensor picked = scaled_dot_product_attention(q, k, v, only_first);
  expect_close(picked, {2, 3, 3},
               v.narrow(1, 0, 1).expand({2, 3, 3}).contiguous().to_vector<double>(), 1e-6);
}

TEST(Attention, MultiheadAttentionAsLibTorch) {
  nn::MultiheadAttention mha(nn::MultiheadAttentionOptions(4, 2).dropout(0.5));
  EXPECT_EQ(mha->options.kdim(), 4);
  EXPECT_EQ(mha->head_dim, 2);
  std::ostringstream printed;
  printed << *mha;
  EXPECT_EQ(printed.str(),
            "torch::nn::MultiheadAttention(\n  (out_proj): torch::nn::Linear(in_features=4, "
            "out_features=4, bias=true)\n)");
  // PyTorch's initialisation: zero biases, Xavier-uniform projections.
  EXPECT_EQ(mha->in_proj_bias.abs().sum().item<float>(), 0.0f);
  EXPECT_EQ(mha->out_proj->bias.abs().sum().item<float>(), 0.0f);
  EXPECT_LE(mha->in_proj_weight.abs().max().item<float>(), std::sqrt(6.0f / 16.0f));
  // In eval() the dropout is off, so two calls agree; need_weights = false gives no weights.
  mha->eval();
  Tensor x = randn({3, 2, 4});
  auto [out1, weights1] = mha(x, x, x);
  auto [out2, weights2] = mha(x, x, x, Tensor(), /*need_weights=*/false);
  EXPECT_TRUE(out1.equal(out2));
  EXPECT_EQ(weights1.sizes().vec(), (std::vector<int64_t>{2, 3, 3}));
  EXPECT_FALSE(weights2.defined());
  // Cloned modules compute the same; AnyModule fills in forward's defaults.
  auto copy = std::dynamic_pointer_cast<nn::MultiheadAttentionImpl>(mha->clone());
  EXPECT_TRUE(std::get<0>(copy->forward(x, x, x)).equal(out1));
  nn::AnyModule any(mha);
  EXPECT_TRUE(std::get<0>(any.forward<std::tuple<Tensor, Tensor>>(x, x, x)).equal(out1));
}

TEST(Attention, StaticKeysAndValuesReplaceTheProjections) {
  manual_seed(11);
  Tensor query = randn({3, 2, 4}), memory = randn({5, 2, 4});
  Tensor w = randn({12, 4}), b = randn({12}), out_w = randn({4, 4});
  auto options = F::MultiheadAttentionForwardFuncOptions(4, 2, w, b, {}, {}, false, 0.0, out_w, {});
  // The keys and values the projection makes, split by head: [N * heads, S, head_dim].
  auto projected = [&](int64_t third) {
    Tensor p = linear(memory, w.narrow(0, 4 * third, 4), b.narrow(0, 4 * third, 4));
    return p.view({5, 4, 2}).transpose(0, 1);
  };
  auto [expected, expected_weights] =
      F::multi_head_attention_forward(query, memory, memory, options);
  auto [output, weights] = F::multi_head_attention_forward(
      query, memory, memory, options.static_k(projected(1)).static_v(projected(2)));
  EXPECT_TRUE(output.allclose(expected, 1e-5, 1e-6));
  EXPECT_TRUE(weights.allclose(expected_weights, 1e-5, 1e-6));
  EXPECT_NE(
      error_of([&] {
        F::multi_head_attention_forward(query, memory, memory, options.static_k(randn({4, 5, 3})));
      }).find("expecting static_k of shape (4, S, 2), but got [4, 5, 3]"),
      std::string::npos);
}

TEST(Attention, ErrorsNameTheProblem) {
  EXPECT_NE(error_of([] {
              nn::MultiheadAttention(5, 2);
            }).find("embed_dim must be divisible by num_heads"),
            std::string::npos);
  nn::MultiheadAttention mha(4, 2);
  Tensor x = randn({3, 2, 4});
  EXPECT_NE(error_of([&] {
              mha(x, x, x, zeros({2, 4}, kBool));
            }).find("expecting key_padding_mask shape of (2, 3), but got [2, 4]"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              mha(x, x, x, Tensor(), true, zeros({3, 4}));
            }).find("The shape of the 2D attn_mask is [3, 4], but should be (3, 3)."),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              mha(randn({3, 2, 6}), x, x);
            }).find("was expecting embedding dimension of 4, but got 6"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              scaled_dot_product_attention(x, x, x, zeros({3, 3}), 0.0, true);
            }).find("Explicit attn_mask should not be set when is_causal=True"),
            std::string::npos);
}

}  // namespace
}  // namespace ember::test
