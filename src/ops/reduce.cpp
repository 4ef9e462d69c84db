// Reductions, the scans (cumsum, cumprod) and softmax: PyTorch's dtype rules and checks, output
// allocation, then the device's kernel through reduce_stubs.h. Their Tensor methods too.
#include "ember/reduce.h"

#include <array>
#include <cmath>
#include <vector>

#include "autograd/functions/reduce.h"
#include "autograd/record.h"
#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "ember/shape_ops.h"
#include "kernels/reduce_stubs.h"
#include "ops/inplace.h"

namespace ember {
namespace {

using kernels::ReduceKind;
using kernels::ReduceParams;
using kernels::ScanKind;

// The dims a reduction folds; empty `dims` means all of them, as in PyTorch.
struct DimMask {
  bool reduced[detail::kMaxDims] = {};
};

DimMask dim_mask(const char* op, const Tensor& x, IntArrayRef dims) {
  DimMask mask;
  const int64_t ndim = x.dim();
  if (dims.empty()) {
    for (int64_t d = 0; d < ndim; ++d) mask.reduced[d] = true;
    return mask;
  }
  const std::array<bool, detail::kMaxDims> named = detail::named_dims(dims, ndim, op);
  // A 0-dim tensor accepts dim 0 / -1 and reduces nothing.
  for (int64_t d = 0; d < ndim; ++d) mask.reduced[d] = named[d];
  return mask;
}

DimMask single_dim(const char* op, const Tensor& x, int64_t dim) {
  return dim_mask(op, x, IntArrayRef(&dim, 1));
}

std::vector<int64_t> output_shape(const Tensor& x, const DimMask& mask, bool keepdim) {
  std::vector<int64_t> shape;
  for (int64_t d = 0; d < x.dim(); ++d) {
    if (!mask.reduced[d]) shape.push_back(x.size(d));
    else if (keepdim) shape.push_back(1);
  }
  return shape;
}

struct ReduceSpec {
  const char* op;
  ReduceKind kind;
  std::optional<ScalarType> values_dtype;  // none: only indices are produced (argmax)
  bool indices = false;
  ReduceParams params = {};
};

// Allocates the outputs, runs the kernel and returns (values, indices); either may be undefined.
std::tuple<Tensor, Tensor> reduce(const ReduceSpec& spec, const Tensor& x, const DimMask& mask,
                                  bool keepdim) {
  std::vector<int64_t> shape = output_shape(x, mask, false);
  Tensor values, indices;
  if (spec.values_dtype) values = Tensor(detail::empty_impl(shape, *spec.values_dtype, x.device()));
  if (spec.indices) indices = Tensor(detail::empty_impl(shape, kInt64, x.device()));
  kernels::ReduceIter it = kernels::make_reduce_iter(x, mask.reduced, values, indices);
  kernels::reduce_stub(x.device().type(), it, spec.kind, spec.params);
  if (keepdim) {
    std::vector<int64_t> kept = output_shape(x, mask, true);
    if (values.defined()) values = values.view(kept);
    if (indices.defined()) indices = indices.view(kept);
  }
  return {values, indices};
}

Tensor reduce_values(const ReduceSpec& spec, const Tensor& x, const DimMask& mask, bool keepdim) {
  return std::get<0>(reduce(spec, x, mask, keepdim));
}

namespace functions = autograd::functions;

// The shapes a reduction's backward formula needs.
functions::ReducedShape reduced(const Tensor& x, const DimMask& mask) {
  return functions::ReducedShape(x, mask.reduced);
}

// max, min, amax, amin, argmax, argmin have no identity: an empty reduction is an error.
void check_nonempty(const char* op, const Tensor& x, IntArrayRef dims, const DimMask& mask) {
  if (x.numel() != 0) return;
  EMBER_CHECK_T(IndexError, !dims.empty(), "[", op,
                "] Expected reduction dim to be specified for input.numel() == 0. Specify the "
                "reduction dim with the 'dim' argument.");
  for (int64_t d = 0; d < x.dim(); ++d)
    EMBER_CHECK_T(IndexError, !mask.reduced[d] || x.size(d) != 0, "[", op,
                  "] Expected reduction dim ", d, " to have non-zero size.");
}

void check_floating(const char* op, const Tensor& x, const char* message) {
  EMBER_CHECK_T(TypeError, x.is_floating_point(), "[", op, "] ", message, " Got ",
                toString(x.scalar_type()), " instead; convert with .to(ember::kFloat32).");
}

// sum and prod: integers and bool accumulate into int64; `dtype` converts the input first.
Tensor sum_like(const char* op, ReduceKind kind, const Tensor& x, const DimMask& mask, bool keepdim,
                std::optional<ScalarType> dtype) {
  Tensor in = dtype ? x.to(*dtype) : x;
  ScalarType natural = isIntegralType(in.scalar_type(), true) ? kInt64 : in.scalar_type();
  Tensor out = reduce_values({op, kind, natural}, in, mask, keepdim);
  bool everything = true;
  for (int64_t d = 0; d < in.dim(); ++d) everything &= mask.reduced[d];
  // A node that saves nothing can run backward twice (SumBackward0), as in PyTorch.
  if (autograd::needs_grad(in)) {
    if (kind == ReduceKind::Sum)
      autograd::record(everything ? "SumBackward0" : "SumBackward1", {out}, {in}, {},
                       functions::SumBackward{reduced(in, mask)});
    else
      autograd::record(everything ? "ProdBackward0" : "ProdBackward1", {out}, {in}, {in, out},
                       functions::ProdBackward{reduced(in, mask)});
  }
  return dtype ? out.to(*dtype) : out;
}

// `node` is PyTorch's name for its backward: max()/min() over everything are MaxBackward1 and
// MinBackward1 (`whole`), amax/amin AmaxBackward0/AminBackward0.
Tensor extremum(const char* op, const char* node, ReduceKind kind, const Tensor& x,
                IntArrayRef dims, bool keepdim, bool whole = false) {
  DimMask mask = dim_mask(op, x, dims);
  check_nonempty(op, x, dims, mask);
  Tensor out = reduce_values({op, kind, x.scalar_type()}, x, mask, keepdim);
  if (autograd::needs_grad(x)) {
    if (whole)
      autograd::record(node, {out}, {x}, {x, out},
                       functions::EvenlyDistributedBackward{reduced(x, mask)});
    else autograd::record(node, {out}, {x}, {x, out}, functions::ExtremaBackward{reduced(x, mask)});
  }
  return out;
}

std::tuple<Tensor, Tensor> extremum_along(const char* op, ReduceKind kind, const Tensor& x,
                                          int64_t dim, bool keepdim) {
  DimMask mask = single_dim(op, x, dim);
  check_nonempty(op, x, IntArrayRef(&dim, 1), mask);
  auto [values, indices] = reduce({op, kind, x.scalar_type(), true}, x, mask, keepdim);
  if (autograd::needs_grad(x))  // the gradient goes to the element each index names
    autograd::record(
        kind == ReduceKind::ArgMax ? "MaxBackward0" : "MinBackward0", {values}, {x}, {indices},
        functions::ValueSelectingBackward{detail::wrap_dim(dim, std::max<int64_t>(x.dim(), 1), op),
                                          keepdim, x.sizes().vec()});
  return {values, indices};
}

Tensor arg_extremum(const char* op, ReduceKind kind, const Tensor& x, std::optional<int64_t> dim,
                    bool keepdim) {
  EMBER_CHECK_T(TypeError, x.scalar_type() != kBool, "[", op, "] not implemented for 'Bool'");
  if (dim) return std::get<1>(extremum_along(op, kind, x, *dim, keepdim));
  check_nonempty(op, x, {}, DimMask{});
  // Over everything, the index is into the flattened tensor: a contiguous input coalesces to
  // one reduced dim, whose index is exactly that.
  Tensor flat = x.contiguous();
  return std::get<1>(reduce({op, kind, std::nullopt, true}, flat, dim_mask(op, flat, {}), keepdim));
}

Tensor any_all(const char* op, ReduceKind kind, const Tensor& x, const DimMask& mask,
               bool keepdim) {
  Tensor out = reduce_values({op, kind, kBool}, x, mask, keepdim);
  return x.scalar_type() == kUInt8 ? out.to(kUInt8) : out;  // PyTorch keeps uint8 for uint8 inputs
}

// `correction` defaults to 1 (Bessel's), as PyTorch's.
Tensor variance(const char* op, ReduceKind kind, const Tensor& x, IntArrayRef dims,
                const std::optional<Scalar>& correction, bool keepdim) {
  check_floating(op, x, "std and var only support floating point and complex dtypes.");
  ReduceParams params;
  params.correction = correction ? correction->to<double>() : 1.0;
  DimMask mask = dim_mask(op, x, dims);
  Tensor out = reduce_values({op, kind, x.scalar_type(), false, params}, x, mask, keepdim);
  if (autograd::needs_grad(x)) {
    if (kind == ReduceKind::Std)
      autograd::record({out}, {x}, {x, out},
                       functions::StdBackward0{reduced(x, mask), params.correction});
    else
      autograd::record({out}, {x}, {x, out},
                       functions::VarBackward0{reduced(x, mask), params.correction});
  }
  return out;
}

// cumsum and cumprod: integers and bool scan into int64 unless `dtype` says otherwise.
Tensor scan(ScanKind kind, const Tensor& x, int64_t dim, std::optional<ScalarType> dtype) {
  const char* op = kernels::scan_name(kind);
  int64_t d = detail::wrap_dim(dim, x.dim(), op);
  ScalarType out_dtype = dtype                                   ? *dtype
                         : isIntegralType(x.scalar_type(), true) ? kInt64
                                                                 : x.scalar_type();
  EMBER_CHECK_T(TypeError, out_dtype != kBool, "[", op, "] is not implemented for Bool results");
  Tensor in = x.to(out_dtype).contiguous();
  Tensor out(detail::empty_impl(in.sizes(), out_dtype, in.device()));
  kernels::scan_stub(in.device().type(), in, out, d, kind);
  if (autograd::needs_grad(in)) {
    if (kind == ScanKind::Sum) autograd::record({out}, {in}, {}, functions::CumsumBackward0{d});
    else autograd::record({out}, {in}, {in, out}, functions::CumprodBackward0{d});
  }
  return out;
}

// The in-place scans: computed out of place, then written back (through a clone under autograd,
// Note [In-place ops under autograd]).
Tensor& scan_(ScanKind kind, const char* op, const Tensor& self, int64_t dim,
              std::optional<ScalarType> dtype) {
  const auto out_of_place = [&](const Tensor& old) { return scan(kind, old, dim, dtype); };
  if (autograd::check_inplace(self, op, /*other_requires_grad=*/false))
    return ops::handle(ops::inplace_through_clone(op, self, out_of_place));
  Tensor result = out_of_place(self);
  EMBER_CHECK_T(TypeError, can_cast(result.scalar_type(), self.scalar_type()), "[", op,
                "] result type ", result.scalar_type(),
                " can't be cast to the desired output type ", self.scalar_type());
  autograd::NoGradGuard no_grad;
  return ops::handle(self).copy_(result);
}

Tensor softmax_like(const char* op, const Tensor& x, int64_t dim, std::optional<ScalarType> dtype,
                    bool log) {
  Tensor in = dtype ? x.to(*dtype) : x;
  EMBER_CHECK_T(TypeError, in.is_floating_point(), "[", op,
                "] expected a floating-point tensor, got ", toString(in.scalar_type()),
                "; pass dtype=ember::kFloat32 or convert the input first");
  int64_t d = detail::wrap_dim(dim, in.dim(), op);
  in = in.contiguous();
  Tensor out(detail::empty_impl(in.sizes(), in.scalar_type(), in.device()));
  kernels::softmax_stub(in.device().type(), in, out, d, log);
  if (autograd::needs_grad(in)) {
    if (log) autograd::record({out}, {in}, {out}, functions::LogSoftmaxBackward0{d});
    else autograd::record({out}, {in}, {out}, functions::SoftmaxBackward0{d});
  }
  return out;
}

}  // namespace

Tensor sum(const Tensor& x, std::optional<ScalarType> dtype) { return sum(x, {}, false, dtype); }
Tensor sum(const Tensor& x, IntArrayRef dims, bool keepdim, std::optional<ScalarType> dtype) {
  return sum_like("sum", ReduceKind::Sum, x, dim_mask("sum", x, dims), keepdim, dtype);
}

Tensor mean(const Tensor& x) { return mean(x, {}, false); }
Tensor mean(const Tensor& x, IntArrayRef dims, bool keepdim) {
  EMBER_CHECK_T(TypeError, x.is_floating_point(),
                "[mean] could not infer output dtype. Input "
                "dtype must be either a floating point or complex dtype. Got: ",
                toString(x.scalar_type()), " (convert with .to(ember::kFloat32) first)");
  DimMask mask = dim_mask("mean", x, dims);
  Tensor out = reduce_values({"mean", ReduceKind::Mean, x.scalar_type()}, x, mask, keepdim);
  if (autograd::needs_grad(x))  // saves nothing, as SumBackward0
    autograd::record(dims.empty() ? "MeanBackward0" : "MeanBackward1", {out}, {x}, {},
                     functions::MeanBackward{reduced(x, mask)});
  return out;
}

Tensor prod(const Tensor& x, std::optional<ScalarType> dtype) {
  return sum_like("prod", ReduceKind::Prod, x, dim_mask("prod", x, {}), false, dtype);
}
Tensor prod(const Tensor& x, int64_t dim, bool keepdim, std::optional<ScalarType> dtype) {
  return sum_like("prod", ReduceKind::Prod, x, single_dim("prod", x, dim), keepdim, dtype);
}

Tensor amax(const Tensor& x, IntArrayRef dims, bool keepdim) {
  return extremum("amax", "AmaxBackward0", ReduceKind::Max, x, dims, keepdim);
}
Tensor amin(const Tensor& x, IntArrayRef dims, bool keepdim) {
  return extremum("amin", "AminBackward0", ReduceKind::Min, x, dims, keepdim);
}
Tensor max(const Tensor& x) {
  return extremum("max", "MaxBackward1", ReduceKind::Max, x, {}, false, /*whole=*/true);
}
Tensor min(const Tensor& x) {
  return extremum("min", "MinBackward1", ReduceKind::Min, x, {}, false, /*whole=*/true);
}
std::tuple<Tensor, Tensor> max(const Tensor& x, int64_t dim, bool keepdim) {
  return extremum_along("max", ReduceKind::ArgMax, x, dim, keepdim);
}
std::tuple<Tensor, Tensor> min(const Tensor& x, int64_t dim, bool keepdim) {
  return extremum_along("min", ReduceKind::ArgMin, x, dim, keepdim);
}
Tensor max(const Tensor& x, const Tensor& other) { return maximum(x, other); }
Tensor min(const Tensor& x, const Tensor& other) { return minimum(x, other); }
Tensor argmax(const Tensor& x, std::optional<int64_t> dim, bool keepdim) {
  return arg_extremum("argmax", ReduceKind::ArgMax, x, dim, keepdim);
}
Tensor argmin(const Tensor& x, std::optional<int64_t> dim, bool keepdim) {
  return arg_extremum("argmin", ReduceKind::ArgMin, x, dim, keepdim);
}

// var and std: LibTorch's four overloads each, as functions and methods. `unbiased` is a
// correction of 1 or 0; an int is one dim.
#define EMBER_DEFINE_VARIANCE(name, Kind)                                                     \
  Tensor name(const Tensor& x, IntArrayRef dim, const std::optional<Scalar>& correction,      \
              bool keepdim) {                                                                 \
    return variance(#name, ReduceKind::Kind, x, dim, correction, keepdim);                    \
  }                                                                                           \
  Tensor name(const Tensor& x, IntArrayRef dim, bool unbiased, bool keepdim) {                \
    return name(x, dim, Scalar(unbiased ? 1 : 0), keepdim);                                   \
  }                                                                                           \
  Tensor name(const Tensor& x, bool unbiased) { return name(x, {}, unbiased); }               \
  Tensor name(const Tensor& x, int dim) {                                                     \
    const int64_t d = dim;                                                                    \
    return name(x, IntArrayRef(d));                                                           \
  }                                                                                           \
  Tensor Tensor::name(bool unbiased) const { return ember::name(*this, unbiased); }           \
  Tensor Tensor::name(IntArrayRef dim, bool unbiased, bool keepdim) const {                   \
    return ember::name(*this, dim, unbiased, keepdim);                                        \
  }                                                                                           \
  Tensor Tensor::name(IntArrayRef dim, const std::optional<Scalar>& correction, bool keepdim) \
      const {                                                                                 \
    return ember::name(*this, dim, correction, keepdim);                                      \
  }                                                                                           \
  Tensor Tensor::name(int dim) const { return ember::name(*this, dim); }
EMBER_DEFINE_VARIANCE(var, Var)
EMBER_DEFINE_VARIANCE(std, Std)
#undef EMBER_DEFINE_VARIANCE

Tensor norm(const Tensor& x, double p, IntArrayRef dims, bool keepdim) {
  check_floating("norm", x, "input dtype should be either floating point or complex.");
  ReduceParams params;
  params.norm_p = p;
  DimMask mask = dim_mask("norm", x, dims);
  Tensor out =
      reduce_values({"norm", ReduceKind::Norm, x.scalar_type(), false, params}, x, mask, keepdim);
  if (autograd::needs_grad(x))
    autograd::record({out}, {x}, {x, out}, functions::NormBackward1{reduced(x, mask), p});
  return out;
}

Tensor all(const Tensor& x) {
  return any_all("all", ReduceKind::All, x, dim_mask("all", x, {}), false);
}
Tensor all(const Tensor& x, int64_t dim, bool keepdim) {
  return any_all("all", ReduceKind::All, x, single_dim("all", x, dim), keepdim);
}
Tensor any(const Tensor& x) {
  return any_all("any", ReduceKind::Any, x, dim_mask("any", x, {}), false);
}
Tensor any(const Tensor& x, int64_t dim, bool keepdim) {
  return any_all("any", ReduceKind::Any, x, single_dim("any", x, dim), keepdim);
}

Tensor logsumexp(const Tensor& x, IntArrayRef dims, bool keepdim) {
  Tensor in = x.is_floating_point() ? x : x.to(kFloat32);  // integers give the default float
  DimMask mask = dim_mask("logsumexp", in, dims);
  Tensor out =
      reduce_values({"logsumexp", ReduceKind::LogSumExp, in.scalar_type()}, in, mask, keepdim);
  if (autograd::needs_grad(in))
    autograd::record({out}, {in}, {in, out}, functions::LogsumexpBackward0{reduced(in, mask)});
  return out;
}

Tensor cumsum(const Tensor& x, int64_t dim, std::optional<ScalarType> dtype) {
  return scan(ScanKind::Sum, x, dim, dtype);
}
Tensor cumprod(const Tensor& x, int64_t dim, std::optional<ScalarType> dtype) {
  return scan(ScanKind::Prod, x, dim, dtype);
}

Tensor softmax(const Tensor& x, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax_like("softmax", x, dim, dtype, false);
}
Tensor log_softmax(const Tensor& x, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax_like("log_softmax", x, dim, dtype, true);
}

// ---- the Tensor methods of this family
std::tuple<Tensor, Tensor> Tensor::max(int64_t dim, bool keepdim) const {
  return ember::max(*this, dim, keepdim);
}
std::tuple<Tensor, Tensor> Tensor::min(int64_t dim, bool keepdim) const {
  return ember::min(*this, dim, keepdim);
}
Tensor Tensor::max(const Tensor& other) const { return ember::maximum(*this, other); }
Tensor Tensor::min(const Tensor& other) const { return ember::minimum(*this, other); }
Tensor Tensor::amax(IntArrayRef dim, bool keepdim) const {
  return ember::amax(*this, dim, keepdim);
}
Tensor Tensor::amin(IntArrayRef dim, bool keepdim) const {
  return ember::amin(*this, dim, keepdim);
}
Tensor Tensor::all(int64_t dim, bool keepdim) const { return ember::all(*this, dim, keepdim); }
Tensor Tensor::any(int64_t dim, bool keepdim) const { return ember::any(*this, dim, keepdim); }

Tensor Tensor::prod(std::optional<ScalarType> dtype) const { return ember::prod(*this, dtype); }
Tensor Tensor::prod(int64_t dim, bool keepdim, std::optional<ScalarType> dtype) const {
  return ember::prod(*this, dim, keepdim, dtype);
}
Tensor Tensor::cumsum(int64_t dim, std::optional<ScalarType> dtype) const {
  return scan(ScanKind::Sum, *this, dim, dtype);
}
Tensor& Tensor::cumsum_(int64_t dim, std::optional<ScalarType> dtype) const {
  return scan_(ScanKind::Sum, "cumsum_", *this, dim, dtype);
}
Tensor Tensor::cumprod(int64_t dim, std::optional<ScalarType> dtype) const {
  return scan(ScanKind::Prod, *this, dim, dtype);
}
Tensor& Tensor::cumprod_(int64_t dim, std::optional<ScalarType> dtype) const {
  return scan_(ScanKind::Prod, "cumprod_", *this, dim, dtype);
}

}  // namespace ember
