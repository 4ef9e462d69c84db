// ProcessGroupNCCL: collectives on CUDA tensors over NCCL (LibTorch's c10d::ProcessGroupNCCL),
// one GPU per rank: the GPU of the group's first collective. NCCL is loaded on first use
// (libnccl.so.2); builds without CUDA have the class, and its first collective throws
// ember::NotCompiledError.
//
// As LibTorch's, a collective returns once its work is queued: on the group's own stream of the
// GPU, after the work already queued on the caller's current stream. Work::wait() makes the
// caller's current stream wait for it (the host goes on), except after barrier(), whose wait()
// blocks the host; wait(timeout) blocks the host up to `timeout` and throws past it. Not in
// <ember/distributed.h>, as LibTorch keeps it out of <torch/torch.h>.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "ember/distributed/process_group.h"
#include "ember/distributed/store.h"

namespace ember::distributed {

class EMBER_API ProcessGroupNCCL : public ProcessGroup {
 public:
  struct EMBER_API Options : public ProcessGroup::Options {
    explicit Options(bool is_high_priority_stream = false);
    static intrusive_ptr<Options> create(bool is_high_priority_stream = false) {
      return make_intrusive<Options>(is_high_priority_stream);
    }
    // The group's stream is made with high priority.
    bool is_high_priority_stream;
  };

  ProcessGroupNCCL(const intrusive_ptr<Store>& store, int rank, int size,
                   intrusive_ptr<Options> options = Options::create());
  ~ProcessGroupNCCL() override;

  const std::string getBackendName() const override { return "nccl"; }
  intrusive_ptr<Options> getOptions() { return options_; }

  intrusive_ptr<Work> broadcast(std::vector<Tensor>& tensors,
                                const BroadcastOptions& opts = BroadcastOptions()) override;
  intrusive_ptr<Work> allreduce(std::vector<Tensor>& tensors,
                                const AllreduceOptions& opts = AllreduceOptions()) override;
  intrusive_ptr<Work> reduce(std::vector<Tensor>& tensors,
                             const ReduceOptions& opts = ReduceOptions()) override;
  intrusive_ptr<Work> allgather(std::vector<std::vector<Tensor>>& outputTensors,
                                std::vector<Tensor>& inputTensors,
                                const AllgatherOptions& opts = AllgatherOptions()) override;
  intrusive_ptr<Work> _allgather_base(Tensor& outputBuffer, Tensor& inputBuffer,
                                      const AllgatherOptions& opts = AllgatherOptions()) override;
  intrusive_ptr<Work> reduce_scatter(
      std::vector<Tensor>& outputTensors, std::vector<std::vector<Tensor>>& inputTensors,
      const ReduceScatterOptions& opts = ReduceScatterOptions()) override;
  intrusive_ptr<Work> _reduce_scatter_base(
      Tensor& outputBuffer, Tensor& inputBuffer,
      const ReduceScatterOptions& opts = ReduceScatterOptions()) override;
  intrusive_ptr<Work> send(std::vector<Tensor>& tensors, int dstRank, int tag) override;
  intrusive_ptr<Work> recv(std::vector<Tensor>& tensors, int srcRank, int tag) override;
  intrusive_ptr<Work> barrier(const BarrierOptions& opts = BarrierOptions()) override;

  // The communicator, the GPU and the group's stream, kept out of this header.
  struct State;

 private:
  const intrusive_ptr<Options> options_;
  std::unique_ptr<State> state_;
};

}  // namespace ember::distributed
