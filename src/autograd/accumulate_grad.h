// AccumulateGrad: the node at a leaf that adds incoming gradients into the leaf's grad().
#pragma once

#include <memory>

#include "core/tensor_impl.h"
#include "ember/autograd.h"

namespace ember::autograd {

class AccumulateGrad final : public Node {
 public:
  explicit AccumulateGrad(std::shared_ptr<detail::TensorImpl> variable);
  std::string name() const override { return "AccumulateGrad"; }
  std::vector<Tensor> apply(std::vector<Tensor>&& grads) override;
  bool is_accumulate_grad() const override { return true; }

  // grad += incoming (or grad = incoming the first time); used for retain_grad() too.
  static void accumulate(detail::TensorImpl& impl, Tensor&& incoming);
  // A leaf's accumulation: accumulate, then the leaf's post-accumulate-grad hooks.
  static void accumulate_into_leaf(const std::shared_ptr<detail::TensorImpl>& leaf,
                                   Tensor&& incoming);

 private:
  // Weak: a leaf that stops requiring grad can take part in an in-place op and get a grad_fn
  // whose graph reaches this node (x.requires_grad_(false); x.div_(x_times_2)), and a strong
  // reference would then close a cycle. A leaf nobody holds any more has no grad to read.
  std::weak_ptr<detail::TensorImpl> variable_;
};

}  // namespace ember::autograd
