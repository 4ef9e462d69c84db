// The NCCL half of ProcessGroupNCCL: one NCCL call per collective, queued on a stream, over
// contiguous CUDA tensors of the group's GPU. The other half (process_group_nccl.cpp) checks
// arguments, stages tensors and orders the streams; only this interface's implementation
// (nccl_context.cpp, which loads NCCL on first use) touches NCCL, and builds without CUDA or the
// toolkit's nccl.h link no_nccl.cpp instead, whose connect_nccl throws.
#pragma once

#include <memory>

#include "ember/device.h"
#include "ember/distributed/store.h"
#include "ember/distributed/types.h"
#include "ember/stream.h"
#include "ember/tensor.h"

namespace ember::distributed::detail {

class NcclContext {
 public:
  virtual ~NcclContext() = default;

  // `out` may be `in` (in place). Every call queues its work on `stream` and returns.
  virtual void all_reduce(const Tensor& in, const Tensor& out, ReduceOp op,
                          const Stream& stream) = 0;
  virtual void broadcast(const Tensor& tensor, int root, const Stream& stream) = 0;
  virtual void reduce(const Tensor& tensor, ReduceOp op, int root, const Stream& stream) = 0;
  // `out` holds size() inputs, in rank order.
  virtual void all_gather(const Tensor& in, const Tensor& out, const Stream& stream) = 0;
  // `in` holds size() pieces like `out`, one per rank.
  virtual void reduce_scatter(const Tensor& in, const Tensor& out, ReduceOp op,
                              const Stream& stream) = 0;
  virtual void send(const Tensor& tensor, int peer, const Stream& stream) = 0;
  virtual void recv(const Tensor& tensor, int peer, const Stream& stream) = 0;
  // Stops the communicator's pending work (a peer that died): the destructor then frees nothing
  // NCCL still uses.
  virtual void abort() noexcept = 0;
};

// Joins the ranks' NCCL communicator on `device`: rank 0 makes its unique id and shares it
// through `store` under `key`.
std::unique_ptr<NcclContext> connect_nccl(Store& store, const std::string& key, int rank, int size,
                                          Device device);
// Whether NCCL can be loaded (libnccl.so.2).
bool nccl_loadable() noexcept;

}  // namespace ember::distributed::detail
