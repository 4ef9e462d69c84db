// Area 5: the factories with each of their overloads: arange, tensor (std::vector and nested
// braces), zeros, full, empty_strided, eye, linspace, logspace, randn, randint, randperm, the
// *_like factories with options, and the default dtype that float factories follow.
#include "torch_api.h"

namespace {

bool in_range(const torch::Tensor& t, double low, double high) {
  return t.min().item<double>() >= low && t.max().item<double>() < high;
}

void aranges() {
  SHOW(torch::arange(5));
  SHOW(torch::arange(5.0));
  SHOW(torch::arange(1, 4));
  SHOW(torch::arange(0, 1, 0.25));
  SHOW(torch::arange(0, 10, 3));
  SHOW(torch::arange(5, 0, -2));
  SHOW(torch::arange(0.5, 2.5));
  SHOW(torch::arange(4, torch::kFloat));
  SHOW(torch::arange(1, 4, torch::kFloat));
  SHOW(torch::arange(1, 4, torch::dtype(torch::kInt)));
  SHOW(torch::arange(0, 10, 3, torch::kShort));
  SHOW(torch::arange(-1.0, 1.0, 0.5, torch::dtype(torch::kDouble)));
  SHOW(torch::arange(3.0, torch::requires_grad()).requires_grad());
  SHOW(torch::arange(0));
}

void tensors() {
  SHOW(torch::tensor({1, 2, 3}));
  SHOW(torch::tensor({1.5, 2.5}));
  SHOW(torch::tensor({1.f, 2.f}));
  SHOW(torch::tensor({true, false}));
  SHOW(torch::tensor({int16_t{1}, int16_t{-2}}));
  SHOW(torch::tensor({uint8_t{255}}));
  SHOW(torch::tensor({int64_t{1} << 40}));
  SHOW(torch::tensor(3));
  SHOW(torch::tensor(2.5));
  SHOW(torch::tensor(false));
  SHOW(torch::tensor({{1, 2}, {3, 4}, {5, 6}}));
  SHOW(torch::tensor({{{1.f}, {2.f}}, {{3.f}, {4.f}}}));
  SHOW(torch::tensor(std::vector<float>{0.5f, 1.5f}));
  SHOW(torch::tensor(std::vector<double>{0.5, 1.5}));
  SHOW(torch::tensor(std::vector<int64_t>{4, 5}));
  SHOW(torch::tensor(std::vector<int>{4, 5}));
  SHOW(torch::tensor(std::vector<uint8_t>{7}));
  SHOW(torch::tensor(c10::ArrayRef<int64_t>({8, 9})));
  SHOW(torch::tensor({1, 2}, torch::kFloat));
  SHOW(torch::tensor({1.5, 2.5}, torch::dtype(torch::kDouble)));
  SHOW(torch::tensor({1.7, -1.7}, torch::kInt));
  SHOW(torch::tensor({1.f, 2.f}, torch::requires_grad()).requires_grad());
  SHOW(torch::tensor({{1.f, 2.f}}, torch::TensorOptions().requires_grad(true)).is_leaf());
  SHOW(torch::tensor(std::vector<float>{}, torch::kLong));
  SHOW(torch::tensor({}));
}

void fills() {
  SHOW(torch::zeros(std::vector<int64_t>{2, 3}));
  SHOW(torch::zeros({2}, torch::kInt));
  SHOW(torch::zeros({0, 3}));
  SHOW(torch::zeros({}));
  SHOW(torch::ones({1, 2}, torch::kBool));
  SHOW(torch::empty({2, 0, 3}).sizes());
  SHOW(torch::full({2, 2}, 7));
  SHOW(torch::full({2}, 1.5));
  SHOW(torch::full({2}, true));
  SHOW(torch::full({2}, 3, torch::kDouble));
  SHOW(torch::full({1}, -1.5, torch::kHalf));
  SHOW(torch::full({}, 4));
  const torch::Tensor s = torch::empty_strided({2, 3}, {1, 2});
  SHOW(s.sizes());
  SHOW(s.strides());
  SHOW(s.fill_(1.5));
  SHOW(torch::empty_strided({2, 2}, {2, 1}, torch::kLong).zero_());
  SHOW(torch::eye(3));
  SHOW(torch::eye(2, 3));
  SHOW(torch::eye(3, 2, torch::kInt));
  SHOW(torch::eye(2, torch::kBool));
  SHOW(torch::linspace(0, 1, 5));
  SHOW(torch::linspace(-1, 1, 1));
  SHOW(torch::linspace(0, 1, 0));
  SHOW(torch::linspace(1.0, 2.0, 4, torch::kDouble));
  SHOW(torch::linspace(0, 10, 3, torch::kLong));
  SHOW(torch::logspace(0, 2, 3));
  SHOW(torch::logspace(0, 3, 4, 2));
  SHOW(torch::logspace(0, 1, 2, 10.0, torch::kDouble));
}

void randoms() {
  const torch::Tensor n = torch::randn({2, 3});
  SHOW(n.sizes());
  SHOW(n.scalar_type());
  SHOW(torch::randn({4}, torch::requires_grad()).requires_grad());
  SHOW(in_range(torch::rand({1000}), 0, 1));
  const torch::Tensor i = torch::randint(10, {1000});
  SHOW(i.scalar_type());
  SHOW(in_range(i, 0, 10));
  SHOW(i.min().item<int64_t>() == 0 && i.max().item<int64_t>() == 9);
  SHOW(in_range(torch::randint(5, 8, {1000}), 5, 8));
  SHOW(torch::randint(0, 3, {2, 2}, torch::kInt).scalar_type());
  SHOW(in_range(torch::randint(0, 3, {2, 2}, torch::kInt), 0, 3));
  SHOW(torch::randint(0, 10, {3}, torch::device(torch::kCPU)).scalar_type());
  SHOW(torch::randint(4, {3}, torch::dtype(torch::kByte)).scalar_type());
  const torch::Tensor perm = torch::randperm(6);
  SHOW(perm.scalar_type());
  SHOW(std::get<0>(perm.sort()));
  SHOW(std::get<0>(torch::randperm(4, torch::kInt).sort()));
  SHOW(torch::randperm(5, torch::kDouble).sum());
  SHOW(torch::randperm(3, torch::device(torch::kCPU)).scalar_type());
}

void likes() {
  const torch::Tensor x = torch::tensor({{1.5f, 2.f}, {3.f, 4.f}});
  const torch::Tensor ints = torch::tensor({1, 2, 3});
  SHOW(torch::zeros_like(x));
  SHOW(torch::ones_like(x, torch::kInt));
  SHOW(torch::ones_like(ints));
  SHOW(torch::zeros_like(x, torch::dtype(torch::kBool)));
  SHOW(torch::ones_like(x, torch::requires_grad()).requires_grad());
  SHOW(torch::empty_like(ints, torch::kDouble).scalar_type());
  SHOW(torch::full_like(x, 7));
  SHOW(torch::full_like(ints, 2.5));
  SHOW(torch::full_like(x, 2.5, torch::kDouble));
  SHOW(in_range(torch::rand_like(x), 0, 1));
  SHOW(torch::rand_like(x, torch::kDouble).scalar_type());
  const torch::Tensor r = torch::randint_like(x, 10);
  SHOW(r.scalar_type());
  SHOW(r.equal(r.floor()) && in_range(r, 0, 10));
  SHOW(in_range(torch::randint_like(ints, 3, 5), 3, 5));
  SHOW(torch::randint_like(ints, 3, 5).scalar_type());
}

void default_dtype() {
  SHOW(torch::get_default_dtype() == torch::kFloat);
  SHOW(torch::get_default_dtype_as_scalartype());
  torch::set_default_dtype(caffe2::TypeMeta::Make<double>());
  SHOW(torch::get_default_dtype() == torch::kDouble);
  SHOW(torch::ones({2}).scalar_type());
  SHOW(torch::tensor({1.5}).scalar_type());
  SHOW(torch::tensor({1.5f}).scalar_type());
  SHOW(torch::arange(0.5, 2).scalar_type());
  SHOW(torch::linspace(0, 1, 3).scalar_type());
  SHOW((torch::tensor({1, 2}) / 2).scalar_type());
  SHOW((torch::tensor({1, 2}) + 1.5).scalar_type());
  SHOW(torch::randint(0, 10, {3}, torch::device(torch::kCPU)).scalar_type());
  torch::set_default_dtype(c10::scalarTypeToTypeMeta(torch::kFloat));
  SHOW(torch::ones({2}).scalar_type());
  SHOW((torch::tensor({1, 2}) / 2).scalar_type());
}

}  // namespace

void factories() {
  torch_api::section("factories");
  aranges();
  tensors();
  fills();
  randoms();
  likes();
  default_dtype();
}
