// nn::parallel::data_parallel, replicate and parallel_apply (LibTorch's
// torch/nn/parallel/data_parallel.h): one process running a module on several devices at once.
// data_parallel splits the input along `dim` over the devices, runs a replica of the module on
// each (a clone whose parameters pass their gradients back to the module's, through a ReduceAdd
// node) in a thread of its own, and concatenates the outputs on `output_device`; backward through
// the result accumulates into the original module's .grad. Unlike LibTorch's, the devices may be
// any devices (CPU ones too), not only CUDA ones.
#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "ember/autograd.h"
#include "ember/cuda.h"
#include "ember/device.h"
#include "ember/macros.h"
#include "ember/nn/module.h"
#include "ember/tensor.h"

namespace ember::nn::parallel {
namespace detail {

// Gives each replica's parameters (and buffers that require grad) the history of a copy of
// `module`'s: a backward pass through a replica accumulates into `module`'s .grad.
EMBER_API void replicate_grad_edges(const Module& module,
                                    const std::vector<std::shared_ptr<Module>>& replicas);
// Every CUDA device, or the error LibTorch gives when there is none.
EMBER_API std::vector<Device> all_cuda_devices();
// Refuses an empty list of devices.
EMBER_API void check_devices(const std::vector<Device>& devices);
// `input` in at most devices.size() chunks along `dim`, each moved to its device (differentiably:
// LibTorch's autograd::Scatter).
EMBER_API std::vector<Tensor> scatter(const Tensor& input, const std::vector<Device>& devices,
                                      int64_t dim);
// `outputs` moved to `device` and concatenated along `dim` (LibTorch's autograd::Gather).
EMBER_API Tensor gather(const std::vector<Tensor>& outputs, Device device, int64_t dim);
// Runs body(i) for every i < count, each in a thread of its own with the caller's grad mode
// (index 0 on the caller's thread), and rethrows the first exception.
template <class Body>
void run_each(size_t count, const Body& body) {
  const bool grad_mode = autograd::is_grad_enabled();
  std::exception_ptr failure;
  std::mutex mutex;
  auto guarded = [&](size_t i) {
    try {
      autograd::AutoGradMode mode(grad_mode);
      body(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (size_t i = 1; i < count; ++i) threads.emplace_back(guarded, i);
  if (count > 0) guarded(0);
  for (std::thread& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
}
EMBER_API void check_parallel_apply(size_t modules, size_t inputs,
                                    const std::optional<std::vector<Device>>& devices);

}  // namespace detail

// A replica of `module` on each device (module->clone(device): the module must derive from
// Cloneable or define clone()), whose gradients flow back to `module`.
template <class ModuleType>
std::vector<std::shared_ptr<ModuleType>> replicate(const std::shared_ptr<ModuleType>& module,
                                                   const std::vector<Device>& devices) {
  std::vector<std::shared_ptr<ModuleType>> replicas;
  std::vector<std::shared_ptr<Module>> as_modules;
  for (const Device& device : devices) {
    replicas.push_back(std::dynamic_pointer_cast<ModuleType>(module->clone(device)));
    as_modules.push_back(replicas.back());
  }
  detail::replicate_grad_edges(*module, as_modules);
  return replicas;
}

template <class ModuleType>
std::vector<ModuleHolder<ModuleType>> replicate(const ModuleHolder<ModuleType>& module,
                                                const std::vector<Device>& devices) {
  auto pointers = replicate(module.ptr(), devices);
  return std::vector<ModuleHolder<ModuleType>>(pointers.begin(), pointers.end());
}

// modules[i]->forward(inputs[i]) for every i at once, each output moved to devices[i] (or left
// on its input's device).
template <class ModuleType>
std::vector<Tensor> parallel_apply(
    std::vector<ModuleType>& modules, const std::vector<Tensor>& inputs,
    const std::optional<std::vector<Device>>& devices = std::nullopt) {
  detail::check_parallel_apply(modules.size(), inputs.size(), devices);
  std::vector<Tensor> outputs(modules.size());
  detail::run_each(modules.size(), [&](size_t i) {
    const Device device = devices ? (*devices)[i] : inputs[i].device();
    cuda::DeviceGuard on_device(device);
    outputs[i] = modules[i]->forward(inputs[i]).to(device);
  });
  return outputs;
}

// The module run on `devices` (default: every CUDA device) on its share of `input` along `dim`,
// the outputs concatenated on `output_device` (default: the first device). With one device the
// module itself moves there and runs.
template <class ModuleType>
Tensor data_parallel(ModuleType module, Tensor input,
                     std::optional<std::vector<Device>> devices = std::nullopt,
                     std::optional<Device> output_device = std::nullopt, int64_t dim = 0) {
  if (!devices) devices = detail::all_cuda_devices();
  detail::check_devices(*devices);
  if (!output_device) output_device = devices->front();
  if (devices->size() == 1) {
    module->to(devices->front());
    input = input.to(devices->front());
    return module->forward(std::move(input)).to(*output_device);
  }
  std::vector<Tensor> inputs = detail::scatter(input, *devices, dim);
  devices->resize(inputs.size());  // an input too small for every device uses the first ones
  auto replicas = replicate(module, *devices);
  std::vector<Tensor> outputs = parallel_apply(replicas, inputs, *devices);
  return detail::gather(outputs, *output_device, dim);
}

}  // namespace ember::nn::parallel
