// ProcessGroupGloo: collectives over Gloo's TCP transport, for CPU tensors, and CUDA tensors
// through host copies in broadcast, allreduce, reduce and allgather (LibTorch's
// c10d::ProcessGroupGloo). The ranks find each other through a Store; each rank's collectives
// then run in the order they were issued on the group's own thread, and send/recv go directly.
// Builds without Gloo have the class, whose constructor throws ember::NotCompiledError.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "ember/distributed/process_group.h"
#include "ember/distributed/store.h"

namespace ember::distributed {

class EMBER_API ProcessGroupGloo : public ProcessGroup {
 public:
  struct EMBER_API Options : public ProcessGroup::Options {
    explicit Options(std::chrono::milliseconds timeout = kProcessGroupDefaultTimeout);
    static intrusive_ptr<Options> create(
        std::chrono::milliseconds timeout = kProcessGroupDefaultTimeout) {
      return make_intrusive<Options>(timeout);
    }

    // The address the other ranks reach this one at (LibTorch passes a Gloo device made for it).
    // Empty: GLOO_SOCKET_IFNAME's interface when set, else this machine's hostname when it
    // resolves, else 127.0.0.1.
    std::string hostname;
  };

  ProcessGroupGloo(const intrusive_ptr<Store>& store, int rank, int size,
                   intrusive_ptr<Options> options = Options::create());
  ~ProcessGroupGloo() override;

  const std::string getBackendName() const override { return "gloo"; }
  intrusive_ptr<Options> getOptions() { return options_; }

  intrusive_ptr<Work> broadcast(std::vector<Tensor>& tensors,
                                const BroadcastOptions& opts = BroadcastOptions()) override;
  intrusive_ptr<Work> allreduce(std::vector<Tensor>& tensors,
                                const AllreduceOptions& opts = AllreduceOptions()) override;
  intrusive_ptr<Work> allreduce_coalesced(
      std::vector<Tensor>& tensors,
      const AllreduceCoalescedOptions& opts = AllreduceCoalescedOptions()) override;
  intrusive_ptr<Work> reduce(std::vector<Tensor>& tensors,
                             const ReduceOptions& opts = ReduceOptions()) override;
  intrusive_ptr<Work> allgather(std::vector<std::vector<Tensor>>& outputTensors,
                                std::vector<Tensor>& inputTensors,
                                const AllgatherOptions& opts = AllgatherOptions()) override;
  intrusive_ptr<Work> _allgather_base(Tensor& outputBuffer, Tensor& inputBuffer,
                                      const AllgatherOptions& opts = AllgatherOptions()) override;
  intrusive_ptr<Work> gather(std::vector<std::vector<Tensor>>& outputTensors,
                             std::vector<Tensor>& inputTensors,
                             const GatherOptions& opts = GatherOptions()) override;
  intrusive_ptr<Work> scatter(std::vector<Tensor>& outputTensors,
                              std::vector<std::vector<Tensor>>& inputTensors,
                              const ScatterOptions& opts = ScatterOptions()) override;
  intrusive_ptr<Work> reduce_scatter(
      std::vector<Tensor>& outputTensors, std::vector<std::vector<Tensor>>& inputTensors,
      const ReduceScatterOptions& opts = ReduceScatterOptions()) override;
  intrusive_ptr<Work> _reduce_scatter_base(
      Tensor& outputBuffer, Tensor& inputBuffer,
      const ReduceScatterOptions& opts = ReduceScatterOptions()) override;
  intrusive_ptr<Work> alltoall_base(Tensor& outputBuffer, Tensor& inputBuffer,
                                    std::vector<int64_t>& outputSplitSizes,
                                    std::vector<int64_t>& inputSplitSizes,
                                    const AllToAllOptions& opts = AllToAllOptions()) override;
  intrusive_ptr<Work> alltoall(std::vector<Tensor>& outputTensors,
                               std::vector<Tensor>& inputTensors,
                               const AllToAllOptions& opts = AllToAllOptions()) override;
  intrusive_ptr<Work> send(std::vector<Tensor>& tensors, int dstRank, int tag) override;
  intrusive_ptr<Work> recv(std::vector<Tensor>& tensors, int srcRank, int tag) override;
  intrusive_ptr<Work> recvAnysource(std::vector<Tensor>& tensors, int tag) override;
  intrusive_ptr<Work> barrier(const BarrierOptions& opts = BarrierOptions()) override;

  // Gloo's state (its context, the group's thread and queue), kept out of this header so that
  // programs build without Gloo's headers.
  struct State;

 private:
  const intrusive_ptr<Options> options_;
  std::unique_ptr<State> state_;
};

}  // namespace ember::distributed
