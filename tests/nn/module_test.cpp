// nn::Module and the layers: registration, naming, printing, in-place moves, state dicts.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "ember/nn.h"
#include "test_util.h"

namespace ember::test {
namespace {

TEST(NnModule, LinearDefaultInitIsPyTorchs) {
  manual_seed(0);
  nn::Linear a(16, 4), b(16, 4);
  // kaiming_uniform(a = sqrt 5) and the bias both give U(-1/sqrt(in), 1/sqrt(in)).
  EXPECT_LE(abs(a->weight).max().item<double>(), 0.25);
  EXPECT_LE(abs(a->bias).max().item<double>(), 0.25);
  EXPECT_GT(abs(a->weight).max().item<double>(), 0.2);  // 64 draws reach near the bound
  EXPECT_FALSE(equal(a->weight, b->weight));            // each module has its own parameters
  manual_seed(0);
  nn::Linear again(16, 4);
  EXPECT_TRUE(equal(a->weight, again->weight));  // reproducible under manual_seed
  EXPECT_TRUE(a->weight.requires_grad());
  EXPECT_TRUE(a->weight.is_leaf());
}

TEST(NnModule, LinearForwardAndGradFn) {
  nn::Linear lin(3, 1);
  {
    NoGradGuard no_grad;
    lin->weight.copy_(tensor({{1.0f, 2.0f, 3.0f}}));
    lin->bias.fill_(0.5);
  }
  Tensor out = lin(tensor({{1.0f, 1.0f, 1.0f}, {0.0f, 1.0f, 0.0f}}));
  expect_close(out, {2, 1}, {6.5, 2.5});
  EXPECT_EQ(out.grad_fn()->name(), "AddmmBackward0");
  EXPECT_EQ(lin(tensor({{1.0f, 1.0f, 1.0f}})).str(),
            "tensor([[6.5000]], grad_fn=<AddmmBackward0>)");
  // An int64 input fails like PyTorch's, naming both dtypes.
  std::string msg = error_of<TypeError>([&] { lin(tensor({{1, 2, 3}})); });
  EXPECT_NE(msg.find("Long"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Float"), std::string::npos) << msg;
}

TEST(NnModule, SequentialNamesAndPrintsLikePyTorch) {
  auto net = nn::Sequential(nn::Linear(3, 4), nn::ReLU(), nn::Linear(4, 1, false));
  EXPECT_EQ(net->named_parameters().keys(),
            (std::vector<std::string>{"0.weight", "0.bias", "2.weight"}));
  EXPECT_EQ(net->parameters().size(), 3u);
  EXPECT_EQ(net->str(),
            "Sequential(\n"
            "  (0): Linear(in_features=3, out_features=4, bias=True)\n"
            "  (1): ReLU()\n"
            "  (2): Linear(in_features=4, out_features=1, bias=False)\n"
            ")");
  Tensor out = net(ones({5, 3}));
  EXPECT_EQ(out.sizes(), IntArrayRef({5, 1}));
  EXPECT_EQ(out.grad_fn()->name(), "MmBackward0");
}

TEST(NnModule, ToIsInPlaceAndKeepsHandles) {
  auto net = nn::Sequential(nn::Linear(2, 2));
  Tensor w = net->parameters()[0];  // a handle held elsewhere, e.g. by an optimizer
  net(ones({1, 2})).sum().backward();
  nn::Module& same = net->to(kFloat64);
  EXPECT_EQ(&same, net.ptr().get());  // returns the module itself
  EXPECT_EQ(w.dtype(), kFloat64);     // the held handle sees the move
  EXPECT_EQ(w.grad().dtype(), kFloat64);
  EXPECT_TRUE(w.requires_grad());
  EXPECT_TRUE(w.is_leaf());
  EXPECT_EQ(net(ones({1, 2}, kFloat64)).dtype(), kFloat64);
  net->to(Device::cpu());  // already there: nothing changes
  EXPECT_EQ(w.dtype(), kFloat64);
}

TEST(NnModule, ToCudaMovesEveryParameter) {
  EMBER_SKIP_IF_NO_CUDA();
  auto net = nn::Sequential(nn::Linear(3, 1));
  net->to(Device::cuda(0));
  for (const Tensor& p : net->parameters()) EXPECT_EQ(p.device(), Device::cuda(0));
}

TEST(NnModule, TrainEvalZeroGrad) {
  auto net = nn::Sequential(nn::Linear(2, 2), nn::ReLU());
  EXPECT_TRUE(net->is_training());
  net->eval();
  EXPECT_FALSE(net->children()[0]->is_training());
  net(ones({1, 2})).sum().backward();
  Tensor w = net->parameters()[0];
  ASSERT_TRUE(w.grad().defined());
  net->zero_grad(/*set_to_none=*/false);
  expect_close(w.grad(), {2, 2}, {0, 0, 0, 0});
  net->zero_grad();
  EXPECT_FALSE(w.grad().defined());
}

TEST(NnModule, StateDictRoundTripAndErrors) {
  manual_seed(1);
  auto a = nn::Sequential(nn::Linear(3, 2));
  auto b = nn::Sequential(nn::Linear(3, 2));
  b->load_state_dict(a->state_dict());
  EXPECT_TRUE(equal(a->parameters()[0], b->parameters()[0]));
  EXPECT_TRUE(equal(a->parameters()[1], b->parameters()[1]));

  StateDict bad = a->state_dict();
  bad.insert("0.extra", zeros({1}));
  bad.insert("0.weight", zeros({2, 4}));
  StateDict missing;
  missing.insert("0.weight", zeros({2, 3}));
  std::string msg = error_of<ValueError>([&] { b->load_state_dict(bad); });
  EXPECT_NE(msg.find("Unexpected key(s) in state_dict: \"0.extra\""), std::string::npos) << msg;
  EXPECT_NE(msg.find("size mismatch for 0.weight: copying a param with shape [2, 4] from "
                     "checkpoint, the shape in current model is [2, 3]"),
            std::string::npos)
      << msg;
  msg = error_of<ValueError>([&] { b->load_state_dict(missing); });
  EXPECT_NE(msg.find("Missing key(s) in state_dict: \"0.bias\""), std::string::npos) << msg;
  EXPECT_TRUE(equal(a->parameters()[0], b->parameters()[0]));  // nothing half-loaded
  b->load_state_dict(missing, /*strict=*/false);
  EXPECT_TRUE(equal(b->parameters()[0], zeros({2, 3})));
}

// LibTorch's custom-module pattern: empty holders as members, filled by register_module.
struct TwoLayerImpl : nn::Module {
  nn::Linear fc1{nullptr}, fc2{nullptr};
  TwoLayerImpl() : nn::Module("TwoLayer") {
    fc1 = register_module("fc1", nn::Linear(3, 4));
    fc2 = register_module("fc2", nn::Linear(4, 1));
  }
  Tensor forward(const Tensor& x) { return fc2(relu(fc1(x))); }
};
EMBER_MODULE(TwoLayer);

TEST(NnModule, CustomModulesRegisterHoldersAsInLibTorch) {
  nn::Linear empty{nullptr};
  EXPECT_TRUE(empty.is_empty());
  TwoLayer net;
  EXPECT_FALSE(net->fc1.is_empty());
  std::vector<std::string> keys;
  for (const auto& [name, t] : net->named_parameters()) keys.push_back(name);
  EXPECT_EQ(keys, (std::vector<std::string>{"fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"}));
  // The members are the registered modules: a change through one shows in the other.
  net->fc2->bias.detach().fill_(0.5);
  net->fc2->weight.detach().zero_();
  expect_values<float>(net(ones({2, 3})), {2, 1}, {0.5f, 0.5f});
  EXPECT_TRUE(equal(net->parameters()[3], full({1}, 0.5)));
}

// Reaching a layer of a Sequential and a tensor of a state dict by position or name.
TEST(NnModule, SequentialAndStateDictLookups) {
  auto net = nn::Sequential(nn::Linear(3, 2), nn::ReLU());
  EXPECT_EQ(net->ptr<nn::LinearImpl>(0)->weight.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(error_of<TypeError>([&] { (void)net->ptr<nn::LinearImpl>(1); }),
            "[AnyModule] Attempted to cast module of type ember::nn::ReLUImpl to type "
            "ember::nn::LinearImpl");
  EXPECT_EQ(error_of<IndexError>([&] { (void)(*net)[2]; }),
            "[Sequential] index 2 is out of range for a Sequential of 2 modules");
  StateDict state = net->state_dict();
  EXPECT_TRUE(equal(state["0.bias"], net->ptr<nn::LinearImpl>(0)->bias));
  EXPECT_EQ(error_of<IndexError>([&] { (void)state["1.weight"]; }),
            "[OrderedDict] key '1.weight' is not defined; see keys() for the names");
}

// PyTorch's order: each module's parameters, then its buffers, then the next module's.
TEST(NnModule, StateDictKeysInPyTorchsOrder) {
  auto net = nn::Sequential(nn::Linear(3, 4), nn::BatchNorm1d(4), nn::ReLU(), nn::Linear(4, 2));
  std::vector<std::string> keys;
  for (const auto& [name, t] : net->state_dict()) keys.push_back(name);
  EXPECT_EQ(keys, (std::vector<std::string>{"0.weight", "0.bias", "1.weight", "1.bias",
                                            "1.running_mean", "1.running_var",
                                            "1.num_batches_tracked", "3.weight", "3.bias"}));
}

TEST(NnModule, InitFormulas) {
  EXPECT_DOUBLE_EQ(nn::init::calculate_gain(kReLU), std::sqrt(2.0));
  Tensor w = empty({8, 4, 3, 3});
  auto [fan_in, fan_out] = nn::init::_calculate_fan_in_and_fan_out(w);
  EXPECT_EQ(fan_in, 36);
  EXPECT_EQ(fan_out, 72);
  nn::init::xavier_uniform_(w);
  EXPECT_LE(abs(w).max().item<double>(), std::sqrt(6.0 / 108.0));
  nn::init::constant_(w, 0.25);
  EXPECT_TRUE(equal(w, full({8, 4, 3, 3}, 0.25f)));
}

}  // namespace
}  // namespace ember::test
