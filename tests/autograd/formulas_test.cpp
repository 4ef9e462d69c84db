// Every backward formula against finite differences (float64), on the CPU and every GPU, in
// both orders (gradcheck.h).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "autograd/gradcheck.h"
#include "test_util.h"

namespace ember::test {
namespace {

using namespace indexing;

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
      for (size_t i = 0; i < c.shapes.size(); ++i)
        inputs.push_back(input(c.shapes[i], c.positive, 7 + i));
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

// Every row of the unary table, through its public name: inputs in (0.1, 0.9), where each op is
// smooth (log, sqrt, asin, acos, tan, ...). The ops without a gradient are named, so that a row
// that should have one cannot lose it unseen.
TEST(Gradcheck, EveryUnaryRow) {
  const std::set<std::string> not_differentiable = {"logical_not", "isnan", "isinf", "isfinite"};
  const std::set<std::string> integer_only = {"bitwise_not"};
#define EMBER_UNARY_CASE(name) {#name, [](const Tensor& x) { return name(x); }},
  const std::vector<std::pair<std::string, Tensor (*)(const Tensor&)>> rows = {
      EMBER_PUBLIC_UNARY_OPS(EMBER_UNARY_CASE)};
#undef EMBER_UNARY_CASE
  for (Device device : all_devices()) {
    for (const auto& [name, op] : rows) {
      Tensor x = (rand({2, 3}, kFloat64) * 0.8 + 0.1).to(device).requires_grad_();
      if (integer_only.count(name)) {
        EXPECT_THROW(op(x), TypeError) << name;
        continue;
      }
      EXPECT_EQ(op(x).requires_grad(), !not_differentiable.count(name)) << name;
      if (not_differentiable.count(name)) continue;
      auto fn = op;  // clang 14 cannot capture a structured binding yet
      auto f = [fn](const std::vector<Tensor>& in) { return fn(in[0]); };
      gradcheck(name, f, {x.detach()}, device);
    }
  }
}

// Every row of the binary table with a tensor operand, inputs in (0.5, 1.5) broadcast against
// each other; comparisons, logic, bits and floor_divide have no gradient.
TEST(Gradcheck, EveryBinaryRow) {
  const std::set<std::string> differentiable = {"add",  "sub", "mul",   "div",     "remainder",
                                                "fmod", "pow", "atan2", "maximum", "minimum"};
#define EMBER_BINARY_CASE(name) \
  {#name, [](const Tensor& x, const Tensor& y) { return name(x, y); }},
  const std::vector<std::pair<std::string, Tensor (*)(const Tensor&, const Tensor&)>> rows = {
      EMBER_PUBLIC_BINARY_ALPHA_OPS(EMBER_BINARY_CASE)
          EMBER_PUBLIC_BINARY_SCALAR_OPS(EMBER_BINARY_CASE)
              EMBER_PUBLIC_BINARY_TENSOR_OPS(EMBER_BINARY_CASE)};
#undef EMBER_BINARY_CASE
  for (Device device : all_devices()) {
    for (const auto& [name, op] : rows) {
      Tensor x = (rand({2, 3}, kFloat64) + 0.5).to(device).requires_grad_();
      Tensor y = (rand({3}, kFloat64) + 0.5).to(device).requires_grad_();
      Tensor out;
      try {
        out = op(x, y);
      } catch (const TypeError&) {  // bits and shifts take integers
        EXPECT_FALSE(differentiable.count(name)) << name;
        continue;
      }
      EXPECT_EQ(out.requires_grad(), differentiable.count(name) == 1) << name;
      if (!out.requires_grad()) continue;
      auto fn = op;
      auto f = [fn](const std::vector<Tensor>& in) { return fn(in[0], in[1]); };
      gradcheck(name, f, {x.detach(), y.detach()}, device);
    }
  }
}

TEST(Gradcheck, ClampAndOperators) {
  run({
      {"neg", FN(-x[0]), {{3}}},
      {"clamp", FN(clamp(x[0], -0.5, 0.5)), {{3, 3}}},
      {"clamp min only", FN(clamp(x[0], -0.5)), {{3, 3}}},
      {"number minus", FN(2.0 - x[0]), {{4}}},
      {"number over", FN(2.0 / x[0]), {{4}}, true},
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
      {"amin", FN(amin(x[0], {0})), {{3, 4}}},
      {"max all", FN(max(x[0])), {{3, 4}}},
      {"min all", FN(min(x[0])), {{3, 4}}},
      {"min dim", FN(std::get<0>(min(x[0], 0))), {{3, 4}}},
      {"max dim keepdim", FN(std::get<0>(max(x[0], 1, true))), {{3, 4}}},
      {"var", FN(var(x[0], IntArrayRef{1})), {{3, 4}}},
      {"std", FN(ember::std(x[0])), {{3, 4}}},
      {"norm 2", FN(norm(x[0])), {{3, 4}}},
      {"norm 1 dim", FN(norm(x[0], 1.0, {0})), {{3, 4}}},
      {"norm 3", FN(norm(x[0], 3.0, {1})), {{3, 4}}},
      {"logsumexp", FN(logsumexp(x[0], {1})), {{3, 4}}},
      {"cumsum", FN(cumsum(x[0], 1)), {{3, 4}}},
      {"cumprod", FN(cumprod(x[0], 1)), {{3, 4}}},
      {"softmax", FN(softmax(x[0], 1)), {{3, 4}}},
      {"log_softmax", FN(log_softmax(x[0], 0)), {{3, 4}}},
  });
}

// Ops that copy values or overwrite them: fill_'s gradient to the old history is zero.
TEST(Gradcheck, CopiedAndOverwritten) {
  run({
      {"to copy", FN(x[0].to(kFloat64, false, /*copy=*/true)), {{3}}},
      {"clone", FN(x[0].clone()), {{3}}},
      {"fill_",
       FN(([&] {
         Tensor y = x[0] * 2.0;
         y.fill_(1.5);
         return y * x[0];
       }())),
       {{3}}},
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
       FN(masked_select(x[0], on(x[0], tensor({{true}, {false}, {true}})))),
       {{2}}},
      {"index mask", FN(x[0].index({Slice(), tensor({true, false, true})})), {{2, 3}}},
      {"index integers", FN(x[0].index({tensor({{2, -3}, {0, 2}})})), {{3, 2}}},
      {"index pair broadcast",
       FN(x[0].index({on(x[0], tensor({{0}, {2}})), on(x[0], tensor({1, 1, 0}))})),
       {{3, 2}}},
      {"index separated", FN(x[0].index({tensor({1, 0}), Slice(), tensor({2, 2})})), {{2, 2, 3}}},
  });
}

TEST(Gradcheck, InPlaceOnNonLeaf) {
  run({
      {"mul_",
       FN(([&] {
         Tensor y = x[0] * 1.0;
         y.mul_(x[1]);
         return y;
       }())),
       {{3}, {3}}},
      {"add_ scalar",
       FN(([&] {
         Tensor y = x[0] * 2.0;
         y.add_(1.5);
         return y;
       }())),
       {{3}}},
      {"clamp_",
       FN(([&] {
         Tensor y = x[0] * 1.0;
         y.clamp_(-0.3, 0.3);
         return y;
       }())),
       {{4}}},
      {"copy_",
       FN(([&] {
         Tensor y = zeros({2, 3}, x[0].options());
         y.copy_(x[0]);
         return y * y;
       }())),
       {{3}}},
      {"index_put_ accumulate",
       FN(([&] {
         Tensor y = x[0] * 1.0;
         y.index_put_({on(y, tensor({0, 2, 0})), on(y, tensor({1, 1, 1}))}, x[1], true);
         return y * y;
       }())),
       {{3, 2}, {3}}},
      {"index_put_ through a slice",
       FN(([&] {
         Tensor y = x[0] * 1.0;
         y.index_put_({Slice(1), on(y, tensor({1, 0}))}, x[1]);
         return y * y;
       }())),
       {{3, 2}, {2}}},
      // In-place ops on views (Note [Views in autograd]).
      {"mul_ on a column",
       FN(([&] {
         Tensor y = x[0] * 1.0;
         y.index({Slice(), 0}).mul_(x[1]);
         return y * y;
       }())),
       {{3, 2}, {3}}},
      {"add_ on a view of a view",
       FN(([&] {
         Tensor y = x[0] * 1.0;
         y.t()[1].narrow(0, 1, 2).add_(x[1] * x[1]);
         return y * y;
       }())),
       {{3, 2}, {2}}},
      {"copy_ and fill_ into a buffer",
       FN(([&] {
         Tensor out = zeros({3, 2}, x[0].options());
         out[0].copy_(x[0] * x[0]);
         out[1] = x[0].sin();
         out[2].fill_(3);
         return out * out;
       }())),
       {{2}}},
      {"index_put_ on a view",
       FN(([&] {
         Tensor y = x[0] * 1.0;
         y.index({Slice(1)}).index_put_({on(y, tensor({0, 1})), on(y, tensor({1, 0}))}, x[1]);
         return y * y;
       }())),
       {{3, 2}, {2}}},
      {"an older view after its base changed",
       FN(([&] {
         Tensor y = x[0] * 1.0;
         Tensor row = y[0];
         y.index({Slice(), 0}).mul_(x[1]);
         return row * row;
       }())),
       {{3, 2}, {3}}},
      {"mul_ on a row of a base laid out transposed",
       FN(([&] {
         Tensor y = x[0].t() * 1.0;  // strides {1, 2}, as its input's
         y[1].mul_(x[1]);
         return y * y;
       }())),
       {{3, 2}, {3}}},
      {"as_strided", FN(x[0].as_strided({2, 2}, {1, 2}, 1)), {{6}}},
      {"as_strided overlapping output", FN(x[0].as_strided({3, 3}, {1, 0}, 0)), {{6}}},
      {"as_strided of an expanded input",
       FN(x[0].expand({2, 3}).as_strided({2, 2}, {1, 1}, 0)),
       {{3}}},
  });
}

}  // namespace
}  // namespace ember::test
