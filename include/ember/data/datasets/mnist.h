// datasets::MNIST: the IDX files of MNIST (or Fashion-MNIST) in `root`, under LibTorch's names
// (train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-...): images [N, 1, H, W] float32 in
// [0, 1], targets [N] int64. Unlike LibTorch, any number of images of any size is read (LibTorch
// insists on 60000 or 10000 of 28x28), so small files and the 8x8 digits load too.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "ember/data/datasets/base.h"
#include "ember/macros.h"

namespace ember::data::datasets {

class EMBER_API MNIST : public Dataset<MNIST> {
 public:
  enum class Mode { kTrain, kTest };

  explicit MNIST(const std::string& root, Mode mode = Mode::kTrain);

  Example<> get(size_t index) override;
  std::optional<size_t> size() const override;
  bool is_train() const noexcept;
  const Tensor& images() const;
  const Tensor& targets() const;

 private:
  Tensor images_, targets_;
  Mode mode_;
};

}  // namespace ember::data::datasets
