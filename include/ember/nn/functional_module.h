// nn::Functional: a function as a module, so that it can sit in a Sequential:
// Sequential(nn::Linear(3, 4), nn::Functional(torch::relu), nn::Functional(torch::elu, 1.0, 1.0,
// 1.0, false)). Extra arguments are bound after the input, as LibTorch's.
#pragma once

#include <functional>
#include <utility>

#include "ember/nn/module.h"

namespace ember::nn {

class EMBER_API FunctionalImpl : public Cloneable<FunctionalImpl> {
 public:
  using Function = std::function<Tensor(Tensor)>;

  explicit FunctionalImpl(Function function);
  template <class SomeFunction, class... Args>
  requires(sizeof...(Args) > 0) explicit FunctionalImpl(SomeFunction original, Args&&... args)
      : FunctionalImpl(Function([original, ... bound = std::forward<Args>(args)](Tensor input) {
          return original(std::move(input), bound...);
        })) {}

  void reset() override {}  // a clone shares the function
  Tensor forward(Tensor input);
  Tensor operator()(Tensor input) { return forward(std::move(input)); }
  void pretty_print(std::ostream& stream) const override;

 private:
  Function function_;
};
EMBER_MODULE(Functional);

}  // namespace ember::nn
