// Area 4: the operators on masks and integers: & | ^ ~ and &= |= ^= (LibTorch has these for
// tensor operands only), their method and free forms, and the shifts. LibTorch has no << or >>
// on tensors, so the shifts go through __lshift__/__rshift__ and bitwise_left/right_shift.
#include "torch_api.h"

namespace {

void masks() {
  const torch::Tensor x = torch::arange(6);
  const torch::Tensor p = x > 1;
  const torch::Tensor q = x < 4;
  SHOW(p & q);
  SHOW(p | q);
  SHOW(p ^ q);
  SHOW(~p);
  SHOW((x > 1) & (x.fmod(2) == 0));
  SHOW(x.masked_fill(~(p & q), -1));
  SHOW(p & true);
  SHOW(false | q);
  SHOW(p ^ torch::tensor(true));
  torch::Tensor m = p.clone();
  m &= q;
  SHOW(m);
  m |= x.eq(5);
  SHOW(m);
  m ^= torch::ones({6}, torch::kBool);
  SHOW(m);
  SHOW(p.logical_and(q).equal(p & q));
}

void integers() {
  const torch::Tensor a = torch::tensor({12, 10, -3});
  const torch::Tensor b = torch::tensor({10, 6, 5});
  SHOW(a & b);
  SHOW(a | b);
  SHOW(a ^ b);
  SHOW(~a);
  SHOW(a & 6);
  SHOW(3 | a);
  SHOW(a ^ -1);
  SHOW(a.to(torch::kInt) & b.to(torch::kInt));
  SHOW(a & torch::tensor({true, false, true}));
  SHOW(torch::tensor({uint8_t{0xF0}, uint8_t{0x0F}}) ^ torch::tensor({uint8_t{0xFF}, uint8_t{1}}));
  SHOW(~torch::tensor({uint8_t{0xF0}, uint8_t{0}}));
  SHOW(~torch::tensor({int16_t{5}}));
  SHOW(a.bitwise_and(b));
  SHOW(a.bitwise_or(1));
  SHOW(a.bitwise_not());
  SHOW(torch::bitwise_and(a, 7));
  SHOW(torch::bitwise_not(b));
  torch::Tensor c = a.clone();
  c &= b;
  SHOW(c);
  c |= torch::tensor({1, 1, 1});
  SHOW(c);
  c ^= b;
  SHOW(c);
  c.bitwise_and_(torch::tensor({3}));
  SHOW(c);
  c.bitwise_or_(8);
  SHOW(c);
  c.bitwise_xor_(2);
  SHOW(c);
  c.bitwise_not_();
  SHOW(c);
  torch::Tensor row = torch::tensor({{1, 2}, {3, 4}});
  row[1] &= torch::tensor({2, 6});
  SHOW(row);
}

void shifts() {
  const torch::Tensor a = torch::tensor({12, 10, -3});
  SHOW(a.__lshift__(2));
  SHOW(a.__rshift__(1));
  SHOW(a.__lshift__(torch::tensor({1, 2, 3})));
  SHOW(a.bitwise_left_shift(3));
  SHOW(a.bitwise_right_shift(torch::tensor({1, 3, 2})));
  SHOW(torch::bitwise_left_shift(a, torch::tensor({0, 1, 2})));
  SHOW(torch::bitwise_right_shift(a, 2));
  SHOW(a.to(torch::kInt).__lshift__(4));
  SHOW(torch::tensor({uint8_t{200}, uint8_t{3}}).__lshift__(1));
  SHOW(torch::tensor({uint8_t{200}, uint8_t{3}}).__rshift__(1));
  torch::Tensor c = a.clone();
  c.__ilshift__(1);
  SHOW(c);
  c.__irshift__(2);
  SHOW(c);
  c.bitwise_left_shift_(torch::tensor({1, 0, 4}));
  SHOW(c);
  c.bitwise_right_shift_(1);
  SHOW(c);
}

}  // namespace

void bitwise() {
  torch_api::section("bitwise operators");
  masks();
  integers();
  shifts();
}
