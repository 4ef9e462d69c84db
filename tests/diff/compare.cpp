// The comparison rules: errors must agree; dtypes, shapes and requires_grad must be equal;
// integers and bool exactly, floating values within tolerance.h's tolerances; the indices of
// sort and topk may differ between equal elements.
#include "compare.h"

#include <algorithm>
#include <cmath>

#include "operand.h"
#include "tolerance.h"

namespace difftest {
namespace {

std::string elements(const TensorData& d) {
  std::string r;
  const size_t n = std::max(d.integers.size(), d.floats.size());
  for (size_t i = 0; i < n; ++i)
    r +=
        (i ? ", " : "") + (d.floats.empty() ? std::to_string(d.integers[i]) : to_text(d.floats[i]));
  return "{" + r + "}";
}

std::string describe(const TensorData& d) {
  return std::string(dtype_name(d.dtype)) + to_text(d.shape) + " " + elements(d) +
         (d.requires_grad ? " requires_grad" : "");
}

// The inputs whose gradients an outcome holds, in order.
std::vector<size_t> grad_inputs(const Program& p) {
  std::vector<size_t> leaves;
  for (size_t i = 0; i < p.inputs.size(); ++i)
    if (p.inputs[i].requires_grad) leaves.push_back(i);
  return leaves;
}

bool same_value(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

// sort/argsort/topk may order equal elements either way: where the two index tensors differ,
// both must point at equal elements of the operand, and ember's indices must be distinct in
// every slice (a repeated index would pass the first test).
bool tie_equivalent(const Program& p, const TensorData& e, const TensorData& t) {
  const Operand x = operand(*input_arg(p, "self"));
  if (x.shape.empty()) return e.integers == t.integers;
  const int64_t n = static_cast<int64_t>(x.shape.size());
  const int64_t d = (get<int64_t>(p, "dim") % n + n) % n;
  int64_t inner = 1;
  for (int64_t i = d + 1; i < n; ++i) inner *= x.shape[i];
  const int64_t k = e.shape[d], size = x.shape[d];
  const int64_t slices = k == 0 ? 0 : static_cast<int64_t>(e.integers.size()) / k;
  for (int64_t s = 0; s < slices; ++s) {
    const int64_t outer = s / inner, in = s % inner;
    std::vector<bool> seen(static_cast<size_t>(size), false);
    for (int64_t j = 0; j < k; ++j) {
      const size_t at = static_cast<size_t>((outer * k + j) * inner + in);
      const int64_t ie = e.integers[at], it = t.integers[at];
      if (ie < 0 || ie >= size || seen[ie]) return false;
      seen[ie] = true;
      auto value = [&](int64_t i) {
        return x.values[static_cast<size_t>((outer * size + i) * inner + in)];
      };
      if (ie != it && !same_value(value(ie), value(it))) return false;
    }
  }
  return true;
}

bool is_sort_indices(const Program& p, size_t output) {
  return (p.op == OpKind::Sort || p.op == OpKind::Topk) ? output == 1 : p.op == OpKind::Argsort;
}

// Compares one tensor, floating values within `tol`. Returns false when the two differ only by
// ties in sort/topk indices (`ties_allowed`), after which gradients are not comparable: they
// follow the indices.
template <class Tol>
bool compare_tensor(const Program& p, const std::string& what, const TensorData& e,
                    const TensorData& t, Tol tol_for, bool compare_requires_grad,
                    std::vector<std::string>& diffs, bool ties_allowed = false) {
  if (e.dtype != t.dtype) {
    diffs.push_back(what + ": dtype " + dtype_name(e.dtype) + " vs LibTorch's " +
                    dtype_name(t.dtype));
    return true;
  }
  if (e.shape != t.shape) {
    diffs.push_back(what + ": shape " + to_text(e.shape) + " vs LibTorch's " + to_text(t.shape));
    return true;
  }
  if (compare_requires_grad && e.requires_grad != t.requires_grad)
    diffs.push_back(what + ": requires_grad " + std::to_string(e.requires_grad) +
                    " vs LibTorch's " + std::to_string(t.requires_grad));
  if (!is_floating(e.dtype)) {
    if (e.integers == t.integers) return true;
    if (ties_allowed && tie_equivalent(p, e, t)) return false;
    diffs.push_back(what + ": elements " + elements(e) + " vs LibTorch's " + elements(t));
    return true;
  }
  const Tolerance tol = tol_for(e.dtype, t.floats);
  if (!tol.values) return true;
  for (size_t i = 0; i < e.floats.size(); ++i) {
    if (!close(e.floats[i], t.floats[i], tol)) {
      diffs.push_back(what + ": element " + std::to_string(i) + " is " + to_text(e.floats[i]) +
                      " vs LibTorch's " + to_text(t.floats[i]) + " (all: " + elements(e) + " vs " +
                      elements(t) + ")");
      return true;
    }
  }
  return true;
}

}  // namespace

std::vector<std::string> compare(const Program& p, const Outcome& ember, const Outcome& torch) {
  std::vector<std::string> diffs;
  if (ember.foreign_error)
    diffs.push_back(std::string("ember threw an exception that is not an ember::Error in ") +
                    ember.stage + ": " + *ember.error);
  if (ember.error || torch.error) {
    if (!ember.error)
      diffs.push_back(std::string("LibTorch raised in ") + torch.stage +
                      " but ember did not: " + *torch.error);
    else if (!torch.error)
      diffs.push_back(std::string("ember raised in ") + ember.stage +
                      " but LibTorch did not: " + *ember.error);
    return diffs;  // both raised: agreement (the messages are allowed to differ)
  }
  if (ember.outputs.size() != torch.outputs.size()) {
    diffs.push_back("ember returned " + std::to_string(ember.outputs.size()) +
                    " outputs, LibTorch " + std::to_string(torch.outputs.size()));
    return diffs;
  }
  bool same_order = true;
  int64_t largest_output = 0;
  auto for_output = [&](DType t, const std::vector<double>& ref) {
    return output_tolerance(p, t, ref);
  };
  for (size_t i = 0; i < ember.outputs.size(); ++i) {
    same_order &= compare_tensor(p, "output " + std::to_string(i), ember.outputs[i],
                                 torch.outputs[i], for_output, true, diffs, is_sort_indices(p, i));
    largest_output = std::max(largest_output, numel(torch.outputs[i].shape));
  }
  if (!same_order) return diffs;
  const std::vector<size_t> leaves = grad_inputs(p);
  for (size_t i = 0; i < ember.grads.size() && i < torch.grads.size(); ++i) {
    const std::string what = "x" + std::to_string(leaves[i]) + ".grad";
    if (ember.grads[i].has_value() != torch.grads[i].has_value())
      diffs.push_back(
          what + (ember.grads[i] ? " is defined in ember only" : " is defined in LibTorch only"));
    else if (ember.grads[i])
      compare_tensor(
          p, what, *ember.grads[i], *torch.grads[i],
          [&](DType t, const std::vector<double>& ref) {
            return gradient_tolerance(p, leaves[i], t, ref, largest_output);
          },
          false, diffs);
  }
  return diffs;
}

std::string to_string(const Program& p, const Outcome& o) {
  if (o.error) return std::string("    raised in ") + o.stage + ": " + *o.error + "\n";
  std::string r;
  for (size_t i = 0; i < o.outputs.size(); ++i)
    r += "    output " + std::to_string(i) + ": " + describe(o.outputs[i]) + "\n";
  const std::vector<size_t> leaves = grad_inputs(p);
  for (size_t i = 0; i < o.grads.size(); ++i)
    r += "    x" + std::to_string(leaves[i]) +
         ".grad: " + (o.grads[i] ? describe(*o.grads[i]) : "undefined") + "\n";
  return r;
}

}  // namespace difftest
