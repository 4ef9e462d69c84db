// The Gloo half of ProcessGroupGloo: Gloo's algorithms over flat, contiguous CPU tensors. The
// other half (process_group_gloo.cpp) checks arguments, stages tensors and orders the work; only
// this interface's implementation (gloo_context.cpp) includes Gloo, and builds without Gloo link
// no_gloo.cpp instead, whose connect_gloo throws.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ember/distributed/store.h"
#include "ember/distributed/types.h"
#include "ember/tensor.h"

namespace ember::distributed::detail {

// One point-to-point transfer in flight; wait() blocks until it is done.
class Transfer {
 public:
  virtual ~Transfer() = default;
  virtual void wait(std::chrono::milliseconds timeout) = 0;
  virtual int source_rank() const = 0;  // for a receive from any rank, once waited
};

// Every call takes flat contiguous CPU tensors of one dtype, a tag that tells apart the
// collectives of one group (its sequence number), and the timeout Gloo enforces.
class GlooContext {
 public:
  virtual ~GlooContext() = default;

  // Reduces the tensors of every rank (and of this rank's list) into each of `tensors`.
  virtual void allreduce(const std::vector<Tensor>& tensors, ReduceOp op, uint32_t tag,
                         std::chrono::milliseconds timeout) = 0;
  virtual void reduce(const Tensor& tensor, ReduceOp op, int root, uint32_t tag,
                      std::chrono::milliseconds timeout) = 0;
  virtual void broadcast(const Tensor& tensor, int root, uint32_t tag,
                         std::chrono::milliseconds timeout) = 0;
  // `output` holds size() inputs, in rank order.
  virtual void allgather(const Tensor& input, const Tensor& output, uint32_t tag,
                         std::chrono::milliseconds timeout) = 0;
  // `output` (root only; undefined elsewhere) holds size() inputs, in rank order.
  virtual void gather(const Tensor& input, const Tensor& output, int root, uint32_t tag,
                      std::chrono::milliseconds timeout) = 0;
  // `inputs` (root only; empty elsewhere) has one tensor per rank.
  virtual void scatter(const std::vector<Tensor>& inputs, const Tensor& output, int root,
                       uint32_t tag, std::chrono::milliseconds timeout) = 0;
  // Rank r's `input_counts[r]` elements go to it; `output_counts[r]` come from it.
  virtual void alltoallv(const Tensor& input, const std::vector<int64_t>& input_counts,
                         const Tensor& output, const std::vector<int64_t>& output_counts,
                         uint32_t tag, std::chrono::milliseconds timeout) = 0;
  virtual void barrier(uint32_t tag, std::chrono::milliseconds timeout) = 0;
  // Starts a transfer of `tensor`'s bytes to or from `rank` (-1: from any rank) on `slot`.
  virtual std::unique_ptr<Transfer> send(const Tensor& tensor, int rank, uint64_t slot) = 0;
  virtual std::unique_ptr<Transfer> recv(const Tensor& tensor, int rank, uint64_t slot) = 0;
};

// Connects this rank to the others of a group of `size` through `store` (Gloo's full mesh of TCP
// pairs). `hostname` is the address the others reach this rank at (empty: the default).
std::unique_ptr<GlooContext> connect_gloo(Store& store, int rank, int size,
                                          const std::string& hostname,
                                          std::chrono::milliseconds timeout);

}  // namespace ember::distributed::detail
