// nn::parallel::data_parallel's non-template parts: the replicas' gradient edges, the scatter and
// gather of the input and outputs, and the checks.
#include "ember/nn/parallel/data_parallel.h"

#include "autograd/record.h"
#include "core/check.h"
#include "ember/cuda.h"
#include "ember/ops.h"
#include "ember/shape_ops.h"

namespace ember::nn::parallel::detail {

void replicate_grad_edges(const Module& module,
                          const std::vector<std::shared_ptr<Module>>& replicas) {
  // One ReduceAdd (LibTorch's node, named as it prints) per replica tensor: the engine sums what
  // they pass on at the original's accumulator, on its device, as LibTorch's one ReduceAdd per
  // tensor does.
  auto connect = [](const Tensor& original, const Tensor& replica) {
    autograd::record("torch::nn::ReduceAdd", {replica}, {original}, {},
                     [](const autograd::Context& ctx) { return autograd::Grads{ctx.grad()}; });
  };
  const auto parameters = module.named_parameters();
  const auto buffers = module.named_buffers();
  for (const std::shared_ptr<Module>& replica : replicas) {
    const auto replica_parameters = replica->named_parameters();
    for (const auto& item : parameters)
      if (item.value().requires_grad()) connect(item.value(), replica_parameters[item.key()]);
    const auto replica_buffers = replica->named_buffers();
    for (const auto& item : buffers)
      if (item.value().requires_grad()) connect(item.value(), replica_buffers[item.key()]);
  }
}

std::vector<Device> all_cuda_devices() {
  const int count = cuda::device_count();
  EMBER_CHECK(count > 0,
              "[data_parallel] Expected at least one CUDA device to be available; pass the "
              "devices to run on (ember's data_parallel also takes CPU devices)");
  std::vector<Device> devices;
  for (int i = 0; i < count; ++i) devices.emplace_back(kCUDA, i);
  return devices;
}

void check_devices(const std::vector<Device>& devices) {
  EMBER_CHECK_T(ValueError, !devices.empty(),
                "[data_parallel] the list of devices is empty; pass at least one device");
}

std::vector<Tensor> scatter(const Tensor& input, const std::vector<Device>& devices, int64_t dim) {
  std::vector<Tensor> chunks = input.chunk(static_cast<int64_t>(devices.size()), dim);
  for (size_t i = 0; i < chunks.size(); ++i) chunks[i] = chunks[i].to(devices[i]);
  return chunks;
}

Tensor gather(const std::vector<Tensor>& outputs, Device device, int64_t dim) {
  std::vector<Tensor> moved;
  for (const Tensor& output : outputs) moved.push_back(output.to(device));
  return cat(moved, dim);
}

void check_parallel_apply(size_t modules, size_t inputs,
                          const std::optional<std::vector<Device>>& devices) {
  EMBER_CHECK_T(ValueError, modules == inputs,
                "[parallel_apply] Must have as many inputs as modules; got ", modules,
                " modules and ", inputs, " inputs");
  EMBER_CHECK_T(ValueError, !devices || devices->size() == modules,
                "[parallel_apply] Must have as many devices as modules; got ", modules,
                " modules and ", devices ? devices->size() : 0, " devices");
}

}  // namespace ember::nn::parallel::detail
