// The margin and embedding losses, as ATen's (margin_ranking_loss, hinge_embedding_loss,
// cosine_embedding_loss, triplet_margin_loss, multi_margin_loss, multilabel_margin_loss), and the
// F:: forms LibTorch builds itself (margin_ranking_loss's check,
// triplet_margin_with_distance_loss, multilabel_soft_margin_loss): each composed of
// differentiable ops, so it runs on every device and autograd derives its backward.
#include <string>
#include <vector>

#include "core/check.h"
#include "ember/factory.h"
#include "ember/nn/functional/loss.h"
#include "ember/nn_ops.h"
#include "ember/ops.h"
#include "ember/shape_ops.h"
#include "ops/loss_common.h"

namespace ember {
namespace {

// A classification loss's input as rows [N, C] (from [C] or a 0-d scalar, as PyTorch accepts
// them), checked non-empty as ATen's multi*_margin_loss shape checks.
Tensor margin_loss_rows(const char* op, const Tensor& self) {
  EMBER_CHECK_T(ValueError,
                (self.dim() == 2 && self.size(1) != 0) || (self.dim() == 1 && self.size(0) != 0) ||
                    self.dim() == 0,
                "[", op,
                "] Expected non-empty vector or matrix with optional 0-dim batch size, but got: ",
                self.sizes());
  return self.dim() == 2 ? self : self.reshape({1, -1});
}

// The target's class indices lie in [0, classes): indexing would otherwise name some other op.
void check_margin_loss_classes(const char* op, const Tensor& targets, int64_t classes) {
  NoGradGuard no_grad;
  EMBER_CHECK_T(IndexError, !logical_or(targets < 0, targets >= classes).any().item<bool>(), "[",
                op, "] target out of range: class indices must lie in [0, ", classes, ")");
}

// A per-row loss [N] reduced, or shaped as PyTorch's unreduced output: [N] for rows, [] for one.
Tensor reduce_margin_loss_rows(const Tensor& losses, const Tensor& self,
                               Reduction::Reduction kind) {
  if (kind == Reduction::None && self.dim() < 2) return losses.reshape({});
  return ops::apply_loss_reduction(losses, kind);
}

// max(0, margin + d(anchor, positive) - d(anchor, negative)), where swap takes
// d(positive, negative) instead of d(anchor, negative) where it is smaller.
template <class Distance>
Tensor triplet_losses(const Distance& distance, const Tensor& anchor, const Tensor& positive,
                      const Tensor& negative, double margin, bool swap) {
  Tensor to_negative = distance(anchor, negative);
  if (swap) to_negative = minimum(to_negative, distance(positive, negative));
  return clamp_min(margin + distance(anchor, positive) - to_negative, 0);
}

}  // namespace

Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                           double margin, int64_t reduction) {
  const auto kind = ops::loss_reduction(reduction, "margin_ranking_loss");
  return ops::apply_loss_reduction(clamp_min(-target * (input1 - input2) + margin, 0), kind);
}

Tensor hinge_embedding_loss(const Tensor& self, const Tensor& target, double margin,
                            int64_t reduction) {
  const auto kind = ops::loss_reduction(reduction, "hinge_embedding_loss");
  ops::check_loss_shapes("hinge_embedding_loss", self, target);
  Tensor below_margin = where(target != 1, clamp_min(margin - self, 0), 0.0);
  return ops::apply_loss_reduction(below_margin + where(target != -1, self, 0.0), kind);
}

Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                             double margin, int64_t reduction) {
  const auto kind = ops::loss_reduction(reduction, "cosine_embedding_loss");
  const int64_t dim = target.dim();
  EMBER_CHECK_T(ValueError, dim == 1 || dim == 0,
                "[cosine_embedding_loss] 0D or 1D target tensor expected, multi-target not "
                "supported, got target of shape ",
                target.sizes());
  EMBER_CHECK_T(ValueError, input1.dim() == dim + 1 && input2.dim() == dim + 1,
                "[cosine_embedding_loss] ", dim, "D target tensor expects ", dim + 1,
                "D input tensors, but found inputs with sizes ", input1.sizes(), " and ",
                input2.sizes(), ".");
  constexpr double kEpsilon = 1e-12;  // ATen's: keeps zero vectors from dividing by zero
  Tensor dot = (input1 * input2).sum({dim});
  Tensor norms =
      sqrt(((input1 * input1).sum({dim}) + kEpsilon) * ((input2 * input2).sum({dim}) + kEpsilon));
  Tensor cos = dot / norms;
  Tensor losses =
      where(target == 1, 1 - cos, 0.0) + where(target == -1, clamp_min(cos - margin, 0), 0.0);
  return ops::apply_loss_reduction(losses, kind);
}

Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive, const Tensor& negative,
                           double margin, double p, double eps, bool swap, int64_t reduction) {
  const auto kind = ops::loss_reduction(reduction, "triplet_margin_loss");
  EMBER_CHECK_T(ValueError, anchor.dim() == positive.dim() && positive.dim() == negative.dim(),
                "[triplet_margin_loss] All inputs should have same dimension but got ",
                anchor.dim(), "D, ", positive.dim(), "D and ", negative.dim(), "D inputs: anchor ",
                anchor.sizes(), ", positive ", positive.sizes(), ", negative ", negative.sizes());
  auto distance = [p, eps](const Tensor& a, const Tensor& b) {
    return pairwise_distance(a, b, p, eps);
  };
  return ops::apply_loss_reduction(
      triplet_losses(distance, anchor, positive, negative, margin, swap), kind);
}

Tensor multi_margin_loss(const Tensor& self, const Tensor& target, const Scalar& p,
                         const Scalar& margin, const Tensor& weight, int64_t reduction) {
  const auto kind = ops::loss_reduction(reduction, "multi_margin_loss");
  const int64_t power = p.toLong();
  EMBER_CHECK_T(ValueError, power == 1 || power == 2,
                "[multi_margin_loss] only p == 1 and p == 2 supported, got p=", power);
  Tensor rows = margin_loss_rows("multi_margin_loss", self);
  const int64_t frames = rows.size(0), classes = rows.size(1);
  EMBER_CHECK_T(ValueError, target.dim() <= 1 && target.numel() == frames,
                "[multi_margin_loss] inconsistent target size, expected ", frames,
                " but got target of shape ", target.sizes(), " for input of shape ", self.sizes());
  EMBER_CHECK_T(ValueError, !weight.defined() || (weight.dim() <= 1 && weight.numel() == classes),
                "[multi_margin_loss] inconsistent weight size, expected ", classes,
                " but got weight of shape ", weight.sizes());
  Tensor y = target.reshape({frames, 1}).to(kInt64);
  check_margin_loss_classes("multi_margin_loss", y, classes);
  Tensor hinge = clamp_min(margin.toDouble() - gather(rows, 1, y) + rows, 0);
  if (power == 2) hinge = hinge * hinge;
  if (weight.defined())
    hinge = hinge * index_select(weight.reshape({-1}), 0, y.reshape({-1})).unsqueeze(1);
  Tensor other_class = arange(classes, TensorOptions(kInt64).device(self.device())) != y;
  Tensor losses = where(other_class, hinge, 0.0).sum({1}) / static_cast<double>(classes);
  return reduce_margin_loss_rows(losses, self, kind);
}

// Note [multilabel_margin_loss by pairs]: the loss pairs each listed target class j with each
// class k not listed, so it is built over [N, j, k]: C^2 per row, against ATen's loop over the
// same pairs, for the small C this loss is used with.
Tensor multilabel_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  const auto kind = ops::loss_reduction(reduction, "multilabel_margin_loss");
  Tensor rows = margin_loss_rows("multilabel_margin_loss", self);
  const int64_t classes = rows.size(1);
  EMBER_CHECK_T(ValueError,
                self.dim() == 2 ? target.sizes() == self.sizes()
                                : target.dim() <= 1 && target.numel() == classes,
                "[multilabel_margin_loss] inconsistent size ", target.sizes(),
                " for target: expected the input's shape ", self.sizes());
  Tensor y = target.reshape(rows.sizes()).to(kInt64);
  Tensor listed = (y != -1).cumprod(1).to(kBool);  // entries before the first -1
  Tensor safe_y = where(listed, y, 0);
  check_margin_loss_classes("multilabel_margin_loss", safe_y, classes);
  Tensor class_ids = arange(classes, TensorOptions(kInt64).device(self.device()));
  Tensor is_target = logical_and(safe_y.unsqueeze(2) == class_ids, listed.unsqueeze(2)).any(1);
  Tensor hinge = clamp_min(1 - gather(rows, 1, safe_y).unsqueeze(2) + rows.unsqueeze(1), 0);
  Tensor counted = logical_and(listed.unsqueeze(2), logical_not(is_target).unsqueeze(1));
  Tensor losses = where(counted, hinge, 0.0).sum({1, 2}) / static_cast<double>(classes);
  return reduce_margin_loss_rows(losses, self, kind);
}

namespace nn::functional {

Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                           const MarginRankingLossFuncOptions& options) {
  EMBER_CHECK_T(ValueError, input1.dim() == input2.dim() && input1.dim() == target.dim(),
                "[margin_ranking_loss] All input tensors should have same dimension but got "
                "sizes: input1: ",
                input1.sizes(), ", input2: ", input2.sizes(), ", target: ", target.sizes());
  return ember::margin_ranking_loss(input1, input2, target, options.margin(),
                                    enumtype::reduction_get_enum(options.reduction()));
}

Tensor triplet_margin_with_distance_loss(const Tensor& anchor, const Tensor& positive,
                                         const Tensor& negative,
                                         const TripletMarginWithDistanceLossFuncOptions& options) {
  auto distance = [&options](const Tensor& a, const Tensor& b) {
    return options.distance_function() ? (*options.distance_function())(a, b)
                                       : ember::pairwise_distance(a, b);
  };
  return ops::apply_loss_reduction(
      triplet_losses(distance, anchor, positive, negative, options.margin(), options.swap()),
      enumtype::reduction_get_enum(options.reduction()));
}

Tensor multilabel_soft_margin_loss(const Tensor& input, const Tensor& target,
                                   const MultilabelSoftMarginLossFuncOptions& options) {
  ops::check_loss_shapes("multilabel_soft_margin_loss", input, target);
  Tensor losses = -(target * log_sigmoid(input) + (1 - target) * log_sigmoid(-input));
  if (options.weight().defined()) losses = losses * options.weight();
  const int64_t class_dim = input.dim() - 1;
  losses = losses.sum({class_dim}) / static_cast<double>(input.size(class_dim));
  return ops::apply_loss_reduction(losses, enumtype::reduction_get_enum(options.reduction()));
}

}  // namespace nn::functional
}  // namespace ember
