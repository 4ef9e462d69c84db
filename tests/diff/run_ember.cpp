// Interprets an op program with ember: builds the inputs (base tensors and their views), calls
// the op through ember's public API, runs backward and reads everything back.
#include <ember/ember.h>
#include <ember/nn/functional.h>

#include <stdexcept>
#include <type_traits>

#include "outcome.h"

namespace difftest {
namespace {

using ember::Scalar;
using ember::Tensor;
using Tensors = std::vector<Tensor>;

static_assert(static_cast<int>(ember::kBool) == static_cast<int>(DType::Bool) &&
                  static_cast<int>(ember::kFloat16) == static_cast<int>(DType::Float16) &&
                  static_cast<int>(ember::kFloat64) == static_cast<int>(DType::Float64) &&
                  ember::kNumScalarTypes == kNumDTypes,
              "difftest::DType mirrors ember::ScalarType");
ember::ScalarType to_ember(DType t) { return static_cast<ember::ScalarType>(t); }
DType from_ember(ember::ScalarType t) { return static_cast<DType>(t); }

Scalar scalar(ScalarArg s) {
  switch (s.kind) {
    case ScalarArg::Kind::Bool: return Scalar(s.value != 0);
    case ScalarArg::Kind::Int: return Scalar(static_cast<int64_t>(s.value));
    case ScalarArg::Kind::Float: return Scalar(s.value);
  }
  throw std::logic_error("difftest: bad scalar kind");
}

// The arguments of one program, as ember's types.
struct Args : ArgReader {
  const Tensors& x;

  const Tensor& tensor(const char* name) const { return x[get<TensorRef>(p, name).index]; }
  Tensor optional_tensor(const char* name) const { return given(name) ? tensor(name) : Tensor(); }
  Tensors tensors(const char* name) const {
    Tensors list;
    for (int i : get<TensorListRef>(p, name).indices) list.push_back(x[i]);
    return list;
  }
  Scalar number(const char* name) const { return scalar(get<ScalarArg>(p, name)); }
  Scalar number_or_one(const char* name) const { return has(name) ? number(name) : 1; }
  std::optional<Scalar> optional_number(const char* name) const {
    return given(name) ? std::optional<Scalar>(number(name)) : std::nullopt;
  }
  std::optional<ember::ScalarType> optional_dtype(const char* name) const {
    return given(name) ? std::optional<ember::ScalarType>(to_ember(get<DType>(p, name)))
                       : std::nullopt;
  }
};

// self op other, where other may be a number: f(tensor, tensor) or f(tensor, Scalar).
template <class F>
Tensor with_other(const Args& a, F f) {
  if (a.is_scalar("other")) return f(a.tensor("self"), a.number("other"));
  return f(a.tensor("self"), a.tensor("other"));
}

// A number on the left, through the C++ operators: LibTorch fills the number into a tensor of
// the right operand's dtype for - and /, where Python's 2 - x promotes.
Tensor reversed(OpKind op, Scalar a, const Tensor& b) {
  switch (op) {
    case OpKind::Add: return a + b;
    case OpKind::Sub: return a - b;
    case OpKind::Mul: return a * b;
    case OpKind::Div: return a / b;
    case OpKind::Pow: return ember::pow(a, b);
    default: throw std::logic_error("difftest: no reversed form");
  }
}

Tensor binary(OpKind op, const Args& a) {
  if (a.is_scalar("self")) return reversed(op, a.number("self"), a.tensor("other"));
  const Scalar alpha = a.number_or_one("alpha");
  const bool method = a.flag_or_false("method");
  auto call = [&](const auto& self, const auto& other) -> Tensor {
    switch (op) {
      case OpKind::Add: return method ? self.add(other, alpha) : ember::add(self, other, alpha);
      case OpKind::Sub:
        return method ? self.sub(other, alpha) : ember::sub(self, other, alpha);
#define DIFFTEST_BINARY_CASE(e, name) \
  case OpKind::e:                     \
    return method ? self.name(other) : ember::name(self, other);
        DIFFTEST_BINARY_CALLS(DIFFTEST_BINARY_CASE)
      default: break;
    }
    if constexpr (std::is_same_v<std::decay_t<decltype(other)>, Tensor>) {
      switch (op) {
        DIFFTEST_BINARY_TENSOR_CALLS(DIFFTEST_BINARY_CASE)
#undef DIFFTEST_BINARY_CASE
        default: break;
      }
    }
    throw std::logic_error("difftest: not a binary op");
  };
  return with_other(a, call);
}

// add_, sub_, mul_, div_ on self itself (a view of its input), and add_out / mul_out into out.
Tensor in_place(OpKind op, const Args& a) {
  Tensor self = a.tensor("self");
  Scalar alpha = a.number_or_one("alpha");
  switch (op) {
    case OpKind::AddInplace:
      return a.is_scalar("other") ? self.add_(a.number("other"))
                                  : self.add_(a.tensor("other"), alpha);
    case OpKind::SubInplace:
      return a.is_scalar("other") ? self.sub_(a.number("other"))
                                  : self.sub_(a.tensor("other"), alpha);
    case OpKind::MulInplace:
      return a.is_scalar("other") ? self.mul_(a.number("other")) : self.mul_(a.tensor("other"));
    case OpKind::DivInplace:
      return a.is_scalar("other") ? self.div_(a.number("other")) : self.div_(a.tensor("other"));
    case OpKind::AddOut: {
      Tensor out = a.tensor("out");
      return ember::add_out(out, self, a.tensor("other"), alpha);
    }
    case OpKind::MulOut: {
      Tensor out = a.tensor("out");
      return ember::mul_out(out, self, a.tensor("other"));
    }
    case OpKind::ClampInplace:
      return self.clamp_(a.optional_number("min"), a.optional_number("max"));
    case OpKind::MaskedFillInplace: return self.masked_fill_(a.tensor("mask"), a.number("value"));
    default: throw std::logic_error("difftest: not an in-place op");
  }
}

Tensor unary(OpKind op, const Tensor& x, bool method) {
  switch (op) {
#define DIFFTEST_UNARY_CASE(e, name) \
  case OpKind::e: return method ? x.name() : ember::name(x);
    DIFFTEST_UNARY_CALLS(DIFFTEST_UNARY_CASE)
#undef DIFFTEST_UNARY_CASE
#define DIFFTEST_UNARY_FUNCTION_CASE(e, name) \
  case OpKind::e: return ember::name(x);
    DIFFTEST_UNARY_FUNCTION_CALLS(DIFFTEST_UNARY_FUNCTION_CASE)
#undef DIFFTEST_UNARY_FUNCTION_CASE
    default: throw std::logic_error("difftest: not a unary op");
  }
}

// clamp, where and masked_fill: each element chosen from the input or another value.
Tensor select(OpKind op, const Args& a) {
  switch (op) {
    case OpKind::Clamp:
      return ember::clamp(a.tensor("self"), a.optional_number("min"), a.optional_number("max"));
    case OpKind::Where: {
      const Tensor& c = a.tensor("condition");
      if (a.is_scalar("self")) return ember::where(c, a.number("self"), a.tensor("other"));
      if (a.is_scalar("other")) return ember::where(c, a.tensor("self"), a.number("other"));
      return ember::where(c, a.tensor("self"), a.tensor("other"));
    }
    case OpKind::MaskedFill:
      return ember::masked_fill(a.tensor("self"), a.tensor("mask"), a.number("value"));
    default: throw std::logic_error("difftest: not a selection op");
  }
}

Tensors pair(std::tuple<Tensor, Tensor> t) { return {std::get<0>(t), std::get<1>(t)}; }

// Reductions, cumsum and softmax; "dim" left out means every dim.
Tensors reduction(OpKind op, const Args& a) {
  const Tensor& x = a.tensor("self");
  const bool has_dim = a.has("dim");
  const bool keepdim = a.flag_or_false("keepdim");
  auto dims = [&] { return has_dim ? a.ints("dim") : std::vector<int64_t>{}; };
  switch (op) {
    case OpKind::Sum:
      if (!has_dim) return {ember::sum(x, a.optional_dtype("dtype"))};
      return {ember::sum(x, dims(), keepdim, a.optional_dtype("dtype"))};
    case OpKind::Mean: return {has_dim ? ember::mean(x, dims(), keepdim) : ember::mean(x)};
    case OpKind::Prod:
      if (!has_dim) return {ember::prod(x, a.optional_dtype("dtype"))};
      return {ember::prod(x, a.integer("dim"), keepdim, a.optional_dtype("dtype"))};
    case OpKind::Amax: return {ember::amax(x, dims(), keepdim)};
    case OpKind::Amin: return {ember::amin(x, dims(), keepdim)};
    case OpKind::Max:
      return has_dim ? pair(ember::max(x, a.integer("dim"), keepdim)) : Tensors{ember::max(x)};
    case OpKind::Min:
      return has_dim ? pair(ember::min(x, a.integer("dim"), keepdim)) : Tensors{ember::min(x)};
    case OpKind::Argmax: return {ember::argmax(x, a.optional_integer("dim"), keepdim)};
    case OpKind::Argmin: return {ember::argmin(x, a.optional_integer("dim"), keepdim)};
    case OpKind::Var: return {ember::var(x, dims(), Scalar(a.integer("correction")), keepdim)};
    case OpKind::Std: return {ember::std(x, dims(), Scalar(a.integer("correction")), keepdim)};
    case OpKind::Norm: return {ember::norm(x, a.number("p").toDouble(), dims(), keepdim)};
    case OpKind::All: return {has_dim ? ember::all(x, a.integer("dim"), keepdim) : ember::all(x)};
    case OpKind::Any: return {has_dim ? ember::any(x, a.integer("dim"), keepdim) : ember::any(x)};
    case OpKind::Logsumexp: return {ember::logsumexp(x, dims(), keepdim)};
    case OpKind::Cumsum: return {ember::cumsum(x, a.integer("dim"), a.optional_dtype("dtype"))};
    case OpKind::Cumprod: return {ember::cumprod(x, a.integer("dim"), a.optional_dtype("dtype"))};
    case OpKind::Softmax: return {ember::softmax(x, a.integer("dim"), a.optional_dtype("dtype"))};
    case OpKind::LogSoftmax:
      return {ember::log_softmax(x, a.integer("dim"), a.optional_dtype("dtype"))};
    default: throw std::logic_error("difftest: not a reduction");
  }
}

Tensor linalg(OpKind op, const Args& a) {
  switch (op) {
    case OpKind::Matmul: return ember::matmul(a.tensor("self"), a.tensor("other"));
    case OpKind::Mm: return ember::mm(a.tensor("self"), a.tensor("mat2"));
    case OpKind::Bmm: return ember::bmm(a.tensor("self"), a.tensor("mat2"));
    case OpKind::Mv: return ember::mv(a.tensor("self"), a.tensor("vec"));
    case OpKind::Dot: return ember::dot(a.tensor("self"), a.tensor("tensor"));
    case OpKind::Addmm:
      return ember::addmm(a.tensor("self"), a.tensor("mat1"), a.tensor("mat2"), a.number("beta"),
                          a.number("alpha"));
    case OpKind::Linear:
      return ember::linear(a.tensor("input"), a.tensor("weight"),
                           a.is_none("bias") ? Tensor() : a.tensor("bias"));
    default: throw std::logic_error("difftest: not a matrix product");
  }
}

// Joining, splitting, indexing and sorting.
Tensors shape_op(OpKind op, const Args& a) {
  switch (op) {
    case OpKind::Cat: return {ember::cat(a.tensors("tensors"), a.integer("dim"))};
    case OpKind::Stack: return {ember::stack(a.tensors("tensors"), a.integer("dim"))};
    case OpKind::Split:
      if (holds<IntList>(a.p, "split_size"))
        return ember::split(a.tensor("self"), a.ints("split_size"), a.integer("dim"));
      return ember::split(a.tensor("self"), a.integer("split_size"), a.integer("dim"));
    case OpKind::Chunk:
      return ember::chunk(a.tensor("self"), a.integer("chunks"), a.integer("dim"));
    case OpKind::IndexSelect:
      return {ember::index_select(a.tensor("self"), a.integer("dim"), a.tensor("index"))};
    case OpKind::Gather:
      return {ember::gather(a.tensor("self"), a.integer("dim"), a.tensor("index"))};
    case OpKind::Scatter:
      if (a.is_scalar("value"))
        return {ember::scatter(a.tensor("self"), a.integer("dim"), a.tensor("index"),
                               a.number("value"))};
      return {
          ember::scatter(a.tensor("self"), a.integer("dim"), a.tensor("index"), a.tensor("src"))};
    case OpKind::ScatterAdd:
      return {ember::scatter_add(a.tensor("self"), a.integer("dim"), a.tensor("index"),
                                 a.tensor("src"))};
    case OpKind::OneHot: return {ember::one_hot(a.tensor("self"), a.integer("num_classes"))};
    case OpKind::Sort:
      return pair(ember::sort(a.tensor("self"), a.integer("dim"), a.flag("descending")));
    case OpKind::Argsort:
      return {ember::argsort(a.tensor("self"), a.integer("dim"), a.flag("descending"))};
    case OpKind::Topk: {
      auto [values, indices] = ember::topk(a.tensor("self"), a.integer("k"), a.integer("dim"),
                                           a.flag("largest"), a.flag("sorted"));
      if (a.flag("sorted")) return {values, indices};
      // sorted=False leaves the order to the library: compare both in ascending order.
      auto [ordered, order] = ember::sort(values, a.integer("dim"), /*descending=*/false);
      return {ordered, ember::gather(indices, a.integer("dim"), order)};
    }
    case OpKind::Flip: return {ember::flip(a.tensor("self"), a.ints("dims"))};
    case OpKind::Repeat: return {a.tensor("self").repeat(a.ints("repeats"))};
    case OpKind::Tril: return {ember::tril(a.tensor("self"), a.integer("diagonal"))};
    case OpKind::Triu: return {ember::triu(a.tensor("self"), a.integer("diagonal"))};
    case OpKind::Nonzero: return {ember::nonzero(a.tensor("self"))};
    case OpKind::MaskedSelect: return {ember::masked_select(a.tensor("self"), a.tensor("mask"))};
    default: throw std::logic_error("difftest: not a shape op");
  }
}

ember::indexing::TensorIndex index_item(const IndexItem& i, const Args& a) {
  switch (i.kind) {
    case IndexItem::Kind::Tensor: return a.x[static_cast<size_t>(i.tensor)];
    case IndexItem::Kind::Integer: return i.integer;
    case IndexItem::Kind::NewAxis: return ember::indexing::None;
    case IndexItem::Kind::Ellipsis: return ember::indexing::Ellipsis;
    case IndexItem::Kind::Slice:
      return ember::indexing::Slice(i.has_start ? std::optional<int64_t>(i.start) : std::nullopt,
                                    i.has_stop ? std::optional<int64_t>(i.stop) : std::nullopt,
                                    i.step);
  }
  throw std::logic_error("difftest: bad index item");
}

Tensor index(const Tensor& x, const Args& a) {
  std::vector<ember::indexing::TensorIndex> list;
  for (const IndexItem& item : get<IndexList>(a.p, "indices").items)
    list.push_back(index_item(item, a));
  return x.index(list);
}

Tensor view_op(OpKind op, const Args& a) {
  const Tensor& x = a.tensor("self");
  switch (op) {
    case OpKind::View: return x.view(a.ints("size"));
    case OpKind::Reshape: return x.reshape(a.ints("shape"));
    case OpKind::Flatten: return x.flatten(a.integer("start_dim"), a.integer("end_dim"));
    case OpKind::Transpose: return x.transpose(a.integer("dim0"), a.integer("dim1"));
    case OpKind::T: return x.t();
    case OpKind::Permute: return x.permute(a.ints("dims"));
    case OpKind::Squeeze: return a.has("dim") ? x.squeeze(a.integer("dim")) : x.squeeze();
    case OpKind::Unsqueeze: return x.unsqueeze(a.integer("dim"));
    case OpKind::Expand: return x.expand(a.ints("size"));
    case OpKind::Narrow: return x.narrow(a.integer("dim"), a.integer("start"), a.integer("length"));
    case OpKind::Select: return x.select(a.integer("dim"), a.integer("index"));
    case OpKind::Slice:
      return x.slice(a.integer("dim"), a.optional_integer("start"), a.optional_integer("end"),
                     a.integer("step"));
    case OpKind::Index: return index(x, a);
    case OpKind::To: return x.to(to_ember(get<DType>(a.p, "dtype")));
    case OpKind::Contiguous: return x.contiguous();
    case OpKind::Clone: return x.clone();
    default: throw std::logic_error("difftest: not a view op");
  }
}

// The activations as torch.nn.functional's forms with their *FuncOptions.
Tensor activation(OpKind op, const Args& a) {
  namespace F = ember::nn::functional;
  const Tensor& x = a.tensor("input");
  auto real = [&](const char* name) { return a.number(name).toDouble(); };
#include "activation_calls.inc"
}

// The normalisation, distance and pixel-shuffle ops as torch.nn.functional's forms with their
// *FuncOptions; the activations after them.
Tensors norm_distance(OpKind op, const Args& a) {
  namespace F = ember::nn::functional;
  const Tensor& x = a.tensor("input");
  auto real = [&](const char* name) { return a.number(name).toDouble(); };
  auto optional = [&](const char* name) { return a.optional_tensor(name); };
#include "norm_distance_calls.inc"
}

// A loss's options with PyTorch's reduction number: 0 none, 1 mean, 2 sum (kl_div: batchmean
// for 1).
template <class Options>
Options reduced(Options options, int64_t reduction) {
  if (reduction == 0) return options.reduction(ember::kNone);
  if (reduction == 1) return options.reduction(ember::kMean);
  return options.reduction(ember::kSum);
}
template <class Options>
Options kl_reduced(Options options, int64_t reduction) {
  return reduction == 1 ? options.reduction(ember::kBatchMean) : reduced(options, reduction);
}

// The losses of loss_calls.inc, as torch.nn.functional's forms; the normalisations after them.
Tensors loss_op(OpKind op, const Args& a) {
  namespace F = ember::nn::functional;
  const Tensor& x = a.tensor("input");
  auto real = [&](const char* name) { return a.number(name).toDouble(); };
  auto optional = [&](const char* name) { return a.optional_tensor(name); };
#include "loss_calls.inc"
}

// The layers of layer_calls.inc: F::pad, bilinear, fold/unfold, conv1d, the 1-d and adaptive
// pools, the RNN cells; the losses after them.
Tensors layer_op(OpKind op, const Args& a) {
  namespace F = ember::nn::functional;
  namespace A = ember;
  const Tensor& x = a.tensor("input");
  auto optional = [&](const char* name) { return a.optional_tensor(name); };
  auto pad_mode = [](int64_t mode) -> F::PadFuncOptions::mode_t {
    switch (mode) {
      case 0: return ember::kConstant;
      case 1: return ember::kReflect;
      case 2: return ember::kReplicate;
      default: return ember::kCircular;
    }
  };
  auto interpolate_mode = [](int64_t mode) -> F::InterpolateFuncOptions::mode_t {
    switch (mode) {
      case 0: return ember::kNearest;
      case 1: return ember::kLinear;
      case 2: return ember::kBilinear;
      case 3: return ember::kBicubic;
      case 4: return ember::kTrilinear;
      case 5: return ember::kArea;
      default: return ember::kNearestExact;
    }
  };
  auto sample_mode = [](int64_t mode) -> F::GridSampleFuncOptions::mode_t {
    if (mode == 0) return ember::kBilinear;
    return ember::kNearest;
  };
  auto sample_padding = [](int64_t mode) -> F::GridSampleFuncOptions::padding_mode_t {
    if (mode == 0) return ember::kZeros;
    if (mode == 1) return ember::kBorder;
    return ember::kReflection;
  };
#include "layer_calls.inc"
}

// The neural-network ops and the losses; batch_norm also returns its running statistics, which
// it updates in place. The losses take PyTorch's reduction numbers: 0 none, 1 mean, 2 sum.
Tensors nn_op(OpKind op, const Args& a) {
  const Tensor& input = a.tensor("input");
  switch (op) {
    case OpKind::Conv2d:
      return {ember::conv2d(input, a.tensor("weight"), a.optional_tensor("bias"), a.ints("stride"),
                            a.ints("padding"), a.ints("dilation"), a.integer("groups"))};
    case OpKind::MaxPool2d:
      return {ember::max_pool2d(input, a.ints("kernel_size"), a.ints("stride"), a.ints("padding"),
                                a.ints("dilation"), a.flag("ceil_mode"))};
    case OpKind::AvgPool2d:
      return {ember::avg_pool2d(input, a.ints("kernel_size"), a.ints("stride"), a.ints("padding"))};
    case OpKind::LayerNorm:
      return {ember::layer_norm(input, a.ints("normalized_shape"), a.optional_tensor("weight"),
                                a.optional_tensor("bias"))};
    case OpKind::BatchNorm: {
      Tensor mean = a.optional_tensor("running_mean"), var = a.optional_tensor("running_var");
      Tensor out = ember::batch_norm(input, a.optional_tensor("weight"), a.optional_tensor("bias"),
                                     mean, var, a.flag("training"));
      return mean.defined() ? Tensors{out, mean, var} : Tensors{out};
    }
    case OpKind::Embedding:
      return {ember::embedding(a.tensor("weight"), input, a.optional_integer("padding_idx"))};
    case OpKind::MseLoss:
      return {ember::mse_loss(input, a.tensor("target"), a.integer("reduction"))};
    case OpKind::NllLoss:
      return {ember::nll_loss(input, a.tensor("target"), a.optional_tensor("weight"),
                              a.integer("reduction"), a.integer("ignore_index"))};
    case OpKind::CrossEntropy:
      return {ember::cross_entropy_loss(input, a.tensor("target"), a.optional_tensor("weight"),
                                        a.integer("reduction"), a.integer("ignore_index"),
                                        a.number("label_smoothing").toDouble())};
    case OpKind::BceWithLogits:
      return {ember::binary_cross_entropy_with_logits(
          input, a.tensor("target"), a.optional_tensor("weight"), a.optional_tensor("pos_weight"),
          a.integer("reduction"))};
    default: return layer_op(op, a);
  }
}

Tensors run_op(const Args& a) {
  const OpKind op = a.p.op;
  switch (op_group(op)) {
    case Group::Binary: return {binary(op, a)};
    case Group::InPlace: return {in_place(op, a)};
    case Group::Unary: return {unary(op, a.tensor("self"), a.flag_or_false("method"))};
    case Group::Select: return {select(op, a)};
    case Group::Reduction: return reduction(op, a);
    case Group::Linalg: return {linalg(op, a)};
    case Group::Shape: return shape_op(op, a);
    case Group::View: return {view_op(op, a)};
    case Group::NN: return nn_op(op, a);
  }
  throw std::logic_error("difftest: bad op group");
}

Tensor base_tensor(const Input& in) {
  // from_blob only borrows the values; to(..., copy=true) gives the tensor its own memory.
  Tensor values =
      ember::from_blob(const_cast<double*>(in.values.data()), in.base_shape, ember::kFloat64);
  Tensor base = values.to(to_ember(in.dtype), /*non_blocking=*/false, /*copy=*/true);
  if (in.requires_grad) base.requires_grad_();
  return base;
}

Tensor apply_views(Tensor t, const std::vector<ViewStep>& views) {
  for (const ViewStep& v : views) {
    const std::vector<int64_t>& s = v.args;
    switch (v.kind) {
      case ViewStep::Kind::Transpose: t = t.transpose(s[0], s[1]); break;
      case ViewStep::Kind::Permute: t = t.permute(s); break;
      case ViewStep::Kind::Slice: t = t.slice(s[0], s[1], s[2], s[3]); break;
      case ViewStep::Kind::Expand: t = t.expand(s); break;
    }
  }
  return t;
}

TensorData read(const Tensor& t) {
  ember::NoGradGuard no_grad;
  TensorData d;
  d.dtype = from_ember(t.scalar_type());
  d.shape = t.sizes().vec();
  d.requires_grad = t.requires_grad();
  if (t.is_floating_point()) d.floats = t.to_vector<double>();
  else d.integers = t.to_vector<int64_t>();
  return d;
}

// backward() from every floating output that requires grad, weighted by grad_weights().
void backward(const Tensors& outputs) {
  Tensors roots, weights;
  for (const Tensor& out : outputs) {
    if (!out.is_floating_point() || !out.requires_grad()) continue;
    std::vector<double> w = grad_weights(out.numel());
    roots.push_back(out);
    Tensor borrowed = ember::from_blob(w.data(), out.sizes(), ember::kFloat64);
    weights.push_back(borrowed.to(out.dtype(), /*non_blocking=*/false, /*copy=*/true));
  }
  if (!roots.empty()) ember::autograd::backward(roots, weights);
}

template <class F>
bool guarded(Outcome& o, const char* stage, F f) {
  try {
    f();
    return true;
  } catch (const ember::TypeError& e) {
    o.error = e.what();
    o.type_error = true;
  } catch (const ember::Error& e) {
    o.error = e.what();
  } catch (const std::exception& e) {
    o.error = e.what();
    o.foreign_error = true;
  }
  o.stage = stage;
  return false;
}

}  // namespace

void init_ember() { ember::set_num_threads(1); }

Outcome run_ember(const Program& p) {
  Outcome o;
  Tensors bases, operands, outputs;
  bool ok = guarded(o, "inputs", [&] {
    for (const Input& in : p.inputs) {
      bases.push_back(base_tensor(in));
      operands.push_back(apply_views(bases.back(), in.views));
    }
  });
  ok = ok && guarded(o, "op", [&] { outputs = run_op(Args{{p}, operands}); });
  ok = ok && guarded(o, "backward", [&] {
         for (const Tensor& t : outputs) o.outputs.push_back(read(t));
         if (p.backward) backward(outputs);
       });
  if (!ok) return o;
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    if (!p.inputs[i].requires_grad) continue;
    const Tensor& g = bases[i].grad();
    o.grads.push_back(g.defined() ? std::optional<TensorData>(read(g)) : std::nullopt);
  }
  return o;
}

}  // namespace difftest
