// Work: the handle a collective returns (LibTorch's c10d::Work). Collectives run in the order
// they were issued on the process group's own thread; the caller goes on and later asks whether
// its work is done, waits for it, or reads the error it ended with.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ember/distributed/types.h"
#include "ember/macros.h"
#include "ember/tensor.h"

namespace ember::distributed {

enum class OpType : std::uint8_t {
  BROADCAST = 0,
  ALLREDUCE = 1,
  ALLREDUCE_COALESCED = 2,
  REDUCE = 3,
  ALLGATHER = 4,
  _ALLGATHER_BASE = 5,
  ALLGATHER_COALESCED = 6,
  GATHER = 7,
  SCATTER = 8,
  REDUCE_SCATTER = 9,
  ALLTOALL_BASE = 10,
  ALLTOALL = 11,
  SEND = 12,
  RECV = 13,
  RECVANYSOURCE = 14,
  BARRIER = 15,
  _REDUCE_SCATTER_BASE = 16,
  UNKNOWN = 100,
};

// "allreduce", "broadcast", ...: the names LibTorch gives each op.
EMBER_API std::string opTypeToString(OpType opType);

class EMBER_API Work {
 public:
  explicit Work(int rank = -1, OpType opType = OpType::UNKNOWN,
                const char* profilingTitle = nullptr,
                const std::optional<std::vector<Tensor>>& inputTensors = std::nullopt);
  virtual ~Work();
  Work(const Work&) = delete;
  Work& operator=(const Work&) = delete;

  virtual bool isCompleted();
  // Completed without an error (false while it runs).
  virtual bool isSuccess() const;
  virtual std::exception_ptr exception() const;
  // The rank a recv from any source received from.
  virtual int sourceRank() const;
  // The output tensors, once completed.
  virtual std::vector<Tensor> result();
  // For CPU work the same as waiting: results are in place when the work completes.
  virtual void synchronize();
  // Blocks until the work completes (kNoTimeout: however long that takes) and rethrows its
  // error; returns true. Past `timeout` it throws an ember::Error naming the op.
  virtual bool wait(std::chrono::milliseconds timeout = kNoTimeout);
  virtual void abort();
  OpType retrieveOpType();

 protected:
  // Marks the work completed, with the error it ended with (if any), and wakes its waiters.
  void finish(std::exception_ptr exception = nullptr);
  void finishAndThrow(std::exception_ptr exception);

  mutable std::mutex mutex_;
  std::condition_variable cv_;
  bool completed_ = false;
  std::exception_ptr exception_;
  const int rank_;
  OpType opType_;
  std::vector<Tensor> outputs_;
};

}  // namespace ember::distributed
