// ProcessGroupNCCL's front half: argument checks, staging into contiguous tensors, the group's
// stream and the Work that waits for it. NCCL itself is behind NcclContext (nccl_context.h).
#include "ember/distributed/process_group_nccl.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "core/check.h"
#include "distributed/collective_args.h"
#include "distributed/nccl_context.h"
#include "ember/cuda.h"
#include "ember/factory.h"
#include "ember/stream.h"

namespace ember::distributed {
namespace {

using detail::check_peer;
using detail::check_rank;
using detail::concatenate;
using detail::describe;
using detail::joined;
using detail::one_list_like;
using detail::split_into;
using detail::Staged;

constexpr const char* kNccl = "ProcessGroupNCCL";  // the group, as messages name it

// A collective queued on the group's stream: done once that stream passes its event.
class NcclWork final : public Work {
 public:
  NcclWork(int rank, OpType type, std::vector<Tensor> outputs, const Stream& stream,
           bool blocks_host, std::string what)
      : Work(rank, type),
        done_(DeviceType::CUDA),
        device_(stream.device()),
        blocks_host_(blocks_host),
        what_(std::move(what)) {
    outputs_ = std::move(outputs);
    done_.record(stream);
  }

  bool isCompleted() override { return done_.query(); }
  bool isSuccess() const override { return done_.query(); }
  std::vector<Tensor> result() override { return outputs_; }
  // The caller's current stream waits for the collective; the host too after a barrier.
  void synchronize() override {
    done_.wait(current_stream(device_));
    if (blocks_host_) done_.synchronize();
  }
  bool wait(std::chrono::milliseconds timeout) override {
    if (timeout != kNoTimeout) {
      const auto deadline = std::chrono::steady_clock::now() + timeout;
      while (!done_.query()) {
        EMBER_CHECK(std::chrono::steady_clock::now() < deadline, "[ProcessGroupNCCL] ", what_,
                    " on rank ", rank_, " has not completed after ", timeout.count(),
                    " ms; check that every rank of its group issued it (NCCL_DEBUG=INFO shows "
                    "each rank's calls)");
        std::this_thread::sleep_for(std::chrono::microseconds(50));
      }
    }
    synchronize();
    return true;
  }

 private:
  Event done_;
  Device device_;
  bool blocks_host_;
  std::string what_;
};

}  // namespace

struct ProcessGroupNCCL::State {
  intrusive_ptr<Store> store;
  int rank = 0, size = 0;
  bool high_priority = false;
  std::mutex mutex;  // collectives may be issued from several threads
  std::unique_ptr<detail::NcclContext> nccl;
  std::optional<Device> device;  // the GPU of the first collective
  std::optional<Stream> stream;  // the group's stream on it
  uint64_t next_sequence = 0;

  // Tensors the collective `op` may take: defined, on the group's GPU.
  void check(const char* op, const std::vector<Tensor>& tensors) const {
    EMBER_CHECK_T(ValueError, !tensors.empty(), "[ProcessGroupNCCL.", op,
                  "] needs at least one tensor; the list is empty");
    for (const Tensor& t : tensors) {
      EMBER_CHECK_T(ValueError, t.defined(), "[ProcessGroupNCCL.", op, "] a tensor is undefined");
      EMBER_CHECK_T(ValueError, t.is_cuda(), "[ProcessGroupNCCL.", op, "] got a tensor on ",
                    t.device(),
                    "; NCCL takes CUDA tensors: move it with .cuda(), or use the "
                    "gloo backend for CPU tensors");
      const Device expected = device ? *device : tensors.front().device();
      EMBER_CHECK_T(ValueError, t.device() == expected, "[ProcessGroupNCCL.", op,
                    "] got a tensor on ", t.device(), " but the group runs on ", expected,
                    " (one GPU per rank, that of its first collective); move it there");
      EMBER_CHECK_T(TypeError, t.scalar_type() == tensors.front().scalar_type(),
                    "[ProcessGroupNCCL.", op, "] the tensors differ in dtype (",
                    describe(tensors.front()), " and ", describe(t), ")");
    }
  }

  // Queues launch(nccl, stream) on the group's stream after the caller's, every tensor of
  // `touched` recorded as used there (the caching allocator keeps it until the stream is done).
  template <class Launch>
  intrusive_ptr<Work> run(const char* op, OpType type, const std::vector<Tensor>& touched,
                          std::vector<Tensor> outputs, const std::string& operands,
                          const Launch& launch, bool blocks_host = false) {
    std::lock_guard<std::mutex> lock(mutex);
    const Device gpu = touched.front().device();
    if (!nccl) {
      // A key of its own per communicator this process makes: a group made again on the same
      // store (destroy_process_group, then init_process_group) must not read the old id.
      static std::atomic<uint64_t> communicators{0};
      nccl = detail::connect_nccl(*store, str("nccl/unique_id/", communicators++), rank, size, gpu);
      device = gpu;
      stream = get_stream_from_pool(gpu, high_priority);
    }
    EMBER_CHECK_T(ValueError, gpu == *device, "[ProcessGroupNCCL.", op, "] got tensors on ", gpu,
                  " but the group runs on ", *device, " (one GPU per rank); move them there");
    stream->wait_stream(current_stream(gpu));
    for (const Tensor& t : touched) t.record_stream(*stream);
    {
      StreamGuard on_stream(*stream);
      launch(*nccl, *stream);
    }
    const uint64_t sequence = next_sequence++;
    return std::make_shared<NcclWork>(rank, type, std::move(outputs), *stream, blocks_host,
                                      str(op, " #", sequence, " ", operands));
  }
};

ProcessGroupNCCL::Options::Options(bool is_high_priority_stream)
    : ProcessGroup::Options("nccl"), is_high_priority_stream(is_high_priority_stream) {}

ProcessGroupNCCL::ProcessGroupNCCL(const intrusive_ptr<Store>& store, int rank, int size,
                                   intrusive_ptr<Options> options)
    : ProcessGroup(rank, size), options_(std::move(options)), state_(std::make_unique<State>()) {
  EMBER_CHECK_T(ValueError, store != nullptr, "[ProcessGroupNCCL] the store is null");
  state_->store = store;
  state_->rank = rank;
  state_->size = size;
  state_->high_priority = options_->is_high_priority_stream;
}

ProcessGroupNCCL::~ProcessGroupNCCL() {
  if (!state_->nccl) return;
  // The communicator goes after its last collective, or, when that has not finished within the
  // group's timeout (a peer died), is aborted rather than waited for forever, as LibTorch's.
  const auto deadline = std::chrono::steady_clock::now() + options_->timeout;
  try {
    while (!state_->stream->query()) {
      if (std::chrono::steady_clock::now() >= deadline) {
        state_->nccl->abort();
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  } catch (const std::exception&) {
    state_->nccl->abort();  // a failed GPU
  }
}

namespace {

void check_one(const char* op, const std::vector<Tensor>& tensors) {
  EMBER_CHECK_T(ValueError, tensors.size() == 1, "[ProcessGroupNCCL.", op,
                "] takes one tensor (one GPU per rank), got ", tensors.size());
}

}  // namespace

intrusive_ptr<Work> ProcessGroupNCCL::broadcast(std::vector<Tensor>& tensors,
                                                const BroadcastOptions& opts) {
  state_->check("broadcast", tensors);
  check_one("broadcast", tensors);
  check_rank(kNccl, "broadcast", "root rank", opts.rootRank, size_);
  const Tensor tensor = tensors.front();
  const int root = static_cast<int>(opts.rootRank);
  return state_->run("broadcast", OpType::BROADCAST, tensors, tensors, describe(tensor),
                     [&](detail::NcclContext& nccl, const Stream& stream) {
                       Staged staged(tensor, Staged::kOnDevice);
                       nccl.broadcast(staged.flat, root, stream);
                       staged.write_back();
                     });
}

intrusive_ptr<Work> ProcessGroupNCCL::allreduce(std::vector<Tensor>& tensors,
                                                const AllreduceOptions& opts) {
  state_->check("allreduce", tensors);
  check_one("allreduce", tensors);
  const Tensor tensor = tensors.front();
  return state_->run("allreduce", OpType::ALLREDUCE, tensors, tensors, describe(tensor),
                     [&](detail::NcclContext& nccl, const Stream& stream) {
                       Staged staged(tensor, Staged::kOnDevice);
                       nccl.all_reduce(staged.flat, staged.flat, opts.reduceOp, stream);
                       staged.write_back();
                     });
}

intrusive_ptr<Work> ProcessGroupNCCL::reduce(std::vector<Tensor>& tensors,
                                             const ReduceOptions& opts) {
  state_->check("reduce", tensors);
  check_one("reduce", tensors);
  check_rank(kNccl, "reduce", "root rank", opts.rootRank, size_);
  const Tensor tensor = tensors.front();
  const int root = static_cast<int>(opts.rootRank);
  return state_->run("reduce", OpType::REDUCE, tensors, tensors, describe(tensor),
                     [&](detail::NcclContext& nccl, const Stream& stream) {
                       Staged staged(tensor, Staged::kOnDevice);
                       nccl.reduce(staged.flat, opts.reduceOp, root, stream);
                       staged.write_back();
                     });
}

intrusive_ptr<Work> ProcessGroupNCCL::allgather(std::vector<std::vector<Tensor>>& outputTensors,
                                                std::vector<Tensor>& inputTensors,
                                                const AllgatherOptions&) {
  state_->check("allgather", inputTensors);
  check_one("allgather", inputTensors);
  const Tensor input = inputTensors.front();
  const std::vector<Tensor> outputs =
      one_list_like(kNccl, "allgather", "output", outputTensors, input, size_);
  return state_->run("allgather", OpType::ALLGATHER, joined(inputTensors, outputs), outputs,
                     describe(input), [&](detail::NcclContext& nccl, const Stream& stream) {
                       Tensor gathered = empty({size_ * input.numel()}, input.options());
                       nccl.all_gather(Staged(input, Staged::kOnDevice).flat, gathered, stream);
                       split_into(gathered, outputs);
                     });
}

intrusive_ptr<Work> ProcessGroupNCCL::_allgather_base(Tensor& outputBuffer, Tensor& inputBuffer,
                                                      const AllgatherOptions&) {
  state_->check("_allgather_base", {inputBuffer, outputBuffer});
  EMBER_CHECK_T(ValueError, outputBuffer.numel() == size_ * inputBuffer.numel(),
                "[ProcessGroupNCCL._allgather_base] the output ", describe(outputBuffer),
                " must hold ", size_, " inputs ", describe(inputBuffer));
  const Tensor input = inputBuffer, output = outputBuffer;
  return state_->run("_allgather_base", OpType::_ALLGATHER_BASE, {input, output}, {output},
                     describe(input), [&](detail::NcclContext& nccl, const Stream& stream) {
                       Staged out(output, Staged::kOnDevice);
                       nccl.all_gather(Staged(input, Staged::kOnDevice).flat, out.flat, stream);
                       out.write_back();
                     });
}

intrusive_ptr<Work> ProcessGroupNCCL::reduce_scatter(std::vector<Tensor>& outputTensors,
                                                     std::vector<std::vector<Tensor>>& inputTensors,
                                                     const ReduceScatterOptions& opts) {
  state_->check("reduce_scatter", outputTensors);
  check_one("reduce_scatter", outputTensors);
  const Tensor output = outputTensors.front();
  const std::vector<Tensor> inputs =
      one_list_like(kNccl, "reduce_scatter", "input", inputTensors, output, size_);
  return state_->run("reduce_scatter", OpType::REDUCE_SCATTER, joined(inputs, outputTensors),
                     {output}, describe(output),
                     [&](detail::NcclContext& nccl, const Stream& stream) {
                       Staged out(output, Staged::kOnDevice);
                       nccl.reduce_scatter(concatenate(inputs), out.flat, opts.reduceOp, stream);
                       out.write_back();
                     });
}

intrusive_ptr<Work> ProcessGroupNCCL::_reduce_scatter_base(Tensor& outputBuffer,
                                                           Tensor& inputBuffer,
                                                           const ReduceScatterOptions& opts) {
  state_->check("_reduce_scatter_base", {inputBuffer, outputBuffer});
  EMBER_CHECK_T(ValueError, inputBuffer.numel() == size_ * outputBuffer.numel(),
                "[ProcessGroupNCCL._reduce_scatter_base] the input ", describe(inputBuffer),
                " must hold ", size_, " outputs ", describe(outputBuffer));
  const Tensor input = inputBuffer, output = outputBuffer;
  return state_->run(
      "_reduce_scatter_base", OpType::_REDUCE_SCATTER_BASE, {input, output}, {output},
      describe(output), [&](detail::NcclContext& nccl, const Stream& stream) {
        Staged out(output, Staged::kOnDevice);
        nccl.reduce_scatter(Staged(input, Staged::kOnDevice).flat, out.flat, opts.reduceOp, stream);
        out.write_back();
      });
}

intrusive_ptr<Work> ProcessGroupNCCL::send(std::vector<Tensor>& tensors, int dstRank, int) {
  state_->check("send", tensors);
  check_one("send", tensors);
  check_peer(kNccl, "send", dstRank, rank_, size_);
  const Tensor tensor = tensors.front();
  return state_->run("send", OpType::SEND, tensors, {}, describe(tensor),
                     [&](detail::NcclContext& nccl, const Stream& stream) {
                       nccl.send(Staged(tensor, Staged::kOnDevice).flat, dstRank, stream);
                     });
}

intrusive_ptr<Work> ProcessGroupNCCL::recv(std::vector<Tensor>& tensors, int srcRank, int) {
  state_->check("recv", tensors);
  check_one("recv", tensors);
  check_peer(kNccl, "recv", srcRank, rank_, size_);
  const Tensor tensor = tensors.front();
  return state_->run("recv", OpType::RECV, tensors, tensors, describe(tensor),
                     [&](detail::NcclContext& nccl, const Stream& stream) {
                       Staged staged(tensor, Staged::kOnDevice);
                       nccl.recv(staged.flat, srcRank, stream);
                       staged.write_back();
                     });
}

intrusive_ptr<Work> ProcessGroupNCCL::barrier(const BarrierOptions&) {
  // An all-reduce of one element on the group's GPU (the current one before any collective),
  // whose wait() blocks the host, as LibTorch's.
  // Before any collective LibTorch guesses the GPU as rank % GPUs, as ranks of one machine
  // usually take one each.
  Device gpu = Device(kCUDA, rank_ % std::max(cuda::device_count(), 1));
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    if (state_->device) gpu = *state_->device;
  }
  std::vector<Tensor> one{zeros({1}, TensorOptions(kFloat32).device(gpu))};
  return state_->run(
      "barrier", OpType::BARRIER, one, {}, "",
      [&](detail::NcclContext& nccl, const Stream& stream) {
        nccl.all_reduce(one.front(), one.front(), ReduceOp::SUM, stream);
      },
      /*blocks_host=*/true);
}

}  // namespace ember::distributed
