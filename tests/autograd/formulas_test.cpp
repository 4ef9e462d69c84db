// Every backward formula against finite differences (float64), on the CPU and every GPU.
#include <gtest/gtest.h>

#include "autograd/gradcheck.h"
#include "test_util.h"

namespace ember::test {
namespace {

struct Case {
  const char* name;
  Fn f;
  std::vector<std::vector<int64_t>> shapes;
  bool positive = false;  // inputs drawn from (0.5, 1.5) (log, sqrt, pow, ...)
};

Tensor input(const std::vector<int64_t>& shape, bool positive, uint64_t seed) {
  manual_seed(seed);
  Tensor x = randn(shape, kFloat64);
  return positive ? rand(shape, kFloat64) + 0.5 : x;
}

void run(const std::vector<Case>& cases) {
  for (Device device : all_devices()) {
    for (const Case& c : cases) {
      std::vector<Tensor> inputs;
      for (size_t i = 0; i < c.shapes.size(); ++i) inputs.push_back(input(c.shapes[i], c.positive, 7 + i));
      gradcheck(c.name, c.f, inputs, device);
    }
  }
}

// An index or mask built on the CPU, moved to the device of the input it indexes.
Tensor on(const Tensor& like, const Tensor& t) { return t.to(like.device()); }

#define FN(body) [](const std::vector<Tensor>& x) -> Tensor { return body; }

TEST(Gradcheck, Binary) {
  run({
      {"add broadcast", FN(add(x[0], x[1], 2.5)), {{2, 3}, {3}}},
      {"sub broadcast", FN(sub(x[0], x[1])), {{2, 1}, {1, 3}}},
      {"mul", FN(x[0] * x[1]), {{2, 3}, {2, 3}}},
      {"mul scalar", FN(x[0] * 3.0), {{4}}},
      {"div", FN(x[0] / x[1]), {{2, 3}, {3}}, true},
      {"pow tensor", FN(pow(x[0], x[1])), {{2, 2}, {2, 2}}, true},
      {"pow scalar", FN(pow(x[0], 3)), {{5}}},
      {"pow base", FN(pow(2.0, x[0])), {{3}}},
      {"maximum", FN(maximum(x[0], x[1])), {{3, 2}, {3, 2}}},
      {"minimum", FN(minimum(x[0], x[1])), {{6}, {6}}},
      {"where", FN(where(x[0] > 0, x[0], x[1])), {{2, 3}, {2, 3}}},
      {"remainder", FN(remainder(x[0], 0.7)), {{4}}},
  });
}

TEST(Gradcheck, Unary) {
  run({
      {"neg", FN(-x[0]), {{3}}},
      {"abs", FN(abs(x[0])), {{2, 3}}},
      {"exp", FN(exp(x[0])), {{2, 3}}},
      {"log", FN(log(x[0])), {{2, 3}}, true},
      {"log1p", FN(log1p(x[0])), {{4}}, true},
      {"expm1", FN(expm1(x[0])), {{4}}},
      {"sqrt", FN(sqrt(x[0])), {{4}}, true},
      {"rsqrt", FN(rsqrt(x[0])), {{4}}, true},
      {"sin", FN(sin(x[0])), {{4}}},
      {"cos", FN(cos(x[0])), {{4}}},
      {"tan", FN(tan(x[0])), {{4}}, true},
      {"tanh", FN(tanh(x[0])), {{4}}},
      {"sigmoid", FN(sigmoid(x[0])), {{4}}},
      {"relu", FN(relu(x[0])), {{2, 4}}},
      {"gelu", FN(gelu(x[0])), {{2, 4}}},
      {"silu", FN(silu(x[0])), {{2, 4}}},
      {"erf", FN(erf(x[0])), {{2, 4}}},
      {"reciprocal", FN(reciprocal(x[0])), {{4}}, true},
      {"square", FN(square(x[0])), {{4}}},
      {"clamp", FN(clamp(x[0], -0.5, 0.5)), {{3, 3}}},
  });
}

TEST(Gradcheck, Reductions) {
  run({
      {"sum", FN(x[0].sum()), {{2, 3}}},
      {"sum dims", FN(x[0].sum({0, 2})), {{2, 3, 2}}},
      {"sum keepdim", FN(x[0].sum({1}, true)), {{2, 3}}},
      {"mean", FN(x[0].mean()), {{2, 3}}},
      {"mean dim", FN(x[0].mean({-1})), {{2, 3}}},
      {"prod", FN(prod(x[0])), {{2, 3}}, true},
      {"prod dim", FN(prod(x[0], 1)), {{2, 3}}, true},
      {"amax", FN(amax(x[0], {1})), {{3, 4}}},
      {"max all", FN(max(x[0])), {{3, 4}}},
      {"min dim", FN(std::get<0>(min(x[0], 0))), {{3, 4}}},
      {"max dim keepdim", FN(std::get<0>(max(x[0], 1, true))), {{3, 4}}},
      {"var", FN(var(x[0], {1})), {{3, 4}}},
      {"std", FN(ember::std(x[0])), {{3, 4}}},
      {"norm 2", FN(norm(x[0])), {{3, 4}}},
      {"norm 1 dim", FN(norm(x[0], 1.0, {0})), {{3, 4}}},
      {"norm 3", FN(norm(x[0], 3.0, {1})), {{3, 4}}},
      {"logsumexp", FN(logsumexp(x[0], {1})), {{3, 4}}},
      {"cumsum", FN(cumsum(x[0], 1)), {{3, 4}}},
      {"softmax", FN(softmax(x[0], 1)), {{3, 4}}},
      {"log_softmax", FN(log_softmax(x[0], 0)), {{3, 4}}},
  });
}

TEST(Gradcheck, Linalg) {
  run({
      {"mm", FN(mm(x[0], x[1])), {{2, 3}, {3, 4}}},
      {"matmul batched broadcast", FN(matmul(x[0], x[1])), {{2, 2, 3}, {3, 2}}},
      {"matmul vector", FN(matmul(x[0], x[1])), {{3}, {3, 2}}},
      {"bmm", FN(bmm(x[0], x[1])), {{2, 2, 3}, {2, 3, 2}}},
      {"mv", FN(mv(x[0], x[1])), {{2, 3}, {3}}},
      {"dot", FN(dot(x[0], x[1])), {{4}, {4}}},
      {"addmm", FN(addmm(x[0], x[1], x[2], 0.5, 2.0)), {{4}, {2, 3}, {3, 4}}},
      {"linear", FN(linear(x[0], x[1], x[2])), {{5, 3}, {2, 3}, {2}}},
      {"linear 3-D", FN(linear(x[0], x[1])), {{2, 2, 3}, {4, 3}}},
  });
}

TEST(Gradcheck, ViewsAndShapes) {
  run({
      {"view", FN(x[0].view({3, 2}) * x[0].view({3, 2})), {{2, 3}}},
      {"reshape non-contiguous", FN(x[0].t().reshape({6})), {{2, 3}}},
      {"transpose", FN(x[0].transpose(0, 2)), {{2, 3, 2}}},
      {"permute", FN(x[0].permute({2, 0, 1})), {{2, 3, 2}}},
      {"squeeze unsqueeze", FN(x[0].unsqueeze(1).squeeze()), {{2, 3}}},
      {"expand", FN(x[0].expand({3, 2, 4})), {{2, 1}}},
      {"slice step", FN(x[0].slice(1, 0, 5, 2)), {{2, 5}}},
      {"select", FN(x[0].select(0, 1)), {{3, 2}}},
      {"index", FN(x[0].index({Slice(1), 0})), {{3, 2}}},
      {"cat", FN(cat({x[0], x[1]}, 1)), {{2, 1}, {2, 3}}},
      {"stack", FN(stack({x[0], x[1]}, 1)), {{2, 3}, {2, 3}}},
      {"split", FN(split(x[0], 2, 1)[1] * 2), {{2, 3}}},
      {"index_select", FN(index_select(x[0], 0, on(x[0], tensor({2, 0, 2})))), {{3, 2}}},
      {"gather", FN(gather(x[0], 1, on(x[0], tensor({{0, 0}, {1, 0}})))), {{2, 2}}},
      {"scatter", FN(scatter(x[0], 1, on(x[0], tensor({{1}, {0}})), x[1])), {{2, 2}, {2, 1}}},
      {"scatter_add", FN(scatter_add(x[0], 0, on(x[0], tensor({{1, 1}})), x[1])), {{2, 2}, {1, 2}}},
      {"masked_fill", FN(masked_fill(x[0], on(x[0], tensor({true, false, true})), 2.0)), {{2, 3}}},
      {"sort", FN(std::get<0>(sort(x[0], 1))), {{2, 4}}},
      {"topk", FN(std::get<0>(topk(x[0], 2))), {{2, 4}}},
      {"clone", FN(x[0].clone()), {{3}}},
      {"flip", FN(flip(x[0], {0, 2}) * x[0]), {{2, 3, 2}}},
      {"repeat", FN(repeat(x[0], {2, 1, 3})), {{2, 2}}},
      {"tril", FN(tril(x[0], -1)), {{2, 3, 4}}},
      {"triu", FN(triu(x[0], 1)), {{3, 4}}},
      {"masked_select broadcast",
       FN(masked_select(x[0], on(x[0], tensor({{true}, {false}, {true}})))), {{2}}},
      {"index mask", FN(x[0].index({Slice(), tensor({true, false, true})})), {{2, 3}}},
      {"index integers", FN(x[0].index({tensor({{2, -3}, {0, 2}})})), {{3, 2}}},
  });
}

TEST(Gradcheck, InPlaceOnNonLeaf) {
  run({
      {"mul_", FN(([&] { Tensor y = x[0] * 1.0; y.mul_(x[1]); return y; }())), {{3}, {3}}},
      {"add_ scalar", FN(([&] { Tensor y = x[0] * 2.0; y.add_(1.5); return y; }())), {{3}}},
      {"clamp_", FN(([&] { Tensor y = x[0] * 1.0; y.clamp_(-0.3, 0.3); return y; }())), {{4}}},
      {"copy_", FN(([&] { Tensor y = zeros({2, 3}, kFloat64); y.copy_(x[0]); return y * y; }())),
       {{3}}},
  });
}

}  // namespace
}  // namespace ember::test
