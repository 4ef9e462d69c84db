// Reducer: DistributedDataParallel's gradient averaging (include/ember/nn/parallel/distributed.h).
//
// Note [Gradient buckets]
// The parameters that require grad are grouped into buckets, one flat tensor per bucket, in
// reverse order (backward reaches the last layers first), one dtype and device per bucket; a
// bucket closes once it holds `first_bucket_bytes` (the first of its dtype and device) or
// `bucket_bytes` (the rest). Each parameter's post-accumulate-grad hook copies its finished
// .grad, divided by the world size, into its slot; when a bucket's last slot is filled, it and
// every full bucket after it are all-reduced (SUM: the average) on the group's thread, strictly
// in bucket order, so that every rank issues the same collectives in the same order whatever
// order its gradients arrive in. The end of the backward pass (an Engine callback) all-reduces
// what is left, waits for every bucket and copies each slot back into its .grad; with
// gradient_as_bucket_view each .grad becomes its slot instead, so that later passes accumulate
// straight into the bucket and nothing is copied back.
//
// Behind its gradients each bucket holds one flag per parameter, 1 on a rank where the
// parameter got no gradient (its slot is then zeros). The all-reduce sums them, so every rank
// learns how many ranks missed each parameter without another collective, and all ranks agree on
// the error, or (find_unused_parameters) on which .grads to leave alone. (The flags are in the
// gradients' dtype: exact up to 256 ranks in bfloat16, 2048 in float16.)
//
// As PyTorch's, a reentrant backward (one run inside another's hook or custom function) that
// reaches the parameters is not supported: its end would finish the outer pass's reduction early.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ember/distributed/process_group.h"
#include "ember/tensor.h"

namespace ember::distributed {

class Reducer : public std::enable_shared_from_this<Reducer> {
 public:
  struct Parameter {
    std::string name;
    Tensor tensor;  // a leaf that requires grad
  };

  // Buckets `parameters` and hooks them; they must be the same on every rank of `group`.
  static std::shared_ptr<Reducer> create(std::vector<Parameter> parameters,
                                         intrusive_ptr<ProcessGroup> group,
                                         std::size_t first_bucket_bytes, std::size_t bucket_bytes,
                                         bool find_unused_parameters, bool gradient_as_bucket_view);
  Reducer(const Reducer&) = delete;
  Reducer& operator=(const Reducer&) = delete;
  ~Reducer();  // removes the hooks

  // Before each forward: whether the backward pass after it averages the gradients (sync), or
  // leaves them local (no_sync()).
  void prepare_for_backward(bool sync);
  // Makes the end of the running backward pass all-reduce and copy back, once per pass (also
  // where no parameter of this rank gets a gradient: the other ranks wait for its buckets).
  void queue_finish();
  std::size_t bucket_count() const { return buckets_.size(); }
  // One line per bucket: "Float[1034] on cpu: fc2.bias, fc2.weight".
  std::vector<std::string> bucket_layout() const;

 private:
  struct Bucket {
    Tensor flat;                       // the gradients, then one flag per parameter
    std::vector<std::size_t> members;  // indices into parameters_
    std::vector<int64_t> offsets;      // each member's first element in flat
    int64_t gradient_elements = 0;     // where the flags start
    std::size_t pending = 0;           // members whose gradient has not arrived this pass
    intrusive_ptr<Work> work;
  };

  Reducer(std::vector<Parameter> parameters, intrusive_ptr<ProcessGroup> group,
          bool find_unused_parameters, bool gradient_as_bucket_view);
  void assign_buckets(std::size_t first_bucket_bytes, std::size_t bucket_bytes);
  void install_hooks();
  Tensor slot(std::size_t parameter) const;
  // The post-accumulate-grad hook of parameters_[index].
  void on_gradient(std::size_t index);
  void launch_full_buckets();
  // The end of the backward pass.
  void finish();

  std::vector<Parameter> parameters_;
  std::vector<unsigned> hook_handles_;
  std::vector<std::size_t> bucket_of_;    // per parameter
  std::vector<std::size_t> position_in_;  // per parameter: its place among its bucket's members
  std::vector<Bucket> buckets_;
  intrusive_ptr<ProcessGroup> group_;
  bool find_unused_parameters_;
  bool gradient_as_bucket_view_;

  // One backward pass's state.
  bool expecting_backward_ = false;
  bool finish_queued_ = false;
  std::vector<bool> arrived_;  // per parameter
  std::size_t next_launch_ = 0;
};

}  // namespace ember::distributed
