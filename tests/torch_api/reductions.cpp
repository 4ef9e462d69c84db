// Area 3a: reductions, scans, sorting and batched products as Tensor methods (and their free
// forms): max/min with and without a dim, std, var, prod, cumsum, cumprod, sort, topk, bmm.
#include "torch_api.h"

namespace {

const torch::Tensor& data() {
  static const torch::Tensor x = torch::tensor({{3.f, 1.f, 4.f}, {1.5f, 5.f, 9.f}});
  return x;
}

void max_and_min() {
  const torch::Tensor& x = data();
  SHOW(x.max());
  SHOW(x.min());
  SHOW(x.max(1));
  SHOW(x.max(0, true));
  SHOW(x.min(1));
  // Not a structured binding: clang 14 cannot capture one in SHOW's lambda.
  const std::tuple<torch::Tensor, torch::Tensor> maxima = x.max(1);
  const torch::Tensor& indices = std::get<1>(maxima);
  SHOW(indices);
  SHOW(std::get<1>(x.min(0)));
  SHOW(torch::max(x, 1));
  SHOW(x.max(torch::full({3}, 2.f)));
  SHOW(torch::max(x, torch::zeros({3})));
  const torch::Tensor ties = torch::tensor({2, 7, 7, 1, 1});
  SHOW(ties.max(0));
  SHOW(ties.min(0));
  SHOW(torch::tensor({1.f, NAN, 3.f}).max());
  SHOW(torch::tensor({1.f, NAN, 3.f}).max(0));
  SHOW(x.argmax(1));
  SHOW(x.argmin(0, true));
  SHOW(x.amax(std::vector<int64_t>{0, 1}));
  SHOW(torch::tensor({true, false}).max());
}

void std_and_var() {
  const torch::Tensor& x = data();
  SHOW(x.std());
  SHOW(x.var());
  SHOW(x.std(false));
  SHOW(x.var(false));
  SHOW(x.std(0));
  SHOW(x.var(1));
  SHOW(x.std({1}, false, true));
  SHOW(x.var({1}, true, true));
  SHOW(x.var(std::vector<int64_t>{0, 1}, false, false));
  SHOW(torch::std(x, {0}, true, false));
  SHOW(torch::ones({1}).var());
}

void products_and_scans() {
  const torch::Tensor& x = data();
  const torch::Tensor ints = torch::tensor({{1, 2, 3}, {4, 5, 6}});
  SHOW(x.prod());
  SHOW(x.prod(1));
  SHOW(x.prod(torch::kDouble));
  SHOW(ints.prod());
  SHOW(ints.prod(1));
  SHOW(ints.prod(0, false, torch::kFloat));
  SHOW(torch::tensor({true, true}).prod());
  SHOW(x.cumsum(1));
  SHOW(x.cumsum(-1, torch::kDouble));
  SHOW(ints.to(torch::kInt).cumsum(1));
  SHOW(torch::tensor({true, false, true}).cumsum(0));
  SHOW(x.cumprod(1));
  SHOW(ints.cumprod(0));
  SHOW(ints.to(torch::kShort).cumprod(1));
  SHOW(ints.cumprod(1, torch::kFloat));
  torch::Tensor acc = ints.clone();
  acc.cumsum_(1);
  SHOW(acc);
  acc.cumprod_(0);
  SHOW(acc);
  SHOW(x.sum());
  SHOW(ints.sum());
  SHOW(x.sum(1));
  SHOW(x.sum(std::vector<int64_t>{1, 0}));
  SHOW(x.sum(torch::kDouble));
  SHOW(x.mean());
  SHOW(x.mean(1));
  SHOW(x.mean(std::vector<int64_t>{0}, true));
  SHOW(ints.all());
  SHOW(ints.gt(2).any(1));
  SHOW(ints.gt(2).all(0));
}

void sorting() {
  const torch::Tensor& x = data();
  SHOW(x.sort());
  SHOW(x.sort(1, true));
  SHOW(torch::sort(x, 0, true));
  const torch::Tensor ties = torch::tensor({3, 1, 3, 2, 1});
  SHOW(ties.sort(true, 0, false));
  SHOW(ties.sort(true, -1, true));
  SHOW(x.argsort());
  SHOW(x.topk(2));
  SHOW(x.topk(1, 0));
  SHOW(x.topk(2, -1, false));
  SHOW(x.topk(3, 1, true, true));
  const std::tuple<torch::Tensor, torch::Tensor> smallest = x.flatten().topk(2, 0, false);
  const torch::Tensor& top = std::get<0>(smallest);
  const torch::Tensor& where = std::get<1>(smallest);
  SHOW(top);
  SHOW(where);
}

void products() {
  const torch::Tensor a = torch::arange(12, torch::kFloat).view({2, 2, 3});
  const torch::Tensor b = torch::arange(12, torch::kFloat).view({2, 3, 2}).sub(4);
  SHOW(a.bmm(b));
  SHOW(torch::bmm(a, b));
  SHOW(a.bmm(b.transpose(1, 2).contiguous().transpose(1, 2)));
  SHOW(a[0].mm(b[1]));
  SHOW(a[0].mv(torch::ones({3})));
  SHOW(torch::ones({3}).dot(torch::arange(3, torch::kFloat)));
  SHOW(torch::arange(4).view({2, 2}).mm(torch::arange(4).view({2, 2})));
}

}  // namespace

void reductions() {
  torch_api::section("reductions, scans, sorting, bmm");
  max_and_min();
  std_and_var();
  products_and_scans();
  sorting();
  products();
}
