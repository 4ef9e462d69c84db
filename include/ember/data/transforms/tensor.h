// Transforms of an Example's data tensor (its target passes through): TensorTransform, the base
// whose operator() maps the tensor; TensorLambda, a function as one; Normalize, (x - mean) / std.
#pragma once

#include <functional>
#include <utility>

#include "ember/array_ref.h"
#include "ember/data/example.h"
#include "ember/data/transforms/base.h"
#include "ember/factory.h"

namespace ember::data::transforms {

template <typename Target = Tensor>
class TensorTransform : public Transform<Example<Tensor, Target>, Example<Tensor, Target>> {
 public:
  using E = Example<Tensor, Target>;
  using typename Transform<E, E>::InputType;
  using typename Transform<E, E>::OutputType;

  virtual Tensor operator()(Tensor input) = 0;

  OutputType apply(InputType input) override {
    input.data = (*this)(std::move(input.data));
    return input;
  }
};

template <typename Target = Tensor>
class TensorLambda : public TensorTransform<Target> {
 public:
  using FunctionType = std::function<Tensor(Tensor)>;

  explicit TensorLambda(FunctionType function) : function_(std::move(function)) {}
  Tensor operator()(Tensor input) override { return function_(std::move(input)); }

 private:
  FunctionType function_;
};

// mean and stddev hold one value per channel, shaped [C, 1, 1] to broadcast over [C, H, W]
// images (as LibTorch: a single value then broadcasts over any input of up to three dims).
template <typename Target = Tensor>
struct Normalize : public TensorTransform<Target> {
  Normalize(ArrayRef<double> mean, ArrayRef<double> stddev)
      : mean(per_channel(mean)), stddev(per_channel(stddev)) {}

  Tensor operator()(Tensor input) override { return input.sub(mean).div(stddev); }

  Tensor mean, stddev;

 private:
  static Tensor per_channel(ArrayRef<double> values) {
    return tensor(values, kFloat32).unsqueeze(/*dim=*/1).unsqueeze(/*dim=*/2);
  }
};

}  // namespace ember::data::transforms
