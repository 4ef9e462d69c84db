// Matrix products: PyTorch's shape rules, dtype and device checks and output allocation. Every op
// reduces to one batched gemm (kernels/linalg_stubs.h) on views of its operands, so transposed
// and broadcast operands reach the kernel without copies.
#include "ember/linalg.h"

#include <algorithm>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "autograd/functions/linalg.h"
#include "autograd/record.h"
#include "core/check.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "kernels/linalg_stubs.h"
#include "kernels/tensor_iter.h"
#include "ops/promotion.h"

namespace ember {
namespace {

// "2x3x4", the way PyTorch writes shapes in matrix-product messages.
std::string x_joined(IntArrayRef shape) {
  std::ostringstream os;
  for (size_t i = 0; i < shape.size(); ++i) os << (i ? "x" : "") << shape[i];
  return os.str();
}

// One device and one dtype for all operands: PyTorch does not promote in matrix products. Bool
// is refused as in PyTorch. Undefined tensors (a missing bias) are skipped.
void check_operands(const char* op, std::initializer_list<const Tensor*> tensors,
                    std::initializer_list<const char*> names) {
  kernels::common_device(op, tensors, names);
  const Tensor& first = **tensors.begin();
  for (size_t i = 1; i < tensors.size(); ++i) {
    const Tensor& t = *tensors.begin()[i];
    EMBER_CHECK_T(TypeError, !t.defined() || t.scalar_type() == first.scalar_type(), "[", op,
                  "] expected ", names.begin()[0], " and ", names.begin()[i],
                  " to have the same dtype, but got ", first.scalar_type(), " and ",
                  t.scalar_type());
  }
  EMBER_CHECK_T(TypeError, first.scalar_type() != kBool, "[", op,
                "] matrix products are not implemented for Bool tensors");
}

void check_dim(const char* op, const char* name, const Tensor& t, int64_t dim) {
  EMBER_CHECK_T(ValueError, t.dim() == dim, "[", op, "] expected ", name, " to be a ", dim,
                "-D tensor, but got a ", t.dim(), "-D tensor");
}

// alpha * (a @ b) + beta * self for a: [batch_a..., m, k] and b: [batch_b..., k, n], the batch
// dims broadcast. `self` (optional) is broadcast to the result; with beta == 0 it is not read, so
// its NaNs do not leak into the result (PyTorch's addmm rule).
Tensor product(const char* op, const Tensor& a, const Tensor& b, const Tensor& self = Tensor(),
               Scalar beta = 0, Scalar alpha = 1);

// PyTorch's node names for the products ember records.
const char* backward_name(const char* op, bool has_self) {
  std::string_view o(op);
  if (o == "addmm" || (o == "linear" && has_self)) return "AddmmBackward0";
  if (o == "bmm") return "BmmBackward0";
  if (o == "mv") return "MvBackward0";
  if (o == "dot") return "DotBackward0";
  return "MmBackward0";  // mm, and matmul's matrix products
}

// out = alpha a @ b + beta self, recorded as one node (functions::ProductBackward).
Tensor recorded_product(const char* op, const Tensor& a, const Tensor& b,
                        const Tensor& self = Tensor(), Scalar beta = 0, Scalar alpha = 1) {
  if (!autograd::needs_grad(a, b, self)) return product(op, a, b, self, beta, alpha);
  Tensor out;
  {
    autograd::NoGradGuard no_grad;  // the product's internal copies are part of this node
    out = product(op, a, b, self, beta, alpha);
  }
  autograd::record(backward_name(op, self.defined()), {out}, {self, a, b}, {a, b},
                   autograd::functions::ProductBackward{alpha, beta, self.defined()});
  return out;
}

Tensor product(const char* op, const Tensor& a, const Tensor& b, const Tensor& self, Scalar beta,
               Scalar alpha) {
  int64_t m = a.size(-2), k = a.size(-1), n = b.size(-1);
  EMBER_CHECK_T(ValueError, k == b.size(-2), "[", op,
                "] mat1 and mat2 shapes cannot be multiplied (", x_joined(a.sizes()), " and ",
                x_joined(b.sizes()), ")");
  int64_t batch[detail::kMaxDims];
  int nb = 0;
  kernels::broadcast_shapes(op, IntArrayRef(a.sizes().data(), a.sizes().size() - 2),
                            IntArrayRef(b.sizes().data(), b.sizes().size() - 2), batch, &nb);
  auto with_matrix = [&](int64_t rows, int64_t cols) {
    std::vector<int64_t> shape(batch, batch + nb);
    shape.insert(shape.end(), {rows, cols});
    return shape;
  };
  std::vector<int64_t> out_shape = with_matrix(m, n);
  Tensor out = empty(out_shape, a.options());
  bool accumulate = self.defined() && beta.toDouble() != 0.0;
  if (self.defined()) {
    Tensor broadcast = self.expand(out_shape);  // checks the shape even when beta is 0
    if (accumulate) out.copy_(broadcast);
  }
  kernels::gemm_stub(out.device().type(), a.expand(with_matrix(m, k)), b.expand(with_matrix(k, n)),
                     out, alpha, accumulate ? beta : Scalar(0));
  return out;
}

}  // namespace

Tensor matmul(const Tensor& a, const Tensor& b) {
  check_operands("matmul", {&a, &b}, {"self", "other"});
  int64_t da = a.dim(), db = b.dim();
  EMBER_CHECK_T(ValueError, da >= 1 && db >= 1,
                "[matmul] both arguments need to be at least 1-D, but they are ", da, "-D and ", db,
                "-D");
  int64_t k = a.size(-1);
  EMBER_CHECK_T(ValueError, k == b.size(db == 1 ? 0 : -2), "[matmul] ",
                da == 2 && db == 2 ? "mat1 and mat2" : "self and other",
                " shapes cannot be multiplied (", x_joined(a.sizes()), " and ", x_joined(b.sizes()),
                ")");
  // A vector operand is a one-column matrix on the right, so b's vector case is a matrix too.
  Tensor b2 = db == 1 ? b.unsqueeze(1) : b;
  if (da >= 3 && db <= 2) {
    // Fold a's batch dims into its rows: one large gemm instead of many small ones (PyTorch's
    // folding; a copy only when a's batch dims cannot be merged into one view).
    std::vector<int64_t> shape(a.sizes().begin(), a.sizes().end() - 1);
    int64_t rows = 1;
    for (int64_t s : shape) rows *= s;
    if (db == 2) shape.push_back(b.size(1));
    return recorded_product("matmul", a.reshape({rows, k}), b2).view(shape);
  }
  // A vector on the left is a one-row matrix; the rows and columns added for vectors are dropped.
  Tensor out = recorded_product("matmul", da == 1 ? a.unsqueeze(0) : a, b2);
  if (da == 1) out = out.squeeze(-2);
  return db == 1 ? out.squeeze(-1) : out;
}

Tensor mm(const Tensor& a, const Tensor& b) {
  check_operands("mm", {&a, &b}, {"mat1", "mat2"});
  check_dim("mm", "mat1", a, 2);
  check_dim("mm", "mat2", b, 2);
  return recorded_product("mm", a, b);
}

Tensor bmm(const Tensor& a, const Tensor& b) {
  check_operands("bmm", {&a, &b}, {"batch1", "batch2"});
  check_dim("bmm", "batch1", a, 3);
  check_dim("bmm", "batch2", b, 3);
  EMBER_CHECK_T(ValueError, a.size(0) == b.size(0),
                "[bmm] expected batch1 and batch2 to have the same batch size, but got ", a.size(0),
                " and ", b.size(0));
  return recorded_product("bmm", a, b);
}

Tensor mv(const Tensor& a, const Tensor& v) {
  check_operands("mv", {&a, &v}, {"mat", "vec"});
  check_dim("mv", "mat", a, 2);
  check_dim("mv", "vec", v, 1);
  EMBER_CHECK_T(ValueError, a.size(1) == v.size(0),
                "[mv] mat and vec shapes cannot be multiplied (", x_joined(a.sizes()), " and ",
                v.size(0), ")");
  return recorded_product("mv", a, v.unsqueeze(1)).squeeze(1);
}

Tensor dot(const Tensor& a, const Tensor& b) {
  check_operands("dot", {&a, &b}, {"self", "tensor"});
  check_dim("dot", "self", a, 1);
  check_dim("dot", "tensor", b, 1);
  EMBER_CHECK_T(ValueError, a.numel() == b.numel(),
                "[dot] expected both vectors to have the same number of elements, but got ",
                a.numel(), " and ", b.numel());
  return recorded_product("dot", a.unsqueeze(0), b.unsqueeze(1)).view(IntArrayRef());
}

Tensor addmm(const Tensor& self, const Tensor& a, const Tensor& b, Scalar beta, Scalar alpha) {
  check_operands("addmm", {&self, &a, &b}, {"self", "mat1", "mat2"});
  check_dim("addmm", "mat1", a, 2);
  check_dim("addmm", "mat2", b, 2);
  // beta and alpha are applied in the dtype's arithmetic type (float32 for the 16-bit floats)
  // and must fit it where they are applied, i.e. to a non-empty result (as in PyTorch).
  if (a.size(0) * b.size(-1) > 0) {
    ScalarType arithmetic =
        a.scalar_type() == kFloat16 || a.scalar_type() == kBFloat16 ? kFloat32 : a.scalar_type();
    ops::check_fits("addmm", beta, arithmetic);
    ops::check_fits("addmm", alpha, arithmetic);
  }
  return recorded_product("addmm", a, b, self, beta, alpha);
}

Tensor linear(const Tensor& x, const Tensor& weight, const Tensor& bias) {
  check_operands("linear", {&x, &weight, &bias}, {"input", "weight", "bias"});
  if (x.dim() >= 2 && weight.dim() == 2) {
    // Leading dims fold into rows, and the bias rides on the gemm as beta = 1 (one pass).
    std::vector<int64_t> shape(x.sizes().begin(), x.sizes().end() - 1);
    int64_t rows = 1;
    for (int64_t s : shape) rows *= s;
    shape.push_back(weight.size(0));
    Tensor rows_x = x.dim() == 2 ? x : x.reshape({rows, x.size(-1)});
    Tensor out = recorded_product("linear", rows_x, weight.t(), bias, 1, 1);
    return x.dim() == 2 ? out : out.view(shape);  // a 2-D input keeps AddmmBackward0 on top
  }
  Tensor out = matmul(x, weight.t());
  return bias.defined() ? out + bias : out;
}

Tensor bilinear(const Tensor& input1, const Tensor& input2, const Tensor& weight,
                const Tensor& bias) {
  check_operands("bilinear", {&input1, &input2, &weight, &bias},
                 {"input1", "input2", "weight", "bias"});
  EMBER_CHECK_T(ValueError, weight.dim() == 3,
                "[bilinear] expected a 3-D weight [out_features, in1_features, in2_features], got "
                "shape ",
                weight.sizes());
  EMBER_CHECK_T(ValueError, input1.dim() >= 1 && input1.dim() == input2.dim(),
                "[bilinear] input dimensions do not match: input1 is ", input1.sizes(),
                " and input2 is ", input2.sizes(),
                "; give both the same leading (batch) dims and at least one dim");
  const int64_t in1 = weight.size(1), in2 = weight.size(2), out = weight.size(0);
  EMBER_CHECK_T(
      ValueError,
      std::equal(input1.sizes().begin(), input1.sizes().end() - 1, input2.sizes().begin()),
      "[bilinear] input batch dimensions do not match: input1 is ", input1.sizes(),
      " and input2 is ", input2.sizes(), "; all but the last dim must be equal");
  EMBER_CHECK_T(ValueError, input1.size(-1) == in1, "[bilinear] input1's last dim (",
                input1.size(-1), ") does not match weight's dim 1 (in1_features, weight ",
                weight.sizes(), "); input1 must be [*, ", in1, "]");
  EMBER_CHECK_T(ValueError, input2.size(-1) == in2, "[bilinear] input2's last dim (",
                input2.size(-1), ") does not match weight's dim 2 (in2_features, weight ",
                weight.sizes(), "); input2 must be [*, ", in2, "]");
  EMBER_CHECK_T(ValueError, !bias.defined() || (bias.dim() == 1 && bias.size(0) == out),
                "[bilinear] expected a bias of shape [", out, "] (out_features), got ",
                bias.sizes());
  std::vector<int64_t> shape(input1.sizes().begin(), input1.sizes().end() - 1);
  int64_t rows = 1;
  for (int64_t s : shape) rows *= s;
  shape.push_back(out);
  // x1 @ W viewed as [in1, out * in2] gives, per row, x1^T W[o] for every o; times x2, summed
  // over j, that is x1^T W[o] x2.
  Tensor w = weight.permute({1, 0, 2}).reshape({in1, out * in2});
  Tensor t = matmul(input1.reshape({rows, in1}), w).view({rows, out, in2});
  Tensor y = (t * input2.reshape({rows, 1, in2})).sum({-1});
  if (bias.defined()) y = y + bias;
  return y.view(shape);
}

Tensor Tensor::bmm(const Tensor& mat2) const { return ember::bmm(*this, mat2); }
Tensor Tensor::mv(const Tensor& vec) const { return ember::mv(*this, vec); }
Tensor Tensor::dot(const Tensor& tensor) const { return ember::dot(*this, tensor); }

}  // namespace ember
