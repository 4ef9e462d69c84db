// The disagreements the comparison accepts, each for a stated reason: a documented difference
// of ember from PyTorch, or LibTorch 1.13 behaviour that PyTorch 2.x (which ember follows) has
// changed. Each is as narrow as the program allows; the summary counts how often each applied.
#include <algorithm>
#include <cmath>
#include <string>

#include "judge.h"
#include "operand.h"

namespace difftest {
namespace {

bool mentions(const std::optional<std::string>& error, const char* text) {
  return error && error->find(text) != std::string::npos;
}

// Whether an operand the op sees is empty or 0-dim (after its view steps).
bool has_trivial_operand(const Program& p) {
  for (const Input& in : p.inputs) {
    const Shape s = operand(in).shape;
    if (s.empty() || numel(s) == 0) return true;
  }
  return false;
}

// The same elements in every output, NaN matching NaN.
bool same_values(const std::vector<TensorData>& a, const std::vector<TensorData>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].shape != b[i].shape || a[i].integers != b[i].integers ||
        a[i].floats.size() != b[i].floats.size())
      return false;
    for (size_t j = 0; j < a[i].floats.size(); ++j) {
      const double x = a[i].floats[j], y = b[i].floats[j];
      if (x != y && !(std::isnan(x) && std::isnan(y))) return false;
    }
  }
  return true;
}

bool input_is(const Program& p, const char* name, DType t) {
  const Input* in = input_arg(p, name);
  return in && in->dtype == t;
}

// Each element equal or close (NaN matching NaN), or finite beyond 1e38 in ember where LibTorch
// has an infinity of the same sign.
bool same_or_overflowed_early(const TensorData& e, const TensorData& t) {
  if (e.shape != t.shape || e.floats.size() != t.floats.size()) return false;
  for (size_t j = 0; j < e.floats.size(); ++j) {
    const double x = e.floats[j], y = t.floats[j];
    if (x == y || (std::isnan(x) && std::isnan(y)) || std::abs(x - y) <= 1e-5 * std::abs(y))
      continue;
    if (std::isinf(y) && std::isfinite(x) && std::abs(x) > 1e38 && (x > 0) == (y > 0)) continue;
    return false;
  }
  return true;
}

// Each element within 2 % (bfloat16's rounding) or NaN in both.
bool close_or_nan(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (size_t j = 0; j < a.size(); ++j)
    if (!(a[j] == b[j] || (std::isnan(a[j]) && std::isnan(b[j])) ||
          std::abs(a[j] - b[j]) <= 2e-2 * (1 + std::abs(b[j]))))
      return false;
  return true;
}

struct Rule {
  const char* name;
  bool (*applies)(const Program&, const Outcome& ember, const Outcome& torch);
};

const Rule kRules[] = {
    // No reference to compare with: LibTorch 1.13 has no kernel, and the program mixes in
    // float32, so it cannot be recomputed in float32 either (judge.cpp).
    {"unverified: LibTorch 1.13 has no float16/bfloat16 kernel for it",
     [](const Program&, const Outcome& e, const Outcome& t) {
       return !e.error && missing_kernel(t);
     }},
    // README: ember's dtype checks do not depend on shapes. PyTorch skips its kernel, and with
    // it the dtype check, for empty and 0-dim tensors (a bool topk, an integer softmax, a bool
    // matrix product, a cumsum into bool) and where argmax/argmin reduce a dim of size 1.
    {"dtype checks that PyTorch skips for empty, 0-dim or size-1 inputs",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       const bool arg_extremum = p.op == OpKind::Argmax || p.op == OpKind::Argmin;
       const bool skips = arg_extremum || p.op == OpKind::Softmax || p.op == OpKind::LogSoftmax ||
                          p.op == OpKind::Cumsum || p.op == OpKind::Cumprod ||
                          p.op == OpKind::Topk || p.op == OpKind::Sort || p.op == OpKind::Conv2d ||
                          p.op == OpKind::AvgPool2d || op_group(p.op) == Group::Linalg;
       const bool bool_arg = arg_extremum && input_is(p, "self", DType::Bool);
       return skips && e.type_error && !t.error && (has_trivial_operand(p) || bool_arg);
     }},
    // LibTorch 1.13's float32 sinh and cosh (and so their gradients) overflow to inf within a
    // factor of 2 below the top of the float range, where the value, and ember's result, is
    // finite (sinh(89) = 2.24e38).
    {"LibTorch 1.13's float32 sinh/cosh overflow early",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       if ((p.op != OpKind::Sinh && p.op != OpKind::Cosh) || e.error || t.error ||
           e.outputs.size() != t.outputs.size() || e.grads.size() != t.grads.size())
         return false;
       for (size_t i = 0; i < e.outputs.size(); ++i)
         if (!same_or_overflowed_early(e.outputs[i], t.outputs[i])) return false;
       for (size_t i = 0; i < e.grads.size(); ++i)
         if (e.grads[i].has_value() != t.grads[i].has_value() ||
             (e.grads[i] && !same_or_overflowed_early(*e.grads[i], *t.grads[i])))
           return false;
       return true;
     }},
    // PyTorch 2.x's softshrink (pytorch#138421), and ember's, keep a NaN input NaN where
    // LibTorch 1.13's gives 0.
    {"LibTorch 1.13's softshrink turns NaN into 0",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       if (p.op != OpKind::Softshrink || e.error || t.error || e.outputs.size() != 1 ||
           t.outputs.size() != 1 || e.outputs[0].floats.size() != t.outputs[0].floats.size())
         return false;
       const std::vector<double>&x = e.outputs[0].floats, &y = t.outputs[0].floats;
       for (size_t j = 0; j < x.size(); ++j)
         if (!(x[j] == y[j] || (std::isnan(x[j]) && (y[j] == 0 || std::isnan(y[j]))))) return false;
       return true;
     }},
    // LibTorch 1.13's elu, hardtanh (relu6) and shrink gradients at a NaN input depend on the
    // loop that meets it: its vector loop and its scalar tail disagree. ember's follow one
    // formula throughout (elu's NaN; hardtanh's and the shrinks' passing the gradient, as the
    // scalar code and the CUDA kernels).
    {"LibTorch 1.13's elu/hardtanh/shrink gradient at NaN depends on the loop",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       const bool op = p.op == OpKind::Elu || p.op == OpKind::Celu || p.op == OpKind::Selu ||
                       p.op == OpKind::Hardtanh || p.op == OpKind::Relu6 ||
                       p.op == OpKind::Hardshrink || p.op == OpKind::Softshrink;
       if (!op || e.error || t.error || e.grads.size() != 1 || t.grads.size() != 1 || !e.grads[0] ||
           !t.grads[0] || !close_or_nan(e.outputs[0].floats, t.outputs[0].floats))
         return false;
       const std::vector<double>& input = input_arg(p, "input")->values;  // the leaf, as .grad
       const std::vector<double>&x = e.grads[0]->floats, &y = t.grads[0]->floats;
       if (x.size() != y.size() || x.size() != input.size()) return false;
       for (size_t j = 0; j < x.size(); ++j)
         if (!std::isnan(input[j]) && !close_or_nan({x[j]}, {y[j]})) return false;
       return true;
     }},
    // LibTorch 1.13's cumprod backward with dtype= and a zero in the input mixes the two dtypes
    // in a masked_scatter and fails; ember's gradient is the one PyTorch defines.
    {"LibTorch 1.13's cumprod backward fails for dtype= and zeros",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       return p.op == OpKind::Cumprod && !e.error && std::string(t.stage) == "backward" &&
              mentions(t.error, "masked_scatter: expected self and source to have same dtypes");
     }},
    // README: an out-of-range tensor index is refused even where the selection is empty (a
    // slice of size 0 beside it); LibTorch checks only the positions it reads.
    {"an out-of-range index is refused where the selection is empty",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       if (p.op != OpKind::Index || !mentions(e.error, "is out of bounds") || t.error) return false;
       for (const TensorData& out : t.outputs)
         if (!out.integers.empty() || !out.floats.empty()) return false;
       return true;
     }},
    // README: masked_fill_ into a tensor whose elements share memory (an expand()ed one) is an
    // error, as for every other in-place op; PyTorch only warns that it is deprecated.
    {"masked_fill_ refuses a self whose elements share memory",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       return p.op == OpKind::MaskedFillInplace && mentions(e.error, "single memory location") &&
              !t.error;
     }},
    // README: out= must already have the result's shape; PyTorch resizes it (with a warning
    // unless it was empty).
    {"out= is not resized",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       return op_group(p.op) == Group::InPlace && holds<TensorRef>(p, "out") &&
              mentions(e.error, "doesn't match the broadcast shape") && !t.error;
     }},
    // README: pow's gradient for a bool exponent tensor; PyTorch's backward subtracts 1 from
    // the bool exponent and raises.
    {"pow with a bool exponent tensor is differentiable",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       return p.op == OpKind::Pow && input_is(p, "other", DType::Bool) && !e.error &&
              mentions(t.error, "with a bool tensor is not supported") &&
              std::string(t.stage) == "backward";
     }},
    // LibTorch 1.13 wraps narrow's start into a dim of size 0 (so -1 is 0); PyTorch 2.x checks
    // it against [-size, size] first, as ember does.
    {"LibTorch 1.13 accepts narrow(start=-1) on an empty dim",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       return p.op == OpKind::Narrow && mentions(e.error, "start out of range") && !t.error &&
              has_trivial_operand(p);
     }},
    // LibTorch 1.13's bfloat16 softmax and log_softmax over a dim other than the last spread an
    // inf or NaN of one column to its neighbours (-inf and NaN where float64 gives 0 and -15.9);
    // ember's results are those of the float64 computation.
    {"LibTorch 1.13's bfloat16 softmax spreads inf/NaN across columns",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       if ((p.op != OpKind::Softmax && p.op != OpKind::LogSoftmax) || e.error || t.error)
         return false;
       bool bf16 = holds<DType>(p, "dtype") && get<DType>(p, "dtype") == DType::BFloat16;
       bool nonfinite = false;
       for (const Input& in : p.inputs) {
         bf16 = bf16 || in.dtype == DType::BFloat16;
         for (double v : in.values) nonfinite = nonfinite || !std::isfinite(v);
       }
       return bf16 && nonfinite;
     }},
    // README: smooth_l1_loss with beta 0 is l1_loss, as PyTorch's Python function makes it, so
    // its gradient where input equals target is 0. LibTorch 1.13's backward runs its beta > 0
    // formula there, where x <= -beta holds, and gives -grad to input and target alike.
    {"smooth_l1_loss with beta 0: LibTorch's gradient where input equals target",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       if (p.op != OpKind::SmoothL1Loss || get<ScalarArg>(p, "beta").value != 0 || e.error ||
           t.error || e.grads.size() != t.grads.size() || e.outputs.size() != t.outputs.size())
         return false;
       for (size_t i = 0; i < e.outputs.size(); ++i)
         if (!close_or_nan(e.outputs[i].floats, t.outputs[i].floats)) return false;
       for (size_t i = 0; i < e.grads.size(); ++i) {
         if (e.grads[i].has_value() != t.grads[i].has_value()) return false;
         if (!e.grads[i]) continue;
         const std::vector<double>&x = e.grads[i]->floats, &y = t.grads[i]->floats;
         if (x.size() != y.size()) return false;
         for (size_t j = 0; j < x.size(); ++j)
           if (!(x[j] == y[j] || (x[j] == 0 && y[j] != 0))) return false;
       }
       return true;
     }},
    // The gradient of std where it is zero is 0/0: PyTorch (and ember) make it 0 where the
    // computed std is exactly 0, which depends on rounding. Where one library's rounding leaves
    // a tiny std and the other's an exact 0, their gradients differ by design.
    {"gradient of a std that rounds to zero in one library only",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       if (p.op != OpKind::Std || e.error || t.error || e.outputs.empty()) return false;
       const std::vector<double>&a = e.outputs[0].floats, &b = t.outputs[0].floats;
       for (size_t i = 0; i < a.size() && i < b.size(); ++i)
         if ((a[i] == 0) != (b[i] == 0) && std::abs(a[i] - b[i]) < 1e-6) return true;
       return false;
     }},
    // README: cumsum(x, dtype=...) (and cumprod) converts a 0-dim x like any other (an int8 dtype
    // wraps);
    // PyTorch's 0-dim path fills the result with a checked conversion and refuses a value the
    // dtype cannot hold.
    {"cumsum converts 0-dim tensors like any other",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       const Input* in = input_arg(p, "self");
       return (p.op == OpKind::Cumsum || p.op == OpKind::Cumprod) && in &&
              operand(*in).shape.empty() && !e.error && mentions(t.error, "cannot be converted");
     }},
    // README: conv2d and avg_pool2d take floating tensors only; PyTorch's CPU kernels also
    // take integers.
    {"conv2d and avg_pool2d refuse integer tensors",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       const Input* in = input_arg(p, "input");
       return (p.op == OpKind::Conv2d || p.op == OpKind::AvgPool2d) && e.type_error && !t.error &&
              in && !is_floating(in->dtype);
     }},
    // README: the losses compute integer inputs in float32; PyTorch's refuse them ("result type
    // Float can't be cast to the desired output type Long").
    {"losses take integer inputs",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       const Input* in = input_arg(p, "input");
       return is_loss(p.op) && !e.error && mentions(t.error, "can't be cast") && in &&
              !is_floating(in->dtype);
     }},
    // LibTorch 1.13's conv2d views an empty, non-contiguous input where only a reshape works
    // ("view size is not compatible ..."); 2.x, like ember, returns the empty result.
    {"LibTorch 1.13's conv2d fails on empty non-contiguous inputs",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       return p.op == OpKind::Conv2d && !e.error &&
              mentions(t.error, "view size is not compatible") && has_trivial_operand(p);
     }},
    // LibTorch 1.13's group_norm backward reads the device of an undefined weight when only a
    // bias is given ("tensor does not have a device"); ember, composing layer_norm and the
    // affine ops (Note [Group and instance norm through layer_norm]), returns the gradients.
    {"LibTorch 1.13's group_norm backward fails for a bias without a weight",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       return p.op == OpKind::GroupNorm && !e.error && holds<NoneArg>(p, "weight") &&
              input_arg(p, "bias") != nullptr && std::string(t.stage) == "backward" &&
              mentions(t.error, "tensor does not have a device");
     }},
    // LibTorch 1.13's pixel_shuffle kernel asks the input for a memory format and refuses a
    // permuted 5-D one that is neither contiguous nor channels-last; ember reshapes any layout.
    {"LibTorch 1.13's pixel_shuffle refuses some permuted layouts",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       return p.op == OpKind::PixelShuffle && !e.error &&
              mentions(t.error, "Unsupported memory format");
     }},
    // LibTorch 1.13's masked_select gradient scatters into zeros with the input's strides in
    // memory order, so a non-contiguous input gets its gradient in the wrong places
    // (pytorch#99638, fixed in 2.1). Only the gradients may differ: the outputs must agree.
    {"LibTorch 1.13's masked_select gradient is misplaced for a strided input",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       const Input* self = input_arg(p, "self");
       return p.op == OpKind::MaskedSelect && !e.error && !t.error && self &&
              !self->views.empty() && same_values(e.outputs, t.outputs);
     }},
    // PyTorch 2.x checks tril/triu's two dims before anything else, as ember does; 1.13 returns
    // an empty input of fewer dims unchecked.
    {"tril/triu refuse an empty input of fewer than 2 dims",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       return (p.op == OpKind::Tril || p.op == OpKind::Triu) && !t.error &&
              mentions(e.error, "at least 2 dimensions") && has_trivial_operand(p);
     }},
    // PyTorch 2.x pads an unbatched input circularly (as ember does); 1.13 wants the batch dim
    // ("Invalid padding size, expected 2 but got 4").
    {"LibTorch 1.13's circular pad needs a batch dim",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       return p.op == OpKind::Pad && get<int64_t>(p, "mode") == 3 && !e.error &&
              mentions(t.error, "Invalid padding size");
     }},
    // A dim cropped to exactly 0 by negative constant padding (in the op, or in its backward
    // for an empty input): PyTorch 2.x (and ember) return the empty result, LibTorch 1.13's
    // F::pad calls it a negative size.
    {"LibTorch 1.13's constant pad refuses a dim cropped to 0",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       const bool empty_out =
           !e.outputs.empty() && e.outputs[0].floats.empty() && e.outputs[0].integers.empty();
       return p.op == OpKind::Pad && get<int64_t>(p, "mode") == 0 && !e.error &&
              mentions(t.error, "resulted in a negative output size") &&
              (empty_out || has_trivial_operand(p));
     }},
    // As for conv2d above: LibTorch 1.13's conv1d, conv3d and conv_transpose2d view a strided
    // (expanded, permuted) input or weight where only a reshape works.
    {"LibTorch 1.13's conv1d/conv3d/conv_transpose2d fail on some strided operands",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       return (p.op == OpKind::Conv1d || p.op == OpKind::Conv3d ||
               p.op == OpKind::ConvTranspose2d) &&
              !e.error && mentions(t.error, "view size is not compatible");
     }},
    // LibTorch 1.13's bfloat16 conv_transpose2d on the CPU checks its arguments as those of a
    // plain convolution (weight.size(0) as the output channels, the kernel against the input),
    // so it refuses valid calls that its float32 path (and ember) compute.
    {"LibTorch 1.13's bfloat16 conv_transpose2d checks as a convolution",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       return p.op == OpKind::ConvTranspose2d && input_is(p, "input", DType::BFloat16) &&
              !e.error &&
              (mentions(t.error, "channels instead") ||
               mentions(t.error, "Kernel size can't be greater"));
     }},
    // README: conv_transpose2d checks its output size and output_padding for an empty batch too;
    // PyTorch skips the checks there and returns the empty result.
    {"conv_transpose2d checks the sizes of an empty batch",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       return p.op == OpKind::ConvTranspose2d &&
              (mentions(e.error, "Output size is too small") ||
               mentions(e.error, "output padding must be smaller")) &&
              !t.error && has_trivial_operand(p);
     }},
    // LibTorch 1.13's multi_margin_loss and multilabel_margin_loss return an uninitialised
    // value for an empty batch (it differs from run to run); ember's sum is 0 and its mean NaN.
    {"LibTorch 1.13's multi-margin losses of an empty batch are uninitialised",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       const Input* in = input_arg(p, "input");
       return (p.op == OpKind::MultiMarginLoss || p.op == OpKind::MultiLabelMarginLoss) &&
              !e.error && !t.error && in && numel(operand(*in).shape) == 0;
     }},
    // LibTorch 1.13's multi_margin_loss reads its weight as if it were contiguous, so a strided
    // or expanded weight gives other weights (or memory past it); the gradients of the input
    // agree.
    {"LibTorch 1.13's multi_margin_loss misreads a strided weight",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       const Input* weight = input_arg(p, "weight");
       return p.op == OpKind::MultiMarginLoss && !e.error && !t.error && weight &&
              !weight->views.empty();
     }},
    // README: max_pool1d refuses a window that does not fit, as max_pool2d and LibTorch's
    // max_pool1d with indices (or when the input requires grad) do; LibTorch's plain
    // max_pool1d returns an empty result.
    {"max_pool1d refuses a window that does not fit",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       return p.op == OpKind::MaxPool1d && mentions(e.error, "is too small") && !t.error &&
              !t.outputs.empty() && t.outputs[0].floats.empty();
     }},
    // LibTorch 1.13's hardswish backward gives 1 at x = 3 in its vector loop and 1.5 in the
    // scalar tail, and NaN at +inf and NaN in the vector loop; PyTorch 2.x (and ember) give
    // x / 3 + 0.5 = 1.5 at 3 and 1 at +inf and NaN everywhere. Only the gradients may differ.
    {"LibTorch 1.13's hardswish gradient at x = 3, +inf and NaN",
     [](const Program& p, const Outcome& e, const Outcome& t) {
       const Input* self = input_arg(p, "self");
       if (p.op != OpKind::Hardswish || e.error || t.error || !self) return false;
       const std::vector<double> v = operand(*self).values;
       const bool edge =
           std::any_of(v.begin(), v.end(), [](double x) { return x == 3.0 || !(x < INFINITY); });
       return edge && same_values(e.outputs, t.outputs);
     }},
};

}  // namespace

const char* known_difference(const Program& p, const Outcome& ember, const Outcome& torch) {
  for (const Rule& rule : kRules)
    if (rule.applies(p, ember, torch)) return rule.name;
  return nullptr;
}

}  // namespace difftest
