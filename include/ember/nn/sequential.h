// nn::Sequential: modules applied in order; submodules are named "0", "1", ... as in PyTorch.
#pragma once

#include <memory>
#include <utility>

#include "ember/nn/module.h"

namespace ember::nn {

class EMBER_API SequentialImpl : public Module {
 public:
  SequentialImpl();
  template <class... Holders>
  explicit SequentialImpl(Holders&&... modules) : SequentialImpl() {
    (push_back(modules.ptr()), ...);
  }
  void push_back(std::shared_ptr<Module> module);
  template <class Impl>
  void push_back(const ModuleHolder<Impl>& holder) {
    push_back(std::static_pointer_cast<Module>(holder.ptr()));
  }
  Tensor forward(const Tensor& input) override;
  size_t size() const { return named_children().size(); }
  std::shared_ptr<Module> operator[](size_t i) const { return named_children()[i].second; }
};
EMBER_MODULE(Sequential);

}  // namespace ember::nn
