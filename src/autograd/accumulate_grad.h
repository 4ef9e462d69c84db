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
  const std::shared_ptr<detail::TensorImpl>& variable() const { return variable_; }

  // grad += incoming (or grad = incoming the first time); used for retain_grad() too.
  static void accumulate(detail::TensorImpl& impl, Tensor&& incoming);

 private:
  std::shared_ptr<detail::TensorImpl> variable_;
};

}  // namespace ember::autograd
