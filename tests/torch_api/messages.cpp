// Area 8: errors keep PyTorch's key phrases. Each check runs one failing statement and looks for
// the phrase in what(): the rest of the text (LibTorch's backtrace, ember's op name and advice)
// is free to differ.
#include "torch_api.h"

using torch::indexing::Slice;

namespace {

void shapes_and_indices() {
  const torch::Tensor a = torch::ones({2, 3});
  SHOW_THROWS("mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)", a.mm(a));
  SHOW_THROWS("mat1 and mat2 shapes cannot be multiplied", a.matmul(torch::ones({2, 3})));
  SHOW_THROWS("index 5 is out of bounds for dimension 0 with size 2",
              a.index({torch::tensor({5})}));
  SHOW_THROWS("index 5 is out of bounds for dimension 0 with size 2",
              torch::ones({2, 3}).index_put_({torch::tensor({5})}, 1));
  SHOW_THROWS("index -3 is out of bounds for dimension 0 with size 2",
              a.index({torch::tensor({-3}), 0}));
  SHOW_THROWS("index 5 out of range for tensor of size [2, 3] at dimension 0", a[5]);
  SHOW_THROWS("index 7 out of range for tensor of size [2, 3] at dimension 1", a.select(1, 7));
  SHOW_THROWS("too many indices for tensor of dimension 2", a.index({0, 0, 0}));
  SHOW_THROWS("invalid index of a 0-dim tensor", torch::tensor(5).index({0}));
  SHOW_THROWS("select() cannot be applied to a 0-dim tensor", torch::tensor(5)[0]);
  SHOW_THROWS("shape mismatch: indexing tensors could not be broadcast together",
              a.index({torch::tensor({0, 1}), torch::tensor({0, 1, 2})}));
  SHOW_THROWS(
      "The shape of the mask [3] at index 0 does not match the shape of the indexed "
      "tensor [2, 3] at index 0",
      a.index({torch::tensor({true, false, true})}));
  SHOW_THROWS("tensors used as indices must be long", a.index({torch::tensor({0.f})}));
  SHOW_THROWS("slice step cannot be zero", a.index({Slice(0, 2, 0)}));
  SHOW_THROWS("index 4 is out of bounds for dimension 1 with size 3",
              a.gather(1, torch::tensor({{4}})));
  SHOW_THROWS(
      "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
      "dimension 0",
      torch::ones({2}) + torch::ones({3}));
  SHOW_THROWS("shape '[4]' is invalid for input of size 6", a.view({4}));
  SHOW_THROWS("Use .reshape(...) instead", a.t().view({6}));
  SHOW_THROWS("must match the existing size (2) at non-singleton dimension 0",
              torch::ones({2}).expand({3}));
  SHOW_THROWS("Dimension out of range (expected to be in range of [-2, 1], but got 2)", a.sum(2));
  SHOW_THROWS("Tensors must have same number of dimensions: got 2 and 1",
              torch::cat({a, torch::ones({3})}));
  SHOW_THROWS("TensorAccessor expected 3 dims but tensor has 2", a.accessor<float, 3>());
  SHOW_THROWS("Invalid device string: 'cuda:01'", torch::Device("cuda:01"));
}

void values_and_types() {
  SHOW_THROWS("a Tensor with 2 elements cannot be converted to Scalar", torch::ones({2}).item());
  SHOW_THROWS("a Tensor with 0 elements cannot be converted to Scalar", torch::ones({0}).item());
  SHOW_THROWS("value cannot be converted to type int without overflow",
              torch::tensor(1e10).item<int>());
  SHOW_THROWS("value cannot be converted to type float without overflow",
              torch::tensor(1e300, torch::kDouble).item().toFloat());
  SHOW_THROWS("expected scalar type Long but found Float", torch::ones({1}).data_ptr<int64_t>());
  SHOW_THROWS("result type Float can't be cast to the desired output type Long",
              torch::tensor({1, 2}).exp_());
  SHOW_THROWS("result type Float can't be cast to the desired output type Long",
              torch::tensor({1, 2}).add_(0.5));
  SHOW_THROWS("Float did not match Double",
              torch::ones({1}).allclose(torch::ones({1}, torch::kDouble)));
  SHOW_THROWS("not implemented for 'Float'", torch::ones({2}) & torch::ones({2}));
  SHOW_THROWS("with two bool tensors is not supported",
              torch::tensor({true}) - torch::tensor({false}));
  SHOW_THROWS("Only Tensors of floating point and complex dtype can require gradients",
              torch::ones({2}, torch::kLong).requires_grad_());
  SHOW_THROWS("step must be nonzero", torch::arange(0, 5, 0));
  SHOW_THROWS("normal expects std >= 0.0", torch::empty({2}).normal_(0, -1));
  SHOW_THROWS("expects p to be in [0, 1]", torch::empty({2}).bernoulli_(1.5));
  SHOW_THROWS("expects to return a [from, to) range", torch::empty({2}).uniform_(2, 1));
  SHOW_THROWS("random_ expects 'from' to be less than 'to'", torch::empty({2}).random_(5, 5));
}

void autograd() {
  const torch::Tensor w = torch::ones({2}, torch::requires_grad());
  SHOW_THROWS("a leaf Variable that requires grad is being used in an in-place operation",
              w.add_(1));
  SHOW_THROWS("cannot resize variables that require grad", w.resize_({3}));
  SHOW_THROWS("grad can be implicitly created only for scalar outputs", (w * 2).backward());
  SHOW_THROWS("element 0 of tensors does not require grad and does not have a grad_fn",
              torch::ones({1}).sum().backward());
  const torch::Tensor e = w.exp();
  e.add_(1);
  SHOW_THROWS("is at version 1; expected version 0 instead", e.sum().backward());
}

}  // namespace

void messages() {
  torch_api::section("messages");
  shapes_and_indices();
  values_and_types();
  autograd();
}
