// Area 3e: the in-place random fills uniform_, normal_, bernoulli_ and random_. The two
// libraries' random streams differ, so the checks are ranges, dtypes and statistics whose bands
// are at least six standard errors wide, plus what is exact (p = 0 or 1, reseeding).
#include <cmath>

#include "torch_api.h"

namespace {

constexpr int64_t kDraws = 10000;

double sample_mean(const torch::Tensor& t) { return t.to(torch::kDouble).mean().item<double>(); }
double sample_std(const torch::Tensor& t) { return t.to(torch::kDouble).std().item<double>(); }
double low(const torch::Tensor& t) { return t.min().item<double>(); }
double high(const torch::Tensor& t) { return t.max().item<double>(); }
bool near(double value, double target, double band) { return std::abs(value - target) <= band; }

void uniform() {
  const torch::Tensor u = torch::empty({kDraws});
  SHOW(u.uniform_().is_same(u));
  SHOW(low(u) >= 0);
  SHOW(high(u) < 1);
  SHOW(near(sample_mean(u), 0.5, 0.02));
  u.uniform_(-2, 3);
  SHOW(low(u) >= -2);
  SHOW(high(u) <= 3);
  SHOW(near(sample_mean(u), 0.5, 0.1));
  SHOW(near(sample_std(u), 5 / std::sqrt(12.0), 0.05));
  const torch::Tensor d = torch::empty({kDraws}, torch::kDouble).uniform_(10, 11);
  SHOW(d.scalar_type());
  SHOW(low(d) >= 10 && high(d) < 11);
}

void normal() {
  const torch::Tensor n = torch::empty({kDraws});
  n.normal_();
  SHOW(near(sample_mean(n), 0, 0.06));
  SHOW(near(sample_std(n), 1, 0.05));
  n.normal_(5, 0.5);
  SHOW(near(sample_mean(n), 5, 0.03));
  SHOW(near(sample_std(n), 0.5, 0.025));
  SHOW(torch::zeros({3}).normal_(2, 0));
}

void bernoulli() {
  const torch::Tensor b = torch::empty({kDraws});
  b.bernoulli_(0.3);
  SHOW((b.eq(0) | b.eq(1)).all());
  SHOW(near(sample_mean(b), 0.3, 0.03));
  b.bernoulli_();
  SHOW(near(sample_mean(b), 0.5, 0.03));
  const torch::Tensor p = torch::tensor({0.f, 1.f, 1.f, 0.f});
  SHOW(torch::empty({4}).bernoulli_(p));
  SHOW(p.bernoulli());
  SHOW(p.bernoulli(0.0));
  SHOW(p.bernoulli(1.0));
  const torch::Tensor ints = torch::empty({kDraws}, torch::kLong).bernoulli_(0.5);
  SHOW(ints.scalar_type());
  SHOW(low(ints) == 0 && high(ints) == 1);
  SHOW(torch::empty({3}, torch::kBool).bernoulli_(1.0));
}

void random_integers() {
  const torch::Tensor r = torch::empty({kDraws}, torch::kLong);
  r.random_(0, 10);
  SHOW(low(r));
  SHOW(high(r));
  SHOW((torch::arange(10).unsqueeze(1) == r).any(1).all());
  SHOW(near(sample_mean(r), 4.5, 0.2));
  r.random_(5);
  SHOW(low(r));
  SHOW(high(r));
  r.random_(-3, 3);
  SHOW(low(r));
  SHOW(high(r));
  const torch::Tensor f = torch::empty({kDraws}).random_(0, 4);
  SHOW(f.equal(f.floor()));
  SHOW(high(f));
  const torch::Tensor bytes = torch::empty({kDraws}, torch::kByte).random_();
  SHOW(low(bytes) >= 0 && high(bytes) <= 255);
  SHOW(near(sample_mean(bytes), 127.5, 6));
  const torch::Tensor flags = torch::empty({kDraws}, torch::kBool).random_();
  SHOW(near(sample_mean(flags), 0.5, 0.03));
  const torch::Tensor floats = torch::empty({kDraws}).random_();
  SHOW(floats.equal(floats.floor()));
  SHOW(low(floats) >= 0 && high(floats) <= 16777216);
}

void reseeding() {
  torch::manual_seed(7);
  const torch::Tensor a = torch::empty({5}).uniform_();
  const torch::Tensor b = torch::empty({5}).normal_();
  torch::manual_seed(7);
  SHOW(torch::empty({5}).uniform_().equal(a));
  SHOW(torch::empty({5}).normal_().equal(b));
  SHOW(torch::empty({5}).uniform_().equal(a));
}

}  // namespace

void random_fills() {
  torch_api::section("random fills");
  uniform();
  normal();
  bernoulli();
  random_integers();
  reseeding();
}
