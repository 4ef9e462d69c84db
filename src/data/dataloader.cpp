// TensorDataset and DataLoader: row selection with index_select, seeded shuffling, delivery to
// the model's device.
#include <algorithm>
#include <numeric>
#include <random>

#include "core/check.h"
#include "ember/cuda.h"
#include "ember/data/dataloader.h"
#include "ember/factory.h"
#include "ember/shape_ops.h"

namespace ember::data {

TensorDataset::TensorDataset(std::vector<Tensor> tensors) : tensors_(std::move(tensors)) {
  EMBER_CHECK_T(ValueError, !tensors_.empty(), "[TensorDataset] needs at least one tensor");
  for (size_t i = 0; i < tensors_.size(); ++i) {
    EMBER_CHECK_T(ValueError, tensors_[i].defined() && tensors_[i].dim() >= 1,
                  "[TensorDataset] "
                  "tensor ",
                  i, " must have at least one dimension (the samples)");
    EMBER_CHECK_T(ValueError, tensors_[i].size(0) == tensors_[0].size(0),
                  "[TensorDataset] Size "
                  "mismatch between tensors: tensor 0 has ",
                  tensors_[0].size(0), " samples but tensor ", i, " has ", tensors_[i].size(0));
  }
  size_ = tensors_[0].size(0);
}

std::vector<Tensor> TensorDataset::get(int64_t i) const {
  EMBER_CHECK_T(IndexError, i >= -size_ && i < size_, "[TensorDataset] index ", i,
                " is out of range for a dataset of ", size_, " samples");
  std::vector<Tensor> out;
  for (const Tensor& t : tensors_) out.push_back(t[i]);
  return out;
}

std::vector<Tensor> TensorDataset::get_batch(const Tensor& indices) const {
  std::vector<Tensor> out;
  for (const Tensor& t : tensors_) out.push_back(index_select(t, 0, indices.to(t.device())));
  return out;
}

DataLoader::DataLoader(TensorDataset dataset, DataLoaderOptions options)
    : dataset_(std::move(dataset)), options_(options) {
  EMBER_CHECK_T(ValueError, options_.batch_size >= 1,
                "[DataLoader] batch_size should be a "
                "positive integer value, but got batch_size=",
                options_.batch_size);
}

int64_t DataLoader::num_batches() const {
  int64_t n = dataset_.size(), b = options_.batch_size;
  return options_.drop_last ? n / b : (n + b - 1) / b;
}

DataLoader::Iterator DataLoader::begin() const {
  Iterator it(this, 0);
  const int64_t n = dataset_.size();
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), int64_t{0});
  if (options_.shuffle) {
    // A fixed seed gives epoch e the order of (seed, e); otherwise draw from ember's generator.
    uint64_t seed = options_.seed
                        ? *options_.seed + epoch_
                        : static_cast<uint64_t>(randint(0, int64_t{1} << 62, {1}).item<int64_t>());
    std::mt19937_64 rng(seed);
    std::shuffle(order.begin(), order.end(), rng);
  }
  ++epoch_;
  Tensor host = empty({n}, kInt64);
  std::copy(order.begin(), order.end(), host.data_ptr<int64_t>());
  it.order_ = host.to(dataset_.tensors()[0].device());
  return it;
}

Batch DataLoader::batch(const Tensor& order, int64_t index) const {
  int64_t start = index * options_.batch_size;
  int64_t length = std::min(options_.batch_size, dataset_.size() - start);
  Batch batch = dataset_.get_batch(order.narrow(0, start, length));
  const bool pin = options_.pin_memory && cuda::is_available();
  for (Tensor& t : batch) {
    // The pinned copy may be freed while the copy to the GPU still reads it: the pinned memory's
    // allocator then holds it back until that copy is done.
    if (pin && t.is_cpu()) t = t.pin_memory();
    t = t.to(options_.device, /*non_blocking=*/options_.device.is_cuda());
  }
  return batch;
}

}  // namespace ember::data
