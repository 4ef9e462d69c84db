// Interprets an op program with LibTorch (the reference): builds the inputs (base tensors and
// their views), calls the op as PyTorch's Python API would, runs backward and reads everything
// back. Compiled as C++17 (LibTorch 1.13's headers do not build as C++20).
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/util/Exception.h>
#include <torch/csrc/autograd/autograd.h>
#include <torch/nn/functional/activation.h>
#include <torch/nn/functional/batchnorm.h>
#include <torch/nn/functional/conv.h>
#include <torch/nn/functional/distance.h>
#include <torch/nn/functional/fold.h>
#include <torch/nn/functional/instancenorm.h>
#include <torch/nn/functional/linear.h>
#include <torch/nn/functional/loss.h>
#include <torch/nn/functional/normalization.h>
#include <torch/nn/functional/padding.h>
#include <torch/nn/functional/pixelshuffle.h>
#include <torch/nn/functional/upsampling.h>
#include <torch/nn/functional/vision.h>

#include <numeric>
#include <stdexcept>
#include <type_traits>

#include "outcome.h"

namespace difftest {
namespace {

using at::Scalar;
using at::Tensor;
using Tensors = std::vector<Tensor>;

constexpr at::ScalarType kScalarTypes[kNumDTypes] = {
    at::kBool, at::kByte, at::kChar,     at::kShort, at::kInt,
    at::kLong, at::kHalf, at::kBFloat16, at::kFloat, at::kDouble};

DType from_torch(at::ScalarType t) {
  for (int i = 0; i < kNumDTypes; ++i)
    if (kScalarTypes[i] == t) return static_cast<DType>(i);
  throw std::logic_error("difftest: LibTorch returned a dtype ember does not have");
}

// How dtypes are mapped: with a float32 reference, the program's float16 or bfloat16 becomes
// float32 (and float32 results are read back as that dtype).
struct Mode {
  std::optional<DType> in_float32;
  at::ScalarType scalar_type(DType t) const {
    if (in_float32 && t == *in_float32) return at::kFloat;
    return kScalarTypes[static_cast<int>(t)];
  }
};

Scalar scalar(ScalarArg s) {
  switch (s.kind) {
    case ScalarArg::Kind::Bool: return Scalar(s.value != 0);
    case ScalarArg::Kind::Int: return Scalar(static_cast<int64_t>(s.value));
    case ScalarArg::Kind::Float: return Scalar(s.value);
  }
  throw std::logic_error("difftest: bad scalar kind");
}

// The arguments of one program, as LibTorch's types.
struct Args : ArgReader {
  const Tensors& x;
  Mode mode;

  const Tensor& tensor(const char* name) const { return x[get<TensorRef>(p, name).index]; }
  c10::optional<Tensor> optional_tensor(const char* name) const {
    return given(name) ? c10::optional<Tensor>(tensor(name)) : c10::nullopt;
  }
  Tensors tensors(const char* name) const {
    Tensors list;
    for (int i : get<TensorListRef>(p, name).indices) list.push_back(x[i]);
    return list;
  }
  Scalar number(const char* name) const { return scalar(get<ScalarArg>(p, name)); }
  Scalar number_or_one(const char* name) const { return has(name) ? number(name) : 1; }
  c10::optional<Scalar> optional_number(const char* name) const {
    return given(name) ? c10::optional<Scalar>(number(name)) : c10::nullopt;
  }
  c10::optional<int64_t> optional_integer(const char* name) const {
    return given(name) ? c10::optional<int64_t>(integer(name)) : c10::nullopt;
  }
  c10::optional<at::ScalarType> optional_dtype(const char* name) const {
    return given(name) ? c10::optional<at::ScalarType>(mode.scalar_type(get<DType>(p, name)))
                       : c10::nullopt;
  }
  // The "dim" list, or every dim where the program leaves it out (ember's empty list).
  std::vector<int64_t> dims_or_all() const {
    if (has("dim")) return ints("dim");
    std::vector<int64_t> all(static_cast<size_t>(tensor("self").dim()));
    std::iota(all.begin(), all.end(), 0);
    return all;
  }
};

template <class F>
Tensor with_other(const Args& a, F f) {
  if (a.is_scalar("other")) return f(a.tensor("self"), a.number("other"));
  return f(a.tensor("self"), a.tensor("other"));
}

// A number on the left (Python's 2 - x is torch.rsub(x, 2), 2 / x is a true division of 2).
Tensor reversed(OpKind op, const Scalar& a, const Tensor& b) {
  switch (op) {
    case OpKind::Add: return a + b;
    case OpKind::Sub: return a - b;
    case OpKind::Mul: return a * b;
    case OpKind::Div: return a / b;
    case OpKind::Pow: return at::pow(a, b);
    default: throw std::logic_error("difftest: no reversed form");
  }
}

Tensor binary(OpKind op, const Args& a) {
  if (a.is_scalar("self")) return reversed(op, a.number("self"), a.tensor("other"));
  const Scalar alpha = a.number_or_one("alpha");
  const bool method = a.flag_or_false("method");
  auto call = [&](const Tensor& self, const auto& other) -> Tensor {
    switch (op) {
      case OpKind::Add: return method ? self.add(other, alpha) : at::add(self, other, alpha);
      case OpKind::Sub:
        return method ? self.sub(other, alpha) : at::sub(self, other, alpha);
#define DIFFTEST_BINARY_CASE(e, name) \
  case OpKind::e:                     \
    return method ? self.name(other) : at::name(self, other);
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
      return at::add_out(out, self, a.tensor("other"), alpha);
    }
    case OpKind::MulOut: {
      Tensor out = a.tensor("out");
      return at::mul_out(out, self, a.tensor("other"));
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
  case OpKind::e: return method ? x.name() : at::name(x);
    DIFFTEST_UNARY_CALLS(DIFFTEST_UNARY_CASE)
#undef DIFFTEST_UNARY_CASE
#define DIFFTEST_UNARY_FUNCTION_CASE(e, name) \
  case OpKind::e: return at::name(x);
    DIFFTEST_UNARY_FUNCTION_CALLS(DIFFTEST_UNARY_FUNCTION_CASE)
#undef DIFFTEST_UNARY_FUNCTION_CASE
    default: throw std::logic_error("difftest: not a unary op");
  }
}

Tensor select(OpKind op, const Args& a) {
  switch (op) {
    case OpKind::Clamp:
      return at::clamp(a.tensor("self"), a.optional_number("min"), a.optional_number("max"));
    case OpKind::Where: {
      const Tensor& c = a.tensor("condition");
      if (a.is_scalar("self")) return at::where(c, a.number("self"), a.tensor("other"));
      if (a.is_scalar("other")) return at::where(c, a.tensor("self"), a.number("other"));
      return at::where(c, a.tensor("self"), a.tensor("other"));
    }
    case OpKind::MaskedFill:
      return at::masked_fill(a.tensor("self"), a.tensor("mask"), a.number("value"));
    default: throw std::logic_error("difftest: not a selection op");
  }
}

Tensors pair(std::tuple<Tensor, Tensor> t) { return {std::get<0>(t), std::get<1>(t)}; }

Tensors reduction(OpKind op, const Args& a) {
  const Tensor& x = a.tensor("self");
  const bool has_dim = a.has("dim");
  const bool keepdim = a.flag_or_false("keepdim");
  // var/std: None means every dim; amax/amin/logsumexp/norm need the dims spelled out.
  auto optional_dims = [&] {
    return has_dim ? at::OptionalIntArrayRef(a.ints("dim")) : c10::nullopt;
  };
  switch (op) {
    case OpKind::Sum:
      if (!has_dim) return {at::sum(x, a.optional_dtype("dtype"))};
      return {at::sum(x, a.ints("dim"), keepdim, a.optional_dtype("dtype"))};
    case OpKind::Mean: return {has_dim ? at::mean(x, a.ints("dim"), keepdim) : at::mean(x)};
    case OpKind::Prod:
      if (!has_dim) return {at::prod(x, a.optional_dtype("dtype"))};
      return {at::prod(x, a.integer("dim"), keepdim, a.optional_dtype("dtype"))};
    case OpKind::Amax: return {at::amax(x, a.dims_or_all(), keepdim)};
    case OpKind::Amin: return {at::amin(x, a.dims_or_all(), keepdim)};
    case OpKind::Max:
      return has_dim ? pair(at::max(x, a.integer("dim"), keepdim)) : Tensors{at::max(x)};
    case OpKind::Min:
      return has_dim ? pair(at::min(x, a.integer("dim"), keepdim)) : Tensors{at::min(x)};
    case OpKind::Argmax: return {at::argmax(x, a.optional_integer("dim"), keepdim)};
    case OpKind::Argmin: return {at::argmin(x, a.optional_integer("dim"), keepdim)};
    // The correction goes in as an optional: a plain integer would pick the `bool unbiased`
    // overload.
    case OpKind::Var:
      return {
          at::var(x, optional_dims(), c10::optional<int64_t>(a.integer("correction")), keepdim)};
    case OpKind::Std:
      return {
          at::std(x, optional_dims(), c10::optional<int64_t>(a.integer("correction")), keepdim)};
    case OpKind::Norm: return {at::norm(x, a.number("p"), a.dims_or_all(), keepdim)};
    case OpKind::All: return {has_dim ? at::all(x, a.integer("dim"), keepdim) : at::all(x)};
    case OpKind::Any: return {has_dim ? at::any(x, a.integer("dim"), keepdim) : at::any(x)};
    case OpKind::Logsumexp: return {at::logsumexp(x, a.dims_or_all(), keepdim)};
    case OpKind::Cumsum: return {at::cumsum(x, a.integer("dim"), a.optional_dtype("dtype"))};
    case OpKind::Cumprod: return {at::cumprod(x, a.integer("dim"), a.optional_dtype("dtype"))};
    case OpKind::Softmax: return {at::softmax(x, a.integer("dim"), a.optional_dtype("dtype"))};
    case OpKind::LogSoftmax:
      return {at::log_softmax(x, a.integer("dim"), a.optional_dtype("dtype"))};
    default: throw std::logic_error("difftest: not a reduction");
  }
}

Tensor linalg(OpKind op, const Args& a) {
  switch (op) {
    case OpKind::Matmul: return at::matmul(a.tensor("self"), a.tensor("other"));
    case OpKind::Mm: return at::mm(a.tensor("self"), a.tensor("mat2"));
    case OpKind::Bmm: return at::bmm(a.tensor("self"), a.tensor("mat2"));
    case OpKind::Mv: return at::mv(a.tensor("self"), a.tensor("vec"));
    case OpKind::Dot: return at::dot(a.tensor("self"), a.tensor("tensor"));
    case OpKind::Addmm:
      return at::addmm(a.tensor("self"), a.tensor("mat1"), a.tensor("mat2"), a.number("beta"),
                       a.number("alpha"));
    case OpKind::Linear:
      return at::linear(a.tensor("input"), a.tensor("weight"),
                        a.is_none("bias") ? c10::optional<Tensor>() : a.tensor("bias"));
    default: throw std::logic_error("difftest: not a matrix product");
  }
}

Tensors shape_op(OpKind op, const Args& a) {
  switch (op) {
    case OpKind::Cat: return {at::cat(a.tensors("tensors"), a.integer("dim"))};
    case OpKind::Stack: return {at::stack(a.tensors("tensors"), a.integer("dim"))};
    case OpKind::Split:
      if (holds<IntList>(a.p, "split_size"))
        return at::split_with_sizes(a.tensor("self"), a.ints("split_size"), a.integer("dim"));
      return at::split(a.tensor("self"), a.integer("split_size"), a.integer("dim"));
    case OpKind::Chunk: return at::chunk(a.tensor("self"), a.integer("chunks"), a.integer("dim"));
    case OpKind::IndexSelect:
      return {at::index_select(a.tensor("self"), a.integer("dim"), a.tensor("index"))};
    case OpKind::Gather: return {at::gather(a.tensor("self"), a.integer("dim"), a.tensor("index"))};
    case OpKind::Scatter:
      if (a.is_scalar("value"))
        return {
            at::scatter(a.tensor("self"), a.integer("dim"), a.tensor("index"), a.number("value"))};
      return {at::scatter(a.tensor("self"), a.integer("dim"), a.tensor("index"), a.tensor("src"))};
    case OpKind::ScatterAdd:
      return {
          at::scatter_add(a.tensor("self"), a.integer("dim"), a.tensor("index"), a.tensor("src"))};
    case OpKind::OneHot: return {at::one_hot(a.tensor("self"), a.integer("num_classes"))};
    case OpKind::Sort:
      return pair(at::sort(a.tensor("self"), a.integer("dim"), a.flag("descending")));
    case OpKind::Argsort:
      return {at::argsort(a.tensor("self"), a.integer("dim"), a.flag("descending"))};
    case OpKind::Topk: {
      auto [values, indices] = at::topk(a.tensor("self"), a.integer("k"), a.integer("dim"),
                                        a.flag("largest"), a.flag("sorted"));
      if (a.flag("sorted")) return {values, indices};
      // sorted=False leaves the order to the library: compare both in ascending order.
      auto [ordered, order] = at::sort(values, a.integer("dim"), /*descending=*/false);
      return {ordered, at::gather(indices, a.integer("dim"), order)};
    }
    case OpKind::Flip: return {at::flip(a.tensor("self"), a.ints("dims"))};
    case OpKind::Repeat: return {a.tensor("self").repeat(a.ints("repeats"))};
    case OpKind::Tril: return {at::tril(a.tensor("self"), a.integer("diagonal"))};
    case OpKind::Triu: return {at::triu(a.tensor("self"), a.integer("diagonal"))};
    case OpKind::Nonzero: return {at::nonzero(a.tensor("self"))};
    case OpKind::MaskedSelect: return {at::masked_select(a.tensor("self"), a.tensor("mask"))};
    default: throw std::logic_error("difftest: not a shape op");
  }
}

at::indexing::TensorIndex index_item(const IndexItem& i, const Args& a) {
  using namespace at::indexing;
  switch (i.kind) {
    case IndexItem::Kind::Tensor: return a.x[static_cast<size_t>(i.tensor)];
    case IndexItem::Kind::Integer: return i.integer;
    case IndexItem::Kind::NewAxis: return None;
    case IndexItem::Kind::Ellipsis: return Ellipsis;
    case IndexItem::Kind::Slice:
      return Slice(i.has_start ? c10::optional<int64_t>(i.start) : c10::nullopt,
                   i.has_stop ? c10::optional<int64_t>(i.stop) : c10::nullopt, i.step);
  }
  throw std::logic_error("difftest: bad index item");
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
    case OpKind::Index: {
      std::vector<at::indexing::TensorIndex> items;
      for (const IndexItem& i : get<IndexList>(a.p, "indices").items)
        items.push_back(index_item(i, a));
      return x.index(items);
    }
    case OpKind::To: return x.to(a.mode.scalar_type(get<DType>(a.p, "dtype")));
    case OpKind::Contiguous: return x.contiguous();
    case OpKind::Clone: return x.clone();
    default: throw std::logic_error("difftest: not a view op");
  }
}

// A loss's options with PyTorch's reduction number: 0 none, 1 mean, 2 sum.
template <class Options>
Options reduced(Options options, int64_t reduction) {
  if (reduction == 0) return options.reduction(torch::kNone);
  if (reduction == 1) return options.reduction(torch::kMean);
  return options.reduction(torch::kSum);
}

// The activations as torch.nn.functional's forms with their *FuncOptions.
Tensor activation(OpKind op, const Args& a) {
  namespace F = torch::nn::functional;
  const Tensor& x = a.tensor("input");
  auto real = [&](const char* name) { return a.number(name).toDouble(); };
#include "activation_calls.inc"
}

// The normalisation, distance and pixel-shuffle ops as torch.nn.functional's forms with their
// *FuncOptions; the activations after them.
Tensors norm_distance(OpKind op, const Args& a) {
  namespace F = torch::nn::functional;
  const Tensor& x = a.tensor("input");
  auto real = [&](const char* name) { return a.number(name).toDouble(); };
  auto optional = [&](const char* name) { return a.optional_tensor(name).value_or(Tensor()); };
#include "norm_distance_calls.inc"
}

template <class Options>
Options kl_reduced(Options options, int64_t reduction) {
  return reduction == 1 ? options.reduction(torch::kBatchMean) : reduced(options, reduction);
}

// The losses of loss_calls.inc, as torch.nn.functional's forms; the normalisations after them.
Tensors loss_op(OpKind op, const Args& a) {
  namespace F = torch::nn::functional;
  const Tensor& x = a.tensor("input");
  auto real = [&](const char* name) { return a.number(name).toDouble(); };
  auto optional = [&](const char* name) { return a.optional_tensor(name).value_or(Tensor()); };
#include "loss_calls.inc"
}

// The layers of layer_calls.inc: F::pad, bilinear, fold/unfold, conv1d, the 1-d and adaptive
// pools, the RNN cells; the losses after them.
Tensors layer_op(OpKind op, const Args& a) {
  namespace F = torch::nn::functional;
  namespace A = at;
  const Tensor& x = a.tensor("input");
  auto optional = [&](const char* name) { return a.optional_tensor(name).value_or(Tensor()); };
  auto pad_mode = [](int64_t mode) -> F::PadFuncOptions::mode_t {
    switch (mode) {
      case 0: return torch::kConstant;
      case 1: return torch::kReflect;
      case 2: return torch::kReplicate;
      default: return torch::kCircular;
    }
  };
  auto interpolate_mode = [](int64_t mode) -> F::InterpolateFuncOptions::mode_t {
    switch (mode) {
      case 0: return torch::kNearest;
      case 1: return torch::kLinear;
      case 2: return torch::kBilinear;
      case 3: return torch::kBicubic;
      case 4: return torch::kTrilinear;
      case 5: return torch::kArea;
      default: return torch::kNearestExact;
    }
  };
  auto sample_mode = [](int64_t mode) -> F::GridSampleFuncOptions::mode_t {
    if (mode == 0) return torch::kBilinear;
    return torch::kNearest;
  };
  auto sample_padding = [](int64_t mode) -> F::GridSampleFuncOptions::padding_mode_t {
    if (mode == 0) return torch::kZeros;
    if (mode == 1) return torch::kBorder;
    return torch::kReflection;
  };
#include "layer_calls.inc"
}

// The neural-network ops and the losses as torch.nn.functional calls them (its C++ frontend
// keeps the Python functions' checks and broadcasting); batch_norm also returns its running
// statistics, which it updates in place.
Tensors nn_op(OpKind op, const Args& a) {
  namespace F = torch::nn::functional;
  const Tensor& input = a.tensor("input");
  switch (op) {
    case OpKind::Conv2d:
      return {at::conv2d(input, a.tensor("weight"), a.optional_tensor("bias"), a.ints("stride"),
                         a.ints("padding"), a.ints("dilation"), a.integer("groups"))};
    case OpKind::MaxPool2d:
      return {at::max_pool2d(input, a.ints("kernel_size"), a.ints("stride"), a.ints("padding"),
                             a.ints("dilation"), a.flag("ceil_mode"))};
    case OpKind::AvgPool2d:
      return {at::avg_pool2d(input, a.ints("kernel_size"), a.ints("stride"), a.ints("padding"))};
    case OpKind::LayerNorm:
      return {at::layer_norm(input, a.ints("normalized_shape"), a.optional_tensor("weight"),
                             a.optional_tensor("bias"))};
    case OpKind::BatchNorm: {
      // F.batch_norm refuses one value per channel in training (at::batch_norm does not).
      const Tensor mean = a.optional_tensor("running_mean").value_or(Tensor());
      const Tensor var = a.optional_tensor("running_var").value_or(Tensor());
      Tensor out = F::batch_norm(input, mean, var,
                                 F::BatchNormFuncOptions()
                                     .weight(a.optional_tensor("weight").value_or(Tensor()))
                                     .bias(a.optional_tensor("bias").value_or(Tensor()))
                                     .training(a.flag("training")));
      return mean.defined() ? Tensors{out, mean, var} : Tensors{out};
    }
    case OpKind::Embedding: {
      // F.embedding's padding_idx: negative counts from the end; at::embedding's -1 is none.
      const int64_t rows = a.tensor("weight").size(0);
      c10::optional<int64_t> pad = a.optional_integer("padding_idx");
      return {at::embedding(a.tensor("weight"), input, pad ? (*pad < 0 ? *pad + rows : *pad) : -1)};
    }
    case OpKind::MseLoss:
      return {F::mse_loss(input, a.tensor("target"),
                          reduced(F::MSELossFuncOptions(), a.integer("reduction")))};
    case OpKind::NllLoss:  // Python's F.nll_loss calls nll_loss_nd (the C++ one wants 2-D)
      return {at::nll_loss_nd(input, a.tensor("target"), a.optional_tensor("weight"),
                              a.integer("reduction"), a.integer("ignore_index"))};
    case OpKind::CrossEntropy:
      return {F::cross_entropy(input, a.tensor("target"),
                               reduced(F::CrossEntropyFuncOptions(), a.integer("reduction"))
                                   .weight(a.optional_tensor("weight").value_or(Tensor()))
                                   .ignore_index(a.integer("ignore_index"))
                                   .label_smoothing(a.number("label_smoothing").toDouble()))};
    case OpKind::BceWithLogits:
      return {F::binary_cross_entropy_with_logits(
          input, a.tensor("target"),
          reduced(F::BinaryCrossEntropyWithLogitsFuncOptions(), a.integer("reduction"))
              .weight(a.optional_tensor("weight").value_or(Tensor()))
              .pos_weight(a.optional_tensor("pos_weight").value_or(Tensor())))};
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

Tensor base_tensor(const Input& in, Mode mode) {
  Tensor values = at::from_blob(const_cast<double*>(in.values.data()), in.base_shape, at::kDouble);
  Tensor base = values.to(mode.scalar_type(in.dtype), /*non_blocking=*/false, /*copy=*/true);
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

TensorData read(Tensor t, Mode mode) {
  at::NoGradGuard no_grad;
  TensorData d;
  d.requires_grad = t.requires_grad();
  d.shape = t.sizes().vec();
  d.dtype = from_torch(t.scalar_type());
  if (mode.in_float32 && d.dtype == DType::Float32) {
    d.dtype = *mode.in_float32;  // what a float16 / bfloat16 kernel would have returned
    t = t.to(kScalarTypes[static_cast<int>(d.dtype)]);
  }
  if (t.is_floating_point()) {
    Tensor c = t.to(at::kDouble).contiguous();
    d.floats.assign(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
  } else {
    Tensor c = t.to(at::kLong).contiguous();
    d.integers.assign(c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel());
  }
  return d;
}

void backward(const Tensors& outputs) {
  Tensors roots, weights;
  for (const Tensor& out : outputs) {
    if (!out.is_floating_point() || !out.requires_grad()) continue;
    std::vector<double> w = grad_weights(out.numel());
    roots.push_back(out);
    Tensor borrowed = at::from_blob(w.data(), out.sizes(), at::kDouble);
    weights.push_back(borrowed.to(out.scalar_type(), /*non_blocking=*/false, /*copy=*/true));
  }
  if (!roots.empty()) torch::autograd::backward(roots, weights);
}

template <class F>
bool guarded(Outcome& o, const char* stage, F f) {
  try {
    f();
    return true;
  } catch (const c10::Error& e) {
    o.error = e.what_without_backtrace();
  } catch (const std::exception& e) {
    o.error = e.what();
    o.foreign_error = true;
  }
  o.stage = stage;
  return false;
}

Outcome run(const Program& p, Mode mode) {
  Outcome o;
  Tensors bases, operands, outputs;
  bool ok = guarded(o, "inputs", [&] {
    for (const Input& in : p.inputs) {
      bases.push_back(base_tensor(in, mode));
      operands.push_back(apply_views(bases.back(), in.views));
    }
  });
  ok = ok && guarded(o, "op", [&] { outputs = run_op(Args{{p}, operands, mode}); });
  ok = ok && guarded(o, "backward", [&] {
         for (const Tensor& t : outputs) o.outputs.push_back(read(t, mode));
         if (p.backward) backward(outputs);
       });
  if (!ok) return o;
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    if (!p.inputs[i].requires_grad) continue;
    const Tensor& g = bases[i].grad();
    o.grads.push_back(g.defined() ? std::optional<TensorData>(read(g, mode)) : std::nullopt);
  }
  return o;
}

// Drops LibTorch's warnings (deprecations, resize of out= tensors): the outcome is what counts.
class SilentWarnings : public c10::WarningHandler {
 public:
  void process(const c10::SourceLocation&, const std::string&, const bool) override {}
};

}  // namespace

void init_torch() {
  at::set_num_threads(1);
  static SilentWarnings silent;
  c10::Warning::set_warning_handler(&silent);
}

Outcome run_torch(const Program& p, std::optional<DType> in_float32) {
  return run(p, Mode{in_float32});
}

}  // namespace difftest
