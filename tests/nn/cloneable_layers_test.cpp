// clone() of the built-in layers and containers: fresh tensors holding the original's values,
// the same options, and LibTorch's errors when a user's reset() does not rebuild what the
// original registered.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "ember/nn.h"
#include "test_util.h"

namespace ember::test {
namespace {

// The clone as its own type, checked to be one.
template <class Impl>
std::shared_ptr<Impl> clone_of(const nn::Module& module) {
  auto copy = std::dynamic_pointer_cast<Impl>(module.clone());
  EXPECT_NE(copy, nullptr);
  return copy;
}

// Each named tensor of `copy` equals `original`'s, in another buffer.
void expect_deep_copy(const nn::Module& original, const nn::Module& copy) {
  auto theirs = original.named_parameters();
  auto mine = copy.named_parameters();
  for (const auto& [name, tensor] : original.named_buffers()) theirs.insert(name, tensor);
  for (const auto& [name, tensor] : copy.named_buffers()) mine.insert(name, tensor);
  ASSERT_EQ(mine.keys(), theirs.keys());
  for (const auto& [name, tensor] : theirs) {
    SCOPED_TRACE(name);
    EXPECT_TRUE(mine[name].equal(tensor));
    EXPECT_NE(mine[name].data_ptr(), tensor.data_ptr());
    EXPECT_EQ(mine[name].requires_grad(), tensor.requires_grad());
  }
}

TEST(NnCloneable, LinearAndConvCopyTheirValuesAndOptions) {
  nn::Linear linear(nn::LinearOptions(3, 2).bias(false));
  auto linear_copy = clone_of<nn::LinearImpl>(*linear);
  expect_deep_copy(*linear, *linear_copy);
  EXPECT_FALSE(linear_copy->bias.defined());
  EXPECT_EQ(linear_copy->name(), "Linear");
  // The members are the registered tensors, so the clone's forward reads its own weight.
  {
    NoGradGuard no_grad;
    linear_copy->weight.fill_(1.0);
  }
  expect_values<float>(linear_copy->forward(ones({1, 3})), {1, 2}, {3.0f, 3.0f});
  EXPECT_FALSE(linear->weight.equal(linear_copy->weight));

  nn::Conv2d conv(nn::Conv2dOptions(1, 2, 3).padding(1));
  auto conv_copy = clone_of<nn::Conv2dImpl>(*conv);
  expect_deep_copy(*conv, *conv_copy);
  EXPECT_EQ(std::get<ExpandingArray<2>>(conv_copy->options.padding()),
            std::get<ExpandingArray<2>>(conv->options.padding()));
  EXPECT_TRUE(conv_copy->forward(ones({1, 1, 4, 4})).equal(conv->forward(ones({1, 1, 4, 4}))));
}

// Buffers are copied too: a trained BatchNorm's running statistics and its batch count.
TEST(NnCloneable, BatchNormCopiesItsRunningStatistics) {
  nn::BatchNorm1d bn(2);
  (void)bn(tensor({1.0f, 10.0f, 3.0f, 30.0f}).reshape({2, 2}));
  auto copy = clone_of<nn::BatchNorm1dImpl>(*bn);
  expect_deep_copy(*bn, *copy);
  // momentum 0.1 from (0, 1): mean (2, 20), unbiased variance (2, 200)
  expect_values<float>(copy->running_mean, {2}, {0.2f, 2.0f});
  expect_values<float>(copy->running_var, {2}, {1.1f, 20.9f});
  EXPECT_EQ(copy->num_batches_tracked.item<int64_t>(), 1);
  EXPECT_EQ(copy->name(), "BatchNorm1d");
  EXPECT_THROW((void)copy->forward(zeros({1, 2, 2, 2})), ValueError);  // still a 1d layer
  copy->eval();
  EXPECT_FALSE(copy->is_training());
  EXPECT_TRUE(bn->is_training());
}

TEST(NnCloneable, EmbeddingNormalisationAndLossWeights) {
  nn::Embedding embedding(nn::EmbeddingOptions(4, 2).padding_idx(-1));
  auto embedding_copy = clone_of<nn::EmbeddingImpl>(*embedding);
  expect_deep_copy(*embedding, *embedding_copy);
  EXPECT_EQ(embedding_copy->options.padding_idx(), 3);

  nn::LayerNorm norm(nn::LayerNormOptions({2}).elementwise_affine(false));
  EXPECT_TRUE(clone_of<nn::LayerNormImpl>(*norm)->parameters().empty());

  nn::CrossEntropyLoss loss(nn::CrossEntropyLossOptions().weight(tensor({1.0f, 3.0f})));
  auto loss_copy = clone_of<nn::CrossEntropyLossImpl>(*loss);
  expect_values<float>(loss_copy->named_buffers()["weight"], {2}, {1.0f, 3.0f});

  nn::Dropout dropout(nn::DropoutOptions(0.25).inplace(true));
  auto dropout_copy = clone_of<nn::DropoutImpl>(*dropout);
  EXPECT_EQ(dropout_copy->options.p(), 0.25);
  EXPECT_TRUE(dropout_copy->options.inplace());
}

// The containers clone element by element, keeping names and requires_grad; LibTorch's
// ParameterList and ParameterDict throw instead once they hold a parameter.
TEST(NnCloneable, ContainersCloneEachElement) {
  nn::ModuleList list(nn::Linear(2, 2), nn::ReLU());
  auto list_copy = clone_of<nn::ModuleListImpl>(*list);
  ASSERT_EQ(list_copy->size(), 2u);
  EXPECT_NE((*list_copy)[0].get(), list[0].get());
  EXPECT_EQ((*list_copy)[1]->name(), "ReLU");
  expect_deep_copy(*list, *list_copy);

  nn::ModuleDict dict(std::vector<std::pair<std::string, std::shared_ptr<nn::Module>>>{
      {"fc", nn::Linear(2, 1).ptr()}, {"act", nn::Tanh().ptr()}});
  auto dict_copy = clone_of<nn::ModuleDictImpl>(*dict);
  EXPECT_EQ(dict_copy->keys(), (std::vector<std::string>{"fc", "act"}));
  expect_deep_copy(*dict, *dict_copy);

  nn::ParameterList parameters(ones({2}).requires_grad_(), zeros({3}));
  auto parameters_copy = clone_of<nn::ParameterListImpl>(*parameters);
  expect_deep_copy(*parameters, *parameters_copy);
  EXPECT_TRUE(parameters_copy->at(0).requires_grad());
  EXPECT_FALSE(parameters_copy->at(1).requires_grad());

  nn::ParameterDict by_key;
  by_key->insert("scale", full({2}, 0.5).requires_grad_());
  auto by_key_copy = clone_of<nn::ParameterDictImpl>(*by_key);
  expect_deep_copy(*by_key, *by_key_copy);
}

// A user's module that holds built-in layers: each layer of the clone is the clone of the
// original's, not the one reset() just built.
struct TwoLayerImpl : nn::Cloneable<TwoLayerImpl> {
  TwoLayerImpl() { reset(); }
  void reset() override {
    fc = register_module("fc", nn::Linear(2, 3));
    bn = register_module("bn", nn::BatchNorm1d(3));
  }
  nn::Linear fc{nullptr};
  nn::BatchNorm1d bn{nullptr};
};

TEST(NnCloneable, AUsersModuleClonesItsLayers) {
  auto net = std::make_shared<TwoLayerImpl>();
  {
    NoGradGuard no_grad;
    net->fc->weight.fill_(0.5);
    net->bn->running_mean.fill_(7.0);
  }
  auto copy = clone_of<TwoLayerImpl>(*net);
  expect_deep_copy(*net, *copy);
  EXPECT_EQ(copy->fc.get(), copy->named_children()["fc"].get());
  expect_values<float>(copy->fc->weight, {3, 2}, std::vector<float>(6, 0.5f));
  expect_values<float>(copy->bn->running_mean, {3}, {7.0f, 7.0f, 7.0f});
}

// LibTorch's messages for a reset() that registers less than the original has.
struct RegistersInTheConstructorImpl : nn::Cloneable<RegistersInTheConstructorImpl> {
  RegistersInTheConstructorImpl() { register_parameter("w", zeros({1})); }
  void reset() override {}
};

struct SwapsItsChildImpl : nn::Cloneable<SwapsItsChildImpl> {
  SwapsItsChildImpl() { reset(); }
  void reset() override {
    if (resets++ == 0) register_module("child", nn::Linear(1, 1));
    else register_module("child", nn::ReLU());
  }
  int resets = 0;
};

TEST(NnCloneable, ResetMustRebuildWhatTheOriginalHas) {
  EXPECT_EQ(error_of([] { (void)RegistersInTheConstructorImpl().clone(); }),
            "The cloned module does not have the same number of parameters as the original "
            "module after calling reset(). Are you sure you called register_parameter() inside "
            "reset() and not the constructor?");
  auto swapping = std::make_shared<SwapsItsChildImpl>();
  EXPECT_NE(error_of<TypeError>([&] { (void)swapping->clone(); })
                .find("Attempted to clone submodule, but it is of a different type than the "
                      "submodule it was to be cloned into (Linear into ReLU)"),
            std::string::npos);
  // A plain Module is not Cloneable.
  EXPECT_THROW((void)std::make_shared<nn::Module>("Plain")->clone(), TypeError);
}

}  // namespace
}  // namespace ember::test
