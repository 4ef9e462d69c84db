// nn::parallel::data_parallel, replicate and parallel_apply: the module's output and gradients
// match one run of the module on the whole input. The CPU runs with two CPU "devices" (which
// ember's data_parallel takes and LibTorch's does not); the GPU test uses cuda:0 twice.
#include <gtest/gtest.h>

#include <vector>

#include "ember/ember.h"
#include "ember/nn/parallel/data_parallel.h"
#include "test_util.h"

namespace ember {
namespace {

namespace parallel = nn::parallel;

// The gradients of sum(module(x) * weights) on the module's parameters, by one plain run.
std::vector<Tensor> plain_gradients(const nn::Sequential& module, const Tensor& x,
                                    const Tensor& weights) {
  auto copy = std::dynamic_pointer_cast<nn::SequentialImpl>(module->clone());
  (copy->forward(x) * weights).sum().backward();
  std::vector<Tensor> grads;
  for (const Tensor& p : copy->parameters()) grads.push_back(p.grad());
  return grads;
}

void expect_same_run(const std::vector<Device>& devices, Device output_device) {
  manual_seed(3);
  nn::Sequential net(nn::Linear(5, 7), nn::Tanh(), nn::Linear(7, 2));
  Tensor x = randn({9, 5}), weights = randn({9, 2});
  const std::vector<Tensor> expected_grads = plain_gradients(net, x, weights);
  const Tensor expected = net->forward(x).detach();

  Tensor out = parallel::data_parallel(net, x, devices, output_device);
  EXPECT_EQ(out.device(), output_device);
  EXPECT_LT((out.cpu() - expected).abs().max().item<double>(), 1e-6);
  (out * weights.to(output_device)).sum().backward();
  const std::vector<Tensor> params = net->parameters();
  ASSERT_EQ(params.size(), expected_grads.size());
  for (size_t i = 0; i < params.size(); ++i) {
    ASSERT_TRUE(params[i].grad().defined()) << "parameter " << i;
    EXPECT_LT((params[i].grad().cpu() - expected_grads[i]).abs().max().item<double>(), 1e-6)
        << "parameter " << i;
  }
}

TEST(DataParallel, TwoReplicasGiveTheModulesOutputAndGradients) {
  expect_same_run({Device("cpu"), Device("cpu")}, Device("cpu"));
}

TEST(DataParallel, ReplicasPassTheirGradientsThroughReduceAdd) {
  nn::Linear layer(3, 2);
  auto replicas = parallel::replicate(layer, {Device("cpu"), Device("cpu")});
  ASSERT_EQ(replicas.size(), 2u);
  for (auto& replica : replicas) {
    EXPECT_FALSE(replica->weight.is_leaf());
    EXPECT_EQ(replica->weight.grad_fn()->name(), "torch::nn::ReduceAdd");
    EXPECT_FALSE(replica->weight.is_same(layer->weight));
  }
  // Each replica on its own input: the module's gradient is the sum of theirs.
  std::vector<Tensor> inputs{ones({1, 3}), full({1, 3}, 2.0)};
  std::vector<Tensor> outputs = parallel::parallel_apply(replicas, inputs);
  (outputs[0].sum() + outputs[1].sum()).backward();
  test::expect_close(layer->weight.grad(), {2, 3}, {3, 3, 3, 3, 3, 3});
  test::expect_close(layer->bias.grad(), {2}, {2, 2});
}

TEST(DataParallel, AnInputSmallerThanTheDevicesUsesTheFirstOnes) {
  nn::Linear layer(2, 1);
  Tensor out = parallel::data_parallel(layer, ones({1, 2}),
                                       std::vector<Device>{Device("cpu"), Device("cpu")});
  EXPECT_EQ(out.sizes(), IntArrayRef({1, 1}));
  EXPECT_NEAR(out.item<double>(), layer(ones({1, 2})).item<double>(), 1e-6);
}

TEST(DataParallel, WrongArgumentsSayWhatToPass) {
  nn::Linear layer(2, 1);
  std::vector<nn::Linear> modules{layer};
  EXPECT_EQ(test::error_of([&] {
              parallel::parallel_apply(modules, {ones({1, 2}), ones({1, 2})});
            }),
            "[parallel_apply] Must have as many inputs as modules; got 1 modules and 2 inputs");
  EXPECT_EQ(test::error_of([&] {
              parallel::data_parallel(layer, ones({1, 2}), std::vector<Device>{});
            }),
            "[data_parallel] the list of devices is empty; pass at least one device");
  if (!cuda::is_available()) {
    EXPECT_EQ(test::error_of([&] {
                parallel::data_parallel(layer, ones({1, 2}));
              }),
              "[data_parallel] Expected at least one CUDA device to be available; pass the "
              "devices to run on (ember's data_parallel also takes CPU devices)");
  }
}

TEST(DataParallelCuda, OneGpuTwiceAndAloneGiveTheModulesResult) {
  EMBER_SKIP_IF_NO_CUDA();
  expect_same_run({Device("cuda:0"), Device("cuda:0")}, Device("cpu"));
  expect_same_run({Device("cuda:0"), Device("cpu")}, Device("cuda:0"));
  // Every CUDA device by default: here the one, so the module itself moves there.
  nn::Linear layer(2, 1);
  Tensor out = parallel::data_parallel(layer, ones({3, 2}));
  EXPECT_TRUE(out.is_cuda());
  EXPECT_TRUE(layer->weight.is_cuda());
}

}  // namespace
}  // namespace ember
