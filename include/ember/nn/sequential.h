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
  // The i-th module; IndexError past the end.
  std::shared_ptr<Module> operator[](size_t i) const;
  // The i-th module as its own type, as LibTorch's Sequential::ptr<T>: seq->ptr<LinearImpl>(0)
  // reaches `weight`. TypeError when it is another kind of module.
  template <class M>
  std::shared_ptr<M> ptr(size_t i) const {
    std::shared_ptr<Module> module = (*this)[i];
    auto typed = std::dynamic_pointer_cast<M>(module);
    if (typed == nullptr) fail_wrong_type(i, *module);
    return typed;
  }

 private:
  [[noreturn]] static void fail_wrong_type(size_t i, const Module& module);
};
EMBER_MODULE(Sequential);

}  // namespace ember::nn
