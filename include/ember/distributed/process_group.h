// ProcessGroup: a set of ranks that run collectives together (LibTorch's c10d::ProcessGroup).
// Each backend (ProcessGroupGloo) overrides the collectives it has; the others throw an
// ember::NotImplementedError naming the backend and the op. Every call takes its tensors by
// reference, as LibTorch's do, and returns the Work to wait on.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "ember/distributed/types.h"
#include "ember/distributed/work.h"
#include "ember/intrusive_ptr.h"
#include "ember/macros.h"
#include "ember/tensor.h"

namespace ember::distributed {

// PyTorch's default_pg_timeout.
inline constexpr std::chrono::milliseconds kProcessGroupDefaultTimeout = std::chrono::minutes(30);

class EMBER_API ProcessGroup {
 public:
  struct EMBER_API Options {
    explicit Options(std::string backend,
                     std::chrono::milliseconds timeout = kProcessGroupDefaultTimeout)
        : timeout(timeout), backend(std::move(backend)) {}
    virtual ~Options() = default;

    std::chrono::milliseconds timeout;
    const std::string backend;
  };

  ProcessGroup(int rank, int size);
  virtual ~ProcessGroup();
  ProcessGroup(const ProcessGroup&) = delete;
  ProcessGroup& operator=(const ProcessGroup&) = delete;

  int getRank() const { return rank_; }
  int getSize() const { return size_; }
  virtual const std::string getBackendName() const = 0;

  virtual intrusive_ptr<Work> broadcast(std::vector<Tensor>& tensors,
                                        const BroadcastOptions& opts = BroadcastOptions());
  virtual intrusive_ptr<Work> allreduce(std::vector<Tensor>& tensors,
                                        const AllreduceOptions& opts = AllreduceOptions());
  virtual intrusive_ptr<Work> allreduce_coalesced(
      std::vector<Tensor>& tensors,
      const AllreduceCoalescedOptions& opts = AllreduceCoalescedOptions());
  virtual intrusive_ptr<Work> reduce(std::vector<Tensor>& tensors,
                                     const ReduceOptions& opts = ReduceOptions());
  virtual intrusive_ptr<Work> allgather(std::vector<std::vector<Tensor>>& outputTensors,
                                        std::vector<Tensor>& inputTensors,
                                        const AllgatherOptions& opts = AllgatherOptions());
  virtual intrusive_ptr<Work> _allgather_base(Tensor& outputBuffer, Tensor& inputBuffer,
                                              const AllgatherOptions& opts = AllgatherOptions());
  virtual intrusive_ptr<Work> gather(std::vector<std::vector<Tensor>>& outputTensors,
                                     std::vector<Tensor>& inputTensors,
                                     const GatherOptions& opts = GatherOptions());
  virtual intrusive_ptr<Work> scatter(std::vector<Tensor>& outputTensors,
                                      std::vector<std::vector<Tensor>>& inputTensors,
                                      const ScatterOptions& opts = ScatterOptions());
  virtual intrusive_ptr<Work> reduce_scatter(
      std::vector<Tensor>& outputTensors, std::vector<std::vector<Tensor>>& inputTensors,
      const ReduceScatterOptions& opts = ReduceScatterOptions());
  virtual intrusive_ptr<Work> _reduce_scatter_base(
      Tensor& outputBuffer, Tensor& inputBuffer,
      const ReduceScatterOptions& opts = ReduceScatterOptions());
  virtual intrusive_ptr<Work> alltoall_base(Tensor& outputBuffer, Tensor& inputBuffer,
                                            std::vector<int64_t>& outputSplitSizes,
                                            std::vector<int64_t>& inputSplitSizes,
                                            const AllToAllOptions& opts = AllToAllOptions());
  virtual intrusive_ptr<Work> alltoall(std::vector<Tensor>& outputTensors,
                                       std::vector<Tensor>& inputTensors,
                                       const AllToAllOptions& opts = AllToAllOptions());
  virtual intrusive_ptr<Work> send(std::vector<Tensor>& tensors, int dstRank, int tag);
  virtual intrusive_ptr<Work> recv(std::vector<Tensor>& tensors, int srcRank, int tag);
  virtual intrusive_ptr<Work> recvAnysource(std::vector<Tensor>& tensors, int tag);
  virtual intrusive_ptr<Work> barrier(const BarrierOptions& opts = BarrierOptions());

 protected:
  const int rank_;
  const int size_;
};

}  // namespace ember::distributed
