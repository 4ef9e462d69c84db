// Area 6: indexing as in Python: torch::indexing::{Slice, None, Ellipsis}, "..." for Ellipsis,
// true/false as indices, several tensor indices broadcast together for index() and index_put_()
// (with accumulate=true through the List form), masks with a number, and operator[].
#include "torch_api.h"

using torch::indexing::Ellipsis;
using torch::indexing::None;
using torch::indexing::Slice;

namespace {

const torch::Tensor& cube() {
  static const torch::Tensor x = torch::arange(24).view({2, 3, 4});
  return x;
}

void basic_indices() {
  const torch::Tensor& x = cube();
  SHOW(x.index({0}));
  SHOW(x.index({-1, 1}));
  SHOW(x.index({1, 2, 3}));
  SHOW(x.index({Slice(), 1}));
  SHOW(x.index({Slice(1, None), Slice(None, 2)}));
  SHOW(x.index({Slice(), Slice(), Slice(None, None, 2)}));
  SHOW(x.index({Slice(None, None, 2), Slice(1, 3, 1), 0}));
  SHOW(x.index({0, Slice(-2, None)}));
  SHOW(x.index({0, Slice(1, 100)}));
  SHOW(x.index({0, Slice(3, 1)}).sizes());
  SHOW(x.index({"...", 0}));
  SHOW(x.index({Ellipsis, Slice(1, 3)}).sizes());
  SHOW(x.index({0, Ellipsis, 1}));
  SHOW(x.index({0, "..."}).sizes());
  SHOW(x.index({None}).sizes());
  SHOW(x.index({Slice(), None, 0}).sizes());
  SHOW(x.index({None, "...", None}).sizes());
  SHOW(x.index({None, "...", 0}).sizes());
  SHOW(x.index({true}).sizes());
  SHOW(x.index({false}).sizes());
  SHOW(x.index({0, true}).sizes());
  SHOW(x.index({Slice(), false, 1}).sizes());
  SHOW(x.index({Slice(), 0}).is_contiguous());
  SHOW(x.index({1, Slice(1, 3)}).storage_offset());
  const std::vector<torch::indexing::TensorIndex> dynamic{0, Slice(1, 3)};
  SHOW(x.index(dynamic));
  SHOW(x[1][0]);
  SHOW(x[-1].sizes());
  SHOW(x[torch::tensor(1)][2]);
  SHOW(x[c10::Scalar(0)].sizes());
}

void tensor_indices() {
  const torch::Tensor& x = cube();
  const torch::Tensor m = torch::arange(12).view({3, 4});
  const torch::Tensor rows = torch::tensor({0, 2, 2});
  const torch::Tensor cols = torch::tensor({1, 3, 0});
  SHOW(m.index({rows}));
  SHOW(m.index({rows, cols}));
  SHOW(m.index({rows.view({3, 1}), cols}));
  SHOW(m.index({rows.view({3, 1}), torch::tensor({0, 3})}));
  SHOW(m.index({Slice(), cols}));
  SHOW(m.index({Slice(1, None), torch::tensor({3, 0})}));
  SHOW(m.index({torch::tensor({-1}), Slice(None, 2)}));
  SHOW(m.index({m > 6}));
  SHOW(m.index({torch::tensor({true, false, true})}));
  SHOW(m.index({torch::tensor({true, false, true}), torch::tensor({1, 2})}));
  SHOW(m.index({Slice(), torch::tensor({false, true, true, false})}));
  SHOW(m.index({torch::tensor(1), cols}));
  SHOW(x.index({torch::tensor({0, 1}), Slice(), torch::tensor({3, 0})}));
  SHOW(x.index({Slice(), torch::tensor({0, 2}), torch::tensor({1, 3})}));
  SHOW(x.index({0, torch::tensor({0, 2}), torch::tensor({1, 3})}));
  SHOW(x.index({torch::tensor({1, 0}), "...", torch::tensor({{0}, {2}})}).sizes());
  SHOW(x.index({"...", torch::tensor({{0, 1}, {1, 0}})}).sizes());
  SHOW(x.index({None, torch::tensor({1}), Slice(), torch::tensor({2})}).sizes());
  SHOW(x.index({x.fmod(5) == 0}));
  SHOW(x.index({torch::tensor({{true, false, true}, {false, false, true}})}));
  const c10::List<c10::optional<torch::Tensor>> list({rows, cols});
  SHOW(m.index(list));
}

void index_puts() {
  torch::Tensor y = torch::zeros({3, 4});
  y.index_put_({1}, 5);
  SHOW(y);
  y.index_put_({Slice(), 0}, torch::tensor({1.f, 2.f, 3.f}));
  SHOW(y);
  y.index_put_({"...", -1}, -1);
  SHOW(y);
  y.index_put_({y > 4}, 0);
  SHOW(y);
  y.index_put_({y < 0}, torch::tensor({7.f, 8.f, 9.f}));
  SHOW(y);
  y.index_put_({torch::tensor({0, 2, 2}), torch::tensor({1, 3, 0})},
               torch::tensor({4.f, 5.f, 6.f}));
  SHOW(y);
  y.index_put_({torch::tensor({0, 1}), torch::tensor({2, 2})}, 1.5);
  SHOW(y);
  y.index_put_({torch::tensor({1, 2}).view({2, 1}), torch::tensor({0, 1})}, torch::zeros({2, 2}));
  SHOW(y);
  y.index_put_({Slice(), torch::tensor({1, 3})}, torch::tensor({-2.f, -3.f}));
  SHOW(y);
  y.index_put_({None, 0, Slice(1, 3)}, 10);
  SHOW(y);
  y.index_put_({torch::tensor({true, false, true}), torch::tensor({0, 1})}, -5);
  SHOW(y);
  SHOW(y.index_put_({0}, 1).is_same(y));
  y.index({Slice(), 3}) = 4;
  SHOW(y);
  y.index({2}) += 1;
  SHOW(y);

  torch::Tensor acc = torch::zeros({3});
  acc.index_put_({torch::tensor({0, 2, 0})}, torch::ones({3}), true);
  SHOW(acc);
  acc.index_put_({torch::tensor({1, 1})}, torch::tensor({2.f, 3.f}), true);
  SHOW(acc);
  acc.index_put_({torch::tensor({2, 2})}, torch::tensor({4.f, 4.f}), false);
  SHOW(acc);
  torch::Tensor grid = torch::zeros({2, 3}, torch::kLong);
  grid.index_put_({torch::tensor({1, 1, 0}), torch::tensor({2, 2, 0})}, torch::tensor({1, 2, 3}),
                  true);
  SHOW(grid);
  grid.index_put_({torch::tensor({0, 1})}, torch::tensor({10, 20, 30}), true);
  SHOW(grid);
  const c10::List<c10::optional<torch::Tensor>> list(
      {torch::tensor({0, 0}), torch::tensor({1, 1})});
  grid.index_put_(list, torch::tensor({5, 6}), true);
  SHOW(grid);
  SHOW(grid.index_put(list, torch::tensor({1, 1}), true));
  SHOW(grid);
}

}  // namespace

void indexing() {
  torch_api::section("indexing");
  basic_indices();
  tensor_indices();
  index_puts();
}
