// Area 3b: picking and placing values as Tensor methods (and their free forms): index_select,
// gather, scatter, scatter_, scatter_add, split, chunk and where.
#include "torch_api.h"

namespace {

const torch::Tensor& data() {
  static const torch::Tensor x = torch::arange(12, torch::kFloat).view({3, 4});
  return x;
}

void index_select_and_gather() {
  const torch::Tensor& x = data();
  const torch::Tensor rows = torch::tensor({2, 0});
  SHOW(x.index_select(0, rows));
  SHOW(x.index_select(1, rows));
  SHOW(x.index_select(-1, torch::tensor({3, 3})));
  SHOW(x.index_select(0, rows.to(torch::kInt)));
  SHOW(torch::index_select(x, 1, torch::tensor({1})));
  SHOW(x.to(torch::kLong).index_select(0, torch::tensor({1})));
  const torch::Tensor picks = torch::tensor({{0, 3}, {1, 1}, {2, 0}});
  SHOW(x.gather(1, picks));
  SHOW(x.gather(0, torch::tensor({{2, 1, 0, 0}})));
  SHOW(x.gather(1, picks, false));
  SHOW(torch::gather(x, -1, picks));
  SHOW(x.to(torch::kInt).gather(1, picks.narrow(1, 0, 1)));
}

void scatters() {
  const torch::Tensor& x = data();
  const torch::Tensor spots = torch::tensor({{0, 3}, {1, 2}, {2, 0}});
  const torch::Tensor src = x.narrow(1, 0, 2);
  SHOW(torch::zeros({3, 4}).scatter(1, spots, src));
  SHOW(torch::zeros({3, 4}).scatter(1, spots, 5));
  SHOW(torch::zeros({3, 4}).scatter(1, spots, 2.5));
  SHOW(torch::zeros({3, 4}, torch::kLong).scatter(0, torch::tensor({{2, 1, 0, 1}}), 9));
  SHOW(torch::scatter(torch::ones({3, 4}), 1, spots, src));
  torch::Tensor z = torch::zeros({3, 4});
  z.scatter_(0, torch::tensor({{2, 1, 0, 1}}), torch::full({1, 4}, 7.f));
  SHOW(z);
  z.scatter_(1, spots, -1.5);
  SHOW(z);
  const torch::Tensor repeats = torch::tensor({{0, 0}, {1, 1}, {3, 0}});
  SHOW(torch::zeros({3, 4}).scatter_add(1, repeats, torch::ones({3, 2})));
  SHOW(torch::zeros({3, 4}).scatter_add(1, repeats, src));
  SHOW(torch::scatter_add(torch::ones({2, 2}), 0, torch::tensor({{1, 1}, {1, 0}}),
                          torch::full({2, 2}, 3.f)));
  torch::Tensor counts = torch::zeros({5}, torch::kLong);
  counts.scatter_add_(0, torch::tensor({4, 1, 4, 4, 0}), torch::ones({5}, torch::kLong));
  SHOW(counts);
}

void split_and_chunk() {
  const torch::Tensor& x = data();
  SHOW(x.split(2));
  SHOW(x.split(2, 1));
  SHOW(x.split(3, 1));
  SHOW(x.split({1, 3}, 1));
  SHOW(x.split_with_sizes({2, 1}));
  SHOW(torch::split(x, 1, 0));
  SHOW(x.chunk(2));
  SHOW(x.chunk(3, 1));
  SHOW(x.chunk(4, 1));
  SHOW(x.chunk(5, 0));
  SHOW(torch::chunk(x, 2, -1));
  torch::Tensor y = x.clone();
  y.split(2, 1)[1].zero_();
  SHOW(y);
  y.chunk(3)[0].fill_(-1);
  SHOW(y);
  SHOW(x.split(2, 1)[1].is_contiguous());
  SHOW(x.chunk(2, 1)[1].storage_offset());
}

void wheres() {
  const torch::Tensor& x = data();
  const torch::Tensor big = x > 5;
  SHOW(x.where(big, torch::zeros({})));
  SHOW(x.where(big, -x));
  SHOW(torch::where(big, x, -x));
  SHOW(torch::where(big, x, 0.5));
  SHOW(torch::where(big, 1.5, x));
  SHOW(torch::where(big, 1, 0));
  SHOW(torch::where(big, x.to(torch::kLong), 2));
  SHOW(torch::where(torch::tensor({true, false}), torch::tensor({1, 2}), torch::tensor({1.5})));
  SHOW(torch::where(x.fmod(5) == 0));
  SHOW(torch::where(torch::tensor({0, 3, 0, 1})));
}

}  // namespace

void selection() {
  torch_api::section("index_select, gather, scatter, split, chunk, where");
  index_select_and_gather();
  scatters();
  split_and_chunk();
  wheres();
}
