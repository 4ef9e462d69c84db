// data::TensorDataset: samples are the rows (dim 0) of several tensors of equal length.
#pragma once

#include <cstdint>
#include <vector>

#include "ember/macros.h"
#include "ember/tensor.h"

namespace ember::data {

class EMBER_API TensorDataset {
 public:
  explicit TensorDataset(std::vector<Tensor> tensors);
  int64_t size() const { return size_; }
  // Sample i: row i of every tensor.
  std::vector<Tensor> get(int64_t i) const;
  // The rows named by `indices` (int64, on the tensors' device) of every tensor, in that order.
  std::vector<Tensor> get_batch(const Tensor& indices) const;
  const std::vector<Tensor>& tensors() const { return tensors_; }

 private:
  std::vector<Tensor> tensors_;
  int64_t size_ = 0;
};

}  // namespace ember::data
