// Area 4 (issue 21): LibTorch's autograd beyond Tensor's methods: custom functions
// (torch::autograd::Function and AutogradContext), higher-order gradients (create_graph in
// backward and in torch::autograd::grad, backward's inputs), the grad-mode guards, InferenceMode
// and anomaly detection, and in-place ops on views of tensors in a graph.
#include "torch_api.h"

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::Variable;
using torch::autograd::variable_list;

// LibTorch's documentation example: y = x W^T + b.
struct LinearFunction : public torch::autograd::Function<LinearFunction> {
  static Variable forward(AutogradContext* ctx, Variable input, Variable weight,
                          Variable bias = Variable()) {
    ctx->save_for_backward({input, weight, bias});
    Variable output = input.mm(weight.t());
    if (bias.defined()) output += bias.unsqueeze(0).expand_as(output);
    return output;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    variable_list saved = ctx->get_saved_variables();
    Variable input = saved[0], weight = saved[1], bias = saved[2];
    Variable grad_output = grad_outputs[0];
    Variable grad_input = grad_output.mm(weight);
    Variable grad_weight = grad_output.t().mm(input);
    Variable grad_bias;
    if (bias.defined()) grad_bias = grad_output.sum(0);
    return {grad_input, grad_weight, grad_bias};
  }
};

// A non-tensor argument kept in saved_data; its gradient slot is an undefined tensor.
struct MulConstant : public torch::autograd::Function<MulConstant> {
  static Variable forward(AutogradContext* ctx, Variable x, double constant) {
    ctx->saved_data["constant"] = constant;
    return x * constant;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    return {grad_outputs[0] * ctx->saved_data["constant"].toDouble(), Variable()};
  }
};

// Two outputs, one not differentiable (an argmax); the other's gradient is scaled by what
// needs_input_grad says.
struct MaxWithIndex : public torch::autograd::Function<MaxWithIndex> {
  static variable_list forward(AutogradContext* ctx, Variable x) {
    Variable index = x.argmax();
    Variable value = x.max();
    ctx->mark_non_differentiable({index});
    ctx->save_for_backward({x, index});
    return {value, index};
  }
  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    variable_list saved = ctx->get_saved_variables();
    Variable grad = torch::zeros_like(saved[0]);
    grad.index_put_({saved[1]}, grad_outputs[0]);
    return {ctx->needs_input_grad(0) ? grad : Variable()};
  }
};

// Modifies its input in place and says so.
struct DoubleInPlace : public torch::autograd::Function<DoubleInPlace> {
  static Variable forward(AutogradContext* ctx, Variable x) {
    x.mul_(2);
    ctx->mark_dirty({x});
    return x;
  }
  static variable_list backward(AutogradContext*, variable_list grad_outputs) {
    return {grad_outputs[0] * 2};
  }
};

// With set_materialize_grads(false), an output that got no gradient arrives undefined.
struct SplitTwo : public torch::autograd::Function<SplitTwo> {
  static variable_list forward(AutogradContext* ctx, Variable x) {
    ctx->set_materialize_grads(false);
    return {x * 1, x * 10};
  }
  static variable_list backward(AutogradContext*, variable_list grad_outputs) {
    Variable g = grad_outputs[0].defined() ? grad_outputs[0] : torch::zeros({2});
    if (grad_outputs[1].defined()) g = g + grad_outputs[1] * 10;
    return {g + (grad_outputs[1].defined() ? 0 : 1000)};
  }
};

// Its backward is built from differentiable ops, so a second derivative goes through it.
struct Cube : public torch::autograd::Function<Cube> {
  static Variable forward(AutogradContext* ctx, Variable x) {
    ctx->save_for_backward({x});
    return x * x * x;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    Variable x = ctx->get_saved_variables()[0];
    return {grad_outputs[0] * 3 * x * x};
  }
};

void custom_functions() {
  const torch::Tensor x = torch::tensor({{1.f, 2.f}, {3.f, 4.f}}, torch::requires_grad());
  const torch::Tensor w =
      torch::tensor({{1.f, 0.f}, {-1.f, 2.f}, {0.5f, 1.f}}, torch::requires_grad());
  const torch::Tensor b = torch::tensor({0.f, 1.f, 2.f}, torch::requires_grad());
  const torch::Tensor y = LinearFunction::apply(x, w, b);
  SHOW(y);
  SHOW(y.requires_grad());
  (y * torch::tensor({1.f, 2.f, 3.f})).sum().backward();
  SHOW(x.grad());
  SHOW(w.grad());
  SHOW(b.grad());
  const torch::Tensor x2 = torch::ones({1, 2}, torch::requires_grad());
  LinearFunction::apply(x2, w).sum().backward();
  SHOW(x2.grad());
  SHOW(LinearFunction::apply(torch::ones({1, 2}), torch::ones({1, 2})).requires_grad());

  const torch::Tensor m = torch::tensor({1.f, 2.f}, torch::requires_grad());
  const torch::Tensor scaled = MulConstant::apply(m, 5.5);
  SHOW(scaled);
  scaled.sum().backward();
  SHOW(m.grad());

  const torch::Tensor v = torch::tensor({1.f, 7.f, 3.f}, torch::requires_grad());
  variable_list outs = MaxWithIndex::apply(v);
  SHOW(outs);
  SHOW(outs[0].requires_grad());
  SHOW(outs[1].requires_grad());
  (outs[0] * 4).backward();
  SHOW(v.grad());

  const torch::Tensor leaf = torch::tensor({1.f, -2.f}, torch::requires_grad());
  const torch::Tensor nonleaf = leaf * 1;
  const torch::Tensor doubled = DoubleInPlace::apply(nonleaf);
  SHOW(doubled.is_same(nonleaf));
  SHOW(nonleaf);
  (nonleaf * nonleaf).sum().backward();
  SHOW(leaf.grad());
  SHOW_THROWS("leaf Variable that requires grad", DoubleInPlace::apply(leaf));

  const torch::Tensor s = torch::tensor({1.f, 2.f}, torch::requires_grad());
  SplitTwo::apply(s)[0].sum().backward();
  SHOW(s.grad());

  const torch::Tensor c = torch::tensor({2.f}, torch::requires_grad());
  const torch::Tensor dc = torch::autograd::grad({Cube::apply(c)}, {c}, {}, true, true)[0];
  SHOW(dc);
  SHOW(torch::autograd::grad({dc}, {c})[0]);
}

void higher_order() {
  const torch::Tensor x = torch::tensor({2.f, -1.f}, torch::requires_grad());
  const torch::Tensor y = (x * x * x).sum();
  const variable_list g = torch::autograd::grad({y}, {x}, {}, c10::nullopt, true);
  SHOW(g[0]);
  SHOW(g[0].requires_grad());
  SHOW(torch::autograd::grad({g[0].sum()}, {x})[0]);

  const torch::Tensor t = torch::tensor({0.5f, 1.f}, torch::requires_grad());
  const torch::Tensor z = (t.sin() * t.exp()).sum();
  z.backward({}, true, true);
  SHOW(t.grad());
  SHOW(t.grad().requires_grad());
  const torch::Tensor first = t.grad().clone();
  t.mutable_grad() = torch::Tensor();
  first.sum().backward();
  SHOW(t.grad());

  const torch::Tensor a = torch::tensor({3.f}, torch::requires_grad());
  const torch::Tensor b = torch::tensor({4.f}, torch::requires_grad());
  (a * b * b).backward({}, c10::nullopt, false, torch::TensorList{a});
  SHOW(a.grad());
  SHOW(b.grad());

  const torch::Tensor u = torch::tensor({1.f, 2.f}, torch::requires_grad());
  const torch::Tensor v = torch::tensor({3.f}, torch::requires_grad());
  SHOW(torch::autograd::grad({(u * 2).sum()}, {u, v}, {}, c10::nullopt, false, true));
  SHOW_THROWS("appears to not have been used",
              torch::autograd::grad({(u * 2).sum()}, {v}, {}, true, false, false));
  const torch::Tensor w = u * u;
  SHOW(torch::autograd::grad({w}, {u}, {torch::tensor({1.f, 0.5f})}, true)[0]);
  SHOW(torch::autograd::grad({w.sigmoid().sum(), w.sum()}, {u}, {}, true, false)[0]);
}

void grad_modes() {
  SHOW(torch::GradMode::is_enabled());
  const torch::Tensor x = torch::ones({2}, torch::requires_grad());
  {
    torch::NoGradGuard no_grad;
    SHOW(torch::GradMode::is_enabled());
    SHOW((x * 2).requires_grad());
    {
      torch::AutoGradMode enable(true);
      SHOW((x * 2).requires_grad());
    }
    SHOW(torch::GradMode::is_enabled());
  }
  {
    torch::AutoGradMode off(false);
    SHOW((x * 2).requires_grad());
    torch::GradMode::set_enabled(true);
    SHOW((x * 2).requires_grad());
  }
  SHOW(torch::GradMode::is_enabled());

  // A backward formula saves only what it reads: relu its result, so its input may change.
  const torch::Tensor leaf = torch::tensor({-1.f, 2.f}, torch::requires_grad());
  const torch::Tensor h = leaf * 1;
  const torch::Tensor r = h.relu();
  h.add_(1);
  r.sum().backward();
  SHOW(leaf.grad());
  const torch::Tensor h2 = leaf * 1;
  const torch::Tensor s = h2.sin();
  h2.add_(1);
  SHOW_THROWS("modified by an inplace operation", s.sum().backward());
}

// In-place ops on views of tensors in a graph: the base's history becomes CopySlices.
void inplace_on_views() {
  using torch::indexing::Slice;
  const torch::Tensor x = torch::tensor({{1.f, 2.f}, {3.f, 4.f}}, torch::requires_grad());
  const torch::Tensor a = x * 1;
  a.index({Slice(), 0}).mul_(2);
  SHOW(a);
  SHOW(a.grad_fn()->name() == "CopySlices" || a.grad_fn()->name() == "torch::autograd::CopySlices");
  (a * a).sum().backward();
  SHOW(x.grad());

  const torch::Tensor y = torch::tensor({10.f, 20.f}, torch::requires_grad());
  const torch::Tensor b = x * 2;
  b[1].add_(y);
  (b * torch::tensor({{1.f, 2.f}, {3.f, 4.f}})).sum().backward();
  SHOW(y.grad());

  // A buffer filled row by row from computed values.
  const torch::Tensor w = torch::tensor({0.5f, -1.f}, torch::requires_grad());
  const torch::Tensor out = torch::zeros({3, 2});
  out[0].copy_(w * 3);
  out[1] = w.exp();
  out[2].fill_(7);
  SHOW(out.requires_grad());
  (out * out).sum().backward();
  SHOW(w.grad());

  const torch::Tensor leaf = torch::ones({2, 2}, torch::requires_grad());
  SHOW_THROWS("a view of a leaf Variable that requires grad", leaf[0].mul_(2));

  const torch::Tensor base = torch::ones({2, 3});
  const torch::Tensor row = base[1];
  SHOW(row.is_view());
  SHOW(row._base().is_same(base));
  SHOW(base.t()[0]._base().is_same(base));
  SHOW(base.is_view());
  SHOW(row._version());
  base.add_(1);
  row.mul_(2);
  SHOW(row._version());
  SHOW(base._version());
  SHOW_THROWS("Can't get base of non-view", base._base());
}

void inference_and_anomaly() {
  const torch::Tensor x = torch::ones({2}, torch::requires_grad());
  torch::Tensor made_inside;
  {
    c10::InferenceMode guard;
    SHOW(c10::InferenceMode::is_enabled());
    SHOW(torch::GradMode::is_enabled());
    made_inside = torch::ones({2}) * 3;
    SHOW(made_inside.is_inference());
    SHOW(made_inside.view({2, 1}).is_inference());
    SHOW((x * 2).requires_grad());
    made_inside.add_(1);
    SHOW(made_inside);
  }
  SHOW(c10::InferenceMode::is_enabled());
  SHOW(made_inside.is_inference());
  SHOW(torch::ones({2}).is_inference());
  SHOW((x + made_inside).requires_grad());
  SHOW_THROWS("Inference tensors cannot be saved for backward", x * made_inside);
  SHOW_THROWS("Inplace update to inference tensor outside InferenceMode", made_inside.add_(1));
  SHOW_THROWS("Setting requires_grad=True on inference tensor outside InferenceMode",
              made_inside.requires_grad_());
  SHOW((x * made_inside.clone()).requires_grad());

  SHOW(torch::autograd::AnomalyMode::is_enabled());
  {
    torch::autograd::DetectAnomalyGuard detect;
    SHOW(torch::autograd::AnomalyMode::is_enabled());
    const torch::Tensor a = torch::tensor({-1.f, 4.f}, torch::requires_grad());
    SHOW_THROWS("Function 'SqrtBackward0' returned nan values in its 0th output",
                a.sqrt().sum().backward());
    const torch::Tensor b = torch::tensor({1.f, 4.f}, torch::requires_grad());
    b.sqrt().sum().backward();
    SHOW(b.grad());
  }
  SHOW(torch::autograd::AnomalyMode::is_enabled());
}

}  // namespace

void autograd_functions() {
  torch_api::section("autograd functions");
  custom_functions();
  higher_order();
  grad_modes();
  inplace_on_views();
  inference_and_anomaly();
}
