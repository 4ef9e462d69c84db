// nn::parallel::DistributedDataParallel: checks and copies the module's state across the ranks,
// and hands its gradients to the Reducer (src/distributed/reducer.h).
#include "ember/nn/parallel/distributed.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>

#include "core/check.h"
#include "distributed/collective_args.h"
#include "distributed/reducer.h"
#include "ember/autograd.h"
#include "ember/distributed/collectives.h"
#include "ember/factory.h"
#include "ember/string_util.h"

namespace ember::nn::parallel {
namespace {

using distributed::ProcessGroup;

// The first bucket is small so that its all-reduce starts early in the backward pass
// (PyTorch's _DEFAULT_FIRST_BUCKET_BYTES).
constexpr std::size_t kFirstBucketBytes = std::size_t{1} << 20;

// One line per parameter: "name dtype[shape]".
std::vector<std::string> layout_of(const Module& module) {
  std::vector<std::string> lines;
  for (const auto& item : module.named_parameters())
    lines.push_back(str(item.key(), ' ', item.value().scalar_type(), item.value().sizes(),
                        item.value().requires_grad() ? "" : " (frozen)"));
  return lines;
}

// Every rank's rows of `mine` (one int64 or uint8 CPU tensor of the same size on each rank),
// exchanged on `device` (a GPU for a group of CUDA tensors only, NCCL's).
std::vector<Tensor> gather_from_all(ProcessGroup& group, const Tensor& mine, Device device) {
  std::vector<std::vector<Tensor>> outputs(1);
  std::vector<Tensor> inputs{mine.to(device)};
  for (int r = 0; r < group.getSize(); ++r) outputs[0].push_back(empty_like(inputs[0]));
  group.allgather(outputs, inputs)->wait();
  std::vector<Tensor> on_cpu;
  for (const Tensor& t : outputs[0]) on_cpu.push_back(t.cpu());
  return on_cpu;
}

// That `lines` (one per parameter, or per bucket) are the same on every rank, as PyTorch's
// _verify_param_shape_across_processes; every rank names the first difference: a hash and a size
// are compared first, and the lines themselves only when those differ.
void verify_same_on_every_rank(ProcessGroup& group, Device device,
                               const std::vector<std::string>& lines, const char* item,
                               const char* problem, const char* remedy) {
  const std::string text = Join("\n", lines);
  const Tensor summary = tensor(std::vector<int64_t>{
      static_cast<int64_t>(text.size()), static_cast<int64_t>(std::hash<std::string>{}(text))});
  const std::vector<Tensor> summaries = gather_from_all(group, summary, device);
  int64_t longest = 0;
  bool same = true;
  for (const Tensor& s : summaries) {
    longest = std::max(longest, s[0].item<int64_t>());
    same = same && s.equal(summaries[0]);
  }
  if (same) return;

  Tensor padded = zeros({longest}, kByte);
  std::copy(text.begin(), text.end(), padded.data_ptr<uint8_t>());
  const std::vector<Tensor> texts = gather_from_all(group, padded, device);
  std::vector<std::vector<std::string>> layouts;
  for (const Tensor& t : texts) {
    std::string other(reinterpret_cast<const char*>(t.data_ptr<uint8_t>()),
                      static_cast<std::size_t>(t.numel()));
    other.resize(other.find('\0') == std::string::npos ? other.size() : other.find('\0'));
    std::vector<std::string> rows;
    std::istringstream stream(other);
    for (std::string row; std::getline(stream, row);) rows.push_back(row);
    layouts.push_back(std::move(rows));
  }
  std::string differences;
  for (std::size_t r = 1; r < layouts.size(); ++r) {
    const std::vector<std::string>& base = layouts[0];
    const std::vector<std::string>& other = layouts[r];
    std::size_t i = 0;
    while (i < base.size() && i < other.size() && base[i] == other[i]) ++i;
    if (i == base.size() && i == other.size()) continue;
    auto describe = [i](const std::vector<std::string>& rows) {
      return i < rows.size() ? str("'", rows[i], "'") : std::string("none");
    };
    differences += str("; ", item, " ", i, " is ", describe(other), " on rank ", r, " but ",
                       describe(base), " on rank 0");
  }
  ember::detail::fail<ValueError>("[DistributedDataParallel] ", problem, differences, ". ", remedy);
}

// Rank 0's values of `tensors` on every rank, coalesced as PyTorch's _broadcast_coalesced does:
// one broadcast per run of up to kBroadcastBytes of one dtype and device (a model's hundred
// buffers are then one collective per forward, not a hundred).
constexpr std::size_t kBroadcastBytes = std::size_t{250} << 20;

void broadcast_from_rank0(ProcessGroup& group, const std::vector<Tensor>& tensors) {
  NoGradGuard no_grad;
  std::vector<Tensor> run;
  std::size_t run_bytes = 0;
  auto send = [&] {
    if (run.empty()) return;
    std::vector<Tensor> flat{distributed::detail::concatenate(run)};
    group.broadcast(flat, distributed::BroadcastOptions{0, 0, distributed::kUnsetTimeout})->wait();
    distributed::detail::split_into(flat[0], run);
    run.clear();
    run_bytes = 0;
  };
  for (const Tensor& t : tensors) {
    if (!run.empty() && (t.scalar_type() != run.front().scalar_type() ||
                         t.device() != run.front().device() || run_bytes >= kBroadcastBytes))
      send();
    run.push_back(t);
    run_bytes += t.nbytes();
  }
  send();
}

std::vector<Tensor> buffers_of(const Module& module) {
  std::vector<Tensor> buffers;
  for (const auto& item : module.named_buffers()) buffers.push_back(item.value());
  return buffers;
}

}  // namespace

DistributedDataParallelImpl::DistributedDataParallelImpl(std::shared_ptr<Module> module,
                                                         DistributedDataParallelOptions options_)
    : Module("DistributedDataParallel"), options(std::move(options_)) {
  EMBER_CHECK(module != nullptr,
              "[DistributedDataParallel] the module to wrap is empty; construct it first");
  module_ = register_module("module", std::move(module));
  EMBER_CHECK_T(ValueError, options.bucket_cap_mb() > 0 && std::isfinite(options.bucket_cap_mb()),
                "[DistributedDataParallel] bucket_cap_mb must be a positive, finite number, got ",
                options.bucket_cap_mb());
  if (!options.process_group()) options.process_group(distributed::default_group());
  ProcessGroup& group = *options.process_group();
  // The layouts travel on the CPU, or, over NCCL (CUDA tensors only), on the parameters' GPU.
  const std::vector<Tensor> parameters = module_->parameters();
  const Device exchange_on = group.getBackendName() == "nccl" && !parameters.empty()
                                 ? parameters.front().device()
                                 : Device::cpu();
  verify_same_on_every_rank(group, exchange_on, layout_of(*module_), "parameter",
                            "the ranks wrap different modules",
                            "Every rank must wrap a module with the same parameters, in the same "
                            "order, with the same dtypes and shapes");
  std::vector<Tensor> states;
  std::vector<distributed::Reducer::Parameter> trained;
  for (const auto& item : module_->named_parameters()) {
    states.push_back(item.value());
    if (item.value().requires_grad()) trained.push_back({item.key(), item.value()});
  }
  for (const Tensor& buffer : buffers_of(*module_)) states.push_back(buffer);
  broadcast_from_rank0(group, states);
  const auto bucket_bytes = static_cast<std::size_t>(options.bucket_cap_mb() * 1024 * 1024);
  reducer_ = distributed::Reducer::create(
      std::move(trained), options.process_group(), std::min(kFirstBucketBytes, bucket_bytes),
      std::max<std::size_t>(bucket_bytes, 1), options.find_unused_parameters(),
      options.gradient_as_bucket_view());
  // Buckets of different sizes would make Gloo abort the process mid-backward.
  verify_same_on_every_rank(group, exchange_on, reducer_->bucket_layout(), "bucket",
                            "the ranks' gradient buckets differ",
                            "Every rank must pass the same bucket_cap_mb");
}

DistributedDataParallelImpl::~DistributedDataParallelImpl() = default;

Tensor DistributedDataParallelImpl::after_forward(Tensor output) {
  // Every backward through the output ends the reduction, even on a rank whose loss reaches no
  // parameter (PyTorch's _DDPSink): the other ranks wait for its buckets.
  if (output.defined() && output.requires_grad()) {
    std::weak_ptr<distributed::Reducer> weak = reducer_;
    output.register_hook([weak](const Tensor&) {
      if (std::shared_ptr<distributed::Reducer> reducer = weak.lock()) reducer->queue_finish();
    });
  }
  return output;
}

void DistributedDataParallelImpl::before_forward() {
  if (options.broadcast_buffers() && options.process_group()->getSize() > 1)
    broadcast_from_rank0(*options.process_group(), buffers_of(*module_));
  reducer_->prepare_for_backward(autograd::is_grad_enabled() && require_backward_grad_sync_);
}

DistributedDataParallelImpl::NoSyncGuard::NoSyncGuard(DistributedDataParallelImpl& ddp)
    : ddp_(ddp), previous_(std::exchange(ddp.require_backward_grad_sync_, false)) {}

DistributedDataParallelImpl::NoSyncGuard::~NoSyncGuard() {
  ddp_.require_backward_grad_sync_ = previous_;
}

DistributedDataParallelImpl::NoSyncGuard DistributedDataParallelImpl::no_sync() {
  return NoSyncGuard(*this);
}

void DistributedDataParallelImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::parallel::DistributedDataParallel(world_size="
         << options.process_group()->getSize() << ", buckets=" << reducer_->bucket_count() << ")";
}

}  // namespace ember::nn::parallel
