// The layers over nn_ops: parameters, buffers, train/eval behaviour and PyTorch's printed form.
#include <gtest/gtest.h>

#include <cmath>

#include "ember/nn.h"
#include "test_util.h"

namespace ember::test {
namespace {

TEST(NnLayers, Conv2dAndPoolShapesAndRepr) {
  manual_seed(0);
  nn::Conv2d conv(1, 4, 3, 1, 1);
  EXPECT_EQ(conv->weight.sizes(), IntArrayRef({4, 1, 3, 3}));
  EXPECT_LE(abs(conv->weight).max().item<double>(), 1.0 / 3.0);  // 1/sqrt(fan_in = 9)
  EXPECT_EQ(conv->str(), "Conv2d(1, 4, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))");
  nn::MaxPool2d pool(2);
  EXPECT_EQ(pool->str(),
            "MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)");
  Tensor out = pool(conv(ones({2, 1, 8, 8})));
  EXPECT_EQ(out.sizes(), IntArrayRef({2, 4, 4, 4}));
  EXPECT_EQ(out.grad_fn()->name(), "MaxPool2DWithIndicesBackward0");
}

TEST(NnLayers, BatchNormTracksRunningStatsInTrainingOnly) {
  nn::BatchNorm1d bn(2);
  EXPECT_EQ(bn->named_buffers().keys(),
            (std::vector<std::string>{"running_mean", "running_var", "num_batches_tracked"}));
  Tensor x = tensor({{1.0f, 10.0f}, {3.0f, 30.0f}});
  Tensor y = bn(x);
  // Batch statistics normalise: each column becomes (-1, 1) (biased variance, eps 1e-5).
  expect_close(y, {2, 2}, {-1, -1, 1, 1}, 1e-4, 1e-4);
  // running = 0.9 * running + 0.1 * batch (unbiased variance: 2 and 200).
  expect_close(bn->running_mean, {2}, {0.2, 2.0}, 1e-6, 1e-6);
  expect_close(bn->running_var, {2}, {0.9 + 0.2, 0.9 + 20.0}, 1e-5, 1e-5);
  EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 1);
  bn->eval();
  Tensor before = bn->running_mean.clone();
  bn(x);
  EXPECT_TRUE(equal(bn->running_mean, before));  // eval reads the stats, does not update them
  EXPECT_EQ(bn->str(),
            "BatchNorm1d(2, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)");
}

// momentum nullopt: each batch weighs 1 / batches seen, so the running statistics are the mean
// of the batches' (LibTorch's cumulative average); training needs two values per channel.
TEST(NnLayers, BatchNormWithoutMomentumAveragesEveryBatch) {
  nn::BatchNorm1d bn(nn::BatchNorm1dOptions(2).momentum(std::nullopt));
  (void)bn(tensor({1.0f, 10.0f, 3.0f, 30.0f}).reshape({2, 2}));  // mean (2, 20), var (2, 200)
  expect_close(bn->running_mean, {2}, {2.0, 20.0}, 1e-6, 1e-6);
  expect_close(bn->running_var, {2}, {2.0, 200.0}, 1e-5, 1e-5);
  (void)bn(tensor({5.0f, 0.0f, 7.0f, 0.0f}).reshape({2, 2}));  // mean (6, 0), var (2, 0)
  expect_close(bn->running_mean, {2}, {4.0, 10.0}, 1e-6, 1e-6);
  expect_close(bn->running_var, {2}, {2.0, 100.0}, 1e-5, 1e-5);
  EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 2);
  EXPECT_EQ(bn->str(),
            "BatchNorm1d(2, eps=1e-05, momentum=None, affine=True, track_running_stats=True)");
  EXPECT_EQ(error_of<ValueError>([&] {
              (void)bn(ones({1, 2}));
            }),
            "[batch_norm] Expected more than 1 value per channel when training, got input size "
            "[1, 2]");
  bn->eval();
  expect_close(bn(tensor({4.0f, 10.0f}).reshape({1, 2})), {1, 2}, {0.0, 0.0}, 1e-6, 1e-6);
}

// softmin([0, ln 3]) = softmax([0, -ln 3]) = (3/4, 1/4); Identity hands back its input.
TEST(NnLayers, SoftminIdentityAndSiLU) {
  const Tensor x = tensor({0.0f, std::log(3.0f)});
  expect_close(nn::Softmin(0)(x), {2}, {0.75, 0.25}, 1e-6, 1e-6);
  expect_close(nn::LogSoftmax(0)(x), {2}, {std::log(0.25), std::log(0.75)}, 1e-6, 1e-6);
  EXPECT_TRUE(nn::Identity()(x).is_same(x));
  expect_close(nn::SiLU()(x), {2}, {0.0, std::log(3.0) * 0.75}, 1e-6, 1e-6);
  EXPECT_EQ(nn::Softmax(1)->str(), "Softmax(dim=1)");
}

TEST(NnLayers, DropoutIsIdentityInEval) {
  nn::Dropout drop(0.5);
  Tensor x = ones({1000});
  manual_seed(1);
  Tensor y = drop(x);
  double kept = (y != 0).sum().item<double>();
  EXPECT_GT(kept, 400);
  EXPECT_LT(kept, 600);
  expect_close(y.max(), {}, {2.0});  // survivors scaled by 1 / (1 - p)
  drop->eval();
  EXPECT_TRUE(drop(x).is_same(x));
  EXPECT_NE(error_of<ValueError>([] { nn::Dropout(1.5); }).find("between 0 and 1"),
            std::string::npos);
}

TEST(NnLayers, EmbeddingAndLayerNorm) {
  nn::Embedding emb(5, 3, 0);
  expect_close(emb->weight[0], {3}, {0, 0, 0});  // the padding row starts at zero
  Tensor out = emb(tensor({{1, 0}, {4, 4}}));
  EXPECT_EQ(out.sizes(), IntArrayRef({2, 2, 3}));
  out.sum().backward();
  expect_close(emb->weight.grad()[4], {3}, {2, 2, 2});  // used twice
  expect_close(emb->weight.grad()[0], {3}, {0, 0, 0});  // padding gets no gradient
  nn::LayerNorm ln(std::vector<int64_t>{3});
  expect_close(ln(tensor({{1.0f, 2.0f, 3.0f}})), {1, 3}, {-1.2247, 0.0, 1.2247}, 1e-3, 1e-3);
  EXPECT_EQ(ln->str(), "LayerNorm((3,), eps=1e-05, elementwise_affine=True)");
}

TEST(NnLayers, LeNetStyleModelTrainsOnAFewImages) {
  manual_seed(2);
  auto net = nn::Sequential(nn::Conv2d(1, 4, 3, 1, 1), nn::ReLU(), nn::MaxPool2d(2), nn::Flatten(),
                            nn::Linear(4 * 4 * 4, 2));
  Tensor x = randn({8, 1, 8, 8});
  Tensor y = tensor({0, 1, 0, 1, 0, 1, 0, 1});
  optim::Adam adam(net->parameters(), 0.01);
  double first = 0, last = 0;
  for (int step = 0; step < 60; ++step) {
    adam.zero_grad();
    Tensor loss = nn::functional::cross_entropy(net(x), y);
    loss.backward();
    adam.step();
    (step == 0 ? first : last) = loss.item<double>();
  }
  EXPECT_LT(last, first * 0.1) << "first " << first << " last " << last;
}

}  // namespace
}  // namespace ember::test
