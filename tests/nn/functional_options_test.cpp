// nn::functional with LibTorch's options, the enum tags, nn::init and nn::utils where LibTorch
// cannot be the reference (torch_api's nn_functional area compares the rest with LibTorch):
// hand-computed values, ember's own forms, and the errors ember adds.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "ember/ember.h"
#include "ember/nn.h"
#include "test_util.h"

namespace ember {
namespace {

namespace F = nn::functional;
using test::error_of;
using test::expect_close;

TEST(NnEnums, NamesAndReductions) {
  EXPECT_EQ(enumtype::get_enum_name(nn::loss_reduction_t(kMean)), "kMean");
  EXPECT_EQ(enumtype::reduction_get_enum(nn::loss_reduction_t(kSum)), Reduction::Sum);
  EXPECT_EQ(enumtype::reduction_get_enum(nn::loss_reduction_t(kNone)), Reduction::None);
  // The ATen form takes the int and checks it.
  EXPECT_DOUBLE_EQ(mse_loss(tensor({1.0, 3.0}), zeros({2}), Reduction::Sum).item<double>(), 10.0);
  std::string msg = error_of<ValueError>([] { mse_loss(ones({2}), ones({2}), 7); });
  EXPECT_NE(msg.find("7 is not a valid value for reduction"), std::string::npos) << msg;
}

TEST(NnFunctional, GeluTanhApproximation) {
  // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))), computed in Python's math module.
  Tensor x = tensor({-1.0, 0.5, 2.0}, kFloat64).requires_grad_();
  Tensor y = F::gelu(x, F::GELUFuncOptions().approximate("tanh"));
  expect_close(y, {3}, {-0.15880800939172324, 0.34571400982514394, 1.954597694087775}, 1e-12);
  y.sum().backward();  // composed of differentiable ops
  EXPECT_TRUE(x.grad().defined());
  std::string msg =
      error_of<ValueError>([&] { F::gelu(x, F::GELUFuncOptions().approximate("fast")); });
  EXPECT_NE(msg.find("approximate argument must be either none or tanh"), std::string::npos);
}

TEST(NnFunctional, InplaceOptionsWriteTheInput) {
  Tensor x = tensor({-1.0, 2.0});
  Tensor y = F::relu(x, F::ReLUFuncOptions(true));
  EXPECT_TRUE(y.is_same(x));
  expect_close(x, {2}, {0.0, 2.0}, 0);
  Tensor z = ones({4});
  F::dropout(z, F::DropoutFuncOptions().p(1.0).inplace(true));
  expect_close(z, {4}, {0, 0, 0, 0}, 0);
}

TEST(NnFunctional, EmbeddingRefusesWhatEmberLacks) {
  // max_norm and scale_grad_by_freq work (embedding_bag_test.cpp); sparse gradients do not.
  std::string msg = error_of<NotImplementedError>([] {
    F::embedding(tensor({int64_t{0}}), ones({2, 2}), F::EmbeddingFuncOptions().sparse(true));
  });
  EXPECT_NE(msg.find("[embedding] sparse gradients are not supported by ember"), std::string::npos);
  EXPECT_THROW(nn::Embedding(nn::EmbeddingOptions(2, 2).sparse(true)), NotImplementedError);
  EXPECT_THROW(nn::Embedding(nn::EmbeddingOptions(2, 2)._weight(ones({3, 2}))), ValueError);
}

TEST(NnInit, TruncNormalStaysInItsInterval) {
  manual_seed(3);
  Tensor t = nn::init::trunc_normal_(empty({10000}), 1.0, 2.0, 0.0, 1.5);
  EXPECT_GE(t.min().item<double>(), 0.0);
  EXPECT_LE(t.max().item<double>(), 1.5);
  // The mean of N(1, 4) truncated to [0, 1.5]: mu + sigma (phi(a') - phi(b')) / (Phi(b') -
  // Phi(a')) with a' = -0.5, b' = 0.25.
  auto phi = [](double z) { return std::exp(-z * z / 2) / std::sqrt(2 * M_PI); };
  auto cdf = [](double z) { return 0.5 * (1 + std::erf(z / std::sqrt(2.0))); };
  const double mean = 1.0 + 2.0 * (phi(-0.5) - phi(0.25)) / (cdf(0.25) - cdf(-0.5));
  EXPECT_NEAR(t.mean().item<double>(), mean, 0.02);
  EXPECT_THROW(nn::init::trunc_normal_(empty({2}), 0, 1, 20, 21), ValueError);
}

TEST(NnInit, KaimingLeavesAnEmptyTensorAlone) {
  // A layer with no inputs has a fan-in of 0: nothing to draw, as PyTorch's no-op.
  nn::Linear empty_input(0, 3);
  EXPECT_EQ(empty_input->weight.sizes(), IntArrayRef({3, 0}));
  EXPECT_EQ(nn::init::kaiming_normal_(empty({2, 0})).numel(), 0);
}

TEST(NnInit, OrthogonalSparseAndDirac) {
  manual_seed(1);
  Tensor w = nn::init::orthogonal_(empty({2, 3, 2}));  // rows 2, flattened columns 6
  Tensor flat = w.view({2, 6});
  EXPECT_TRUE(allclose(flat.matmul(flat.t()), eye(2), 1e-5, 1e-6));
  Tensor s = nn::init::sparse_(empty({10, 4}), 0.25);
  expect_close((s == 0).sum(0), {4}, {3, 3, 3, 3}, 0);  // ceil(0.25 * 10) per column
  Tensor d = nn::init::dirac_(empty({3, 2, 3, 3}));
  EXPECT_EQ(d.sum().item<double>(), 2.0);
  EXPECT_EQ(d.index({1, 1, 1, 1}).item<double>(), 1.0);
}

TEST(NnUtils, ClipGradNormReturnsADoubleAndTheTensorFormWaitsForNothing) {
  Tensor a = zeros({2}).requires_grad_(), b = zeros({1}).requires_grad_();
  (a * tensor({3.0f, 4.0f})).sum().backward();
  (b * 12.0).sum().backward();
  const double total = nn::utils::clip_grad_norm_({a, b}, 6.5);
  EXPECT_NEAR(total, 13.0, 1e-5);
  expect_close(a.grad(), {2}, {1.5, 2.0}, 1e-5);
  Tensor total_tensor = nn::utils::clip_grad_norm_tensor_({a, b}, 100.0);
  EXPECT_EQ(total_tensor.dim(), 0);
  EXPECT_NEAR(total_tensor.item<double>(), 6.5, 1e-4);
}

TEST(NnUtils, VectorToParametersMakesViewsOfTheVector) {
  Tensor a = zeros({2, 2}), b = zeros({1});
  Tensor vec = arange(5, kFloat);
  nn::utils::vector_to_parameters(vec, {a, b});
  expect_close(a, {2, 2}, {0, 1, 2, 3}, 0);
  vec.fill_(7);  // the parameters now view the vector's storage, as in LibTorch
  EXPECT_EQ(b.item<double>(), 7.0);
  expect_close(nn::utils::parameters_to_vector({b, a}), {5}, {7, 7, 7, 7, 7}, 0);
  EXPECT_THROW(nn::utils::vector_to_parameters(arange(4, kFloat), {a, b}), ValueError);
}

}  // namespace
}  // namespace ember
