// Area 3d: what a tensor says about itself and how it converts: is_signed, is_floating_point,
// ndimension, is_same_size, toString, toType, type_as, item() as a Scalar, accessor<T, N>(),
// and the in-place shape changes resize_, unsqueeze_, squeeze_, t_ and transpose_.
#include "torch_api.h"

namespace {

void predicates() {
  SHOW(torch::ones({1}).is_signed());
  SHOW(torch::ones({1}, torch::kByte).is_signed());
  SHOW(torch::ones({1}, torch::kBool).is_signed());
  SHOW(torch::ones({1}, torch::kChar).is_signed());
  SHOW(torch::ones({1}, torch::kHalf).is_floating_point());
  SHOW(torch::ones({1}, torch::kBFloat16).is_floating_point());
  SHOW(torch::ones({1}, torch::kInt).is_floating_point());
  SHOW(torch::ones({1}, torch::kBool).is_floating_point());
  SHOW(torch::is_floating_point(torch::ones({1})));
  const torch::Tensor x = torch::zeros({2, 3, 4});
  SHOW(x.ndimension());
  SHOW(torch::tensor(5).ndimension());
  SHOW(x.numel());
  SHOW(x.sizes());
  SHOW(x.strides());
  SHOW(x.nbytes());
  SHOW(x.element_size());
  SHOW(x.is_contiguous());
  SHOW(x.is_same_size(torch::ones({2, 3, 4}, torch::kInt)));
  SHOW(x.is_same_size(torch::ones({4, 3, 2})));
  SHOW(x.is_same_size(torch::ones({24})));
  SHOW(x.toString());
  SHOW(torch::ones({1}, torch::kLong).toString());
  SHOW(torch::ones({1}, torch::kBool).toString());
  SHOW(torch::ones({1}, torch::requires_grad()).toString());
}

void conversions() {
  const torch::Tensor x = torch::tensor({1.7f, -1.7f, 0.5f});
  SHOW(x.toType(torch::kDouble));
  SHOW(x.toType(torch::kInt));
  SHOW(x.toType(torch::kBool));
  SHOW(x.type_as(torch::ones({1}, torch::kLong)));
  SHOW(x.type_as(torch::ones({1}, torch::kHalf)));
  SHOW(torch::tensor({1, 0, 2}).type_as(torch::ones({1}, torch::kBool)));
  SHOW(x.type_as(x).is_same(x));
}

void items() {
  const c10::Scalar real = torch::tensor(2.5f).item();
  SHOW(real.toFloat());
  SHOW(real.toDouble());
  SHOW(real.toLong());
  SHOW(real.isFloatingPoint());
  SHOW(real.type());
  const c10::Scalar integer = torch::tensor(7).item();
  SHOW(integer.toLong());
  SHOW(integer.isIntegral(false));
  SHOW(integer.type());
  const c10::Scalar flag = torch::tensor(true).item();
  SHOW(flag.toBool());
  SHOW(flag.isBoolean());
  SHOW(torch::ones({1, 1}, torch::kInt).item().type());
  SHOW(torch::tensor(-2.7).item().toInt());
  SHOW(torch::tensor({3.9f}).item<float>());
  SHOW(torch::tensor({3.9f}).item<int64_t>());
  SHOW(torch::ones({1, 1}, torch::kInt).item<int>());
  SHOW(torch::tensor(true).item<bool>());
  SHOW(torch::arange(6).view({2, 3})[1][2].item<int64_t>());
}

void accessors() {
  const torch::Tensor x = torch::arange(6, torch::kFloat).view({2, 3});
  auto a = x.accessor<float, 2>();
  SHOW(a[1][2]);
  SHOW(a.size(0));
  SHOW(a.stride(0));
  SHOW(a.sizes());
  a[0][1] = 42;
  SHOW(x);
  const torch::Tensor t = x.t();
  auto at = t.accessor<float, 2>();
  SHOW(at[2][1]);
  SHOW(at.stride(0));
  double total = 0;
  for (int64_t i = 0; i < at.size(0); ++i) {
    for (int64_t j = 0; j < at.size(1); ++j) total += at[i][j];
  }
  SHOW(total);
  const torch::Tensor cube = torch::arange(24).view({2, 3, 4});
  auto c = cube.accessor<int64_t, 3>();
  SHOW(c[1][2][3]);
  SHOW(c[1][0].size(0));
  const torch::Tensor row = cube[1][1];
  auto r = row.accessor<int64_t, 1>();
  SHOW(r[3]);
  r[3] = -1;
  SHOW(cube[1][1]);
}

void in_place_shapes() {
  torch::Tensor y = torch::arange(6, torch::kFloat).view({2, 3});
  y.unsqueeze_(0);
  SHOW(y.sizes());
  y.squeeze_();
  SHOW(y.sizes());
  y.unsqueeze_(-1);
  SHOW(y.sizes());
  SHOW(y.strides());
  y.squeeze_(2).squeeze_(0);
  SHOW(y.sizes());
  y.t_();
  SHOW(y.sizes());
  SHOW(y.strides());
  SHOW(y);
  y.transpose_(0, 1);
  SHOW(y.sizes());
  SHOW(y.strides());
  y.unsqueeze_(1).transpose_(0, 2);
  SHOW(y.sizes());
  SHOW(y.strides());
  const torch::Tensor& cy = y;
  cy.squeeze_(1).t_();
  SHOW(y.sizes());
  SHOW(y);
  torch::Tensor v = torch::arange(3);
  v.t_();
  SHOW(v.sizes());

  torch::Tensor r = torch::arange(4, torch::kFloat);
  r.resize_({2});
  SHOW(r);
  SHOW(r.resize_({2, 2}).sizes());
  SHOW(r.strides());
  SHOW(r.flatten().narrow(0, 0, 2));
  r.resize_({3, 5});
  SHOW(r.sizes());
  SHOW(r.strides());
  SHOW(r.flatten().narrow(0, 0, 2));
  r.resize_({0});
  SHOW(r.numel());
  const torch::Tensor& cr = r;
  cr.resize_({1, 2, 1});
  SHOW(r.sizes());
}

}  // namespace

void properties() {
  torch_api::section("properties, conversions, item, accessor, in-place shapes");
  predicates();
  conversions();
  items();
  accessors();
  in_place_shapes();
}
