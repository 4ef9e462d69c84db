// TensorIter: the geometry of an elementwise op. It checks devices, broadcasts shapes, converts
// inputs to the compute dtype, allocates the output and coalesces dimensions into per-operand
// byte strides that the CPU and CUDA loops both consume.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "core/tensor_impl.h"
#include "ember/tensor.h"

namespace ember::kernels {

using detail::kMaxDims;
inline constexpr int kMaxOperands = 4;  // the output plus up to three inputs (where)

struct TensorIter {
  int ntensors = 0;  // operand 0 is the output
  int ndim = 0;      // after coalescing; dim 0 is the innermost (fastest-moving) one
  int64_t numel = 0;
  int64_t shape[kMaxDims];
  int64_t strides[kMaxOperands][kMaxDims];  // bytes
  char* data[kMaxOperands];
  ScalarType dtypes[kMaxOperands];
  Device device;
  Tensor operands[kMaxOperands];  // holds the output and the (converted) inputs alive

  const Tensor& output() const { return operands[0]; }

  DeviceType device_type() const { return device.type(); }
  // True when every operand walks memory densely in one dimension.
  bool is_contiguous() const;
};

struct IterSpec {
  const char* op;
  // Inputs are converted to this dtype before the loop (PyTorch's common dtype).
  ScalarType compute_dtype;
  // Dtype of a newly allocated output.
  ScalarType output_dtype;
  // Keep each input's own dtype instead (copy/convert).
  bool convert_inputs = true;
  // Names of the inputs for error messages ("self", "other", ...).
  std::initializer_list<const char*> names = {};
  // A given output must not overlap itself or, other than exactly, an input (PyTorch's
  // check_mem_overlap). Off for fill_ (idempotent) and for the index kernels, which view their
  // operands with stride 0 along the indexed dim on purpose.
  bool check_mem_overlap = true;
};

// Builds the iterator. `out`, when defined, is written in place (its shape must equal the
// broadcast shape); otherwise a contiguous output is allocated. Exported for the emulated-GPU
// tests, which run the CUDA loop on the geometry the library really builds.
TensorIter make_iter(const IterSpec& spec, const Tensor& out, std::initializer_list<Tensor> inputs);

// The device every tensor of an op must share; throws PyTorch's "Expected all tensors to be on
// the same device" with the op, the argument and the fix. Undefined tensors are skipped.
Device common_device(const char* op, const Tensor* const* tensors, const char* const* names, int n);
inline Device common_device(const char* op, std::initializer_list<const Tensor*> tensors,
                            std::initializer_list<const char*> names) {
  return common_device(op, tensors.begin(), names.begin(), static_cast<int>(tensors.size()));
}

// A tensor an op writes into must not have two elements in one memory location (a dim of stride
// 0 and size > 1, as expand() makes): each would receive its own result, and which one stays
// would depend on the order of the writes. PyTorch's assert_no_internal_overlap and message.
void check_no_internal_overlap(const char* op, const Tensor& written);

// Both rules for an op writing `out` from `inputs` (PyTorch's check_mem_overlap): the check
// above, and no input sharing some bytes with `out` unless it is exactly `out`'s elements in
// `out`'s order (x += x.t() and x[1:] += x[:-1] would depend on the loop's order; as in PyTorch,
// only tensors whose elements are dense in memory are judged). make_iter runs it for a given
// output; an op that computes elsewhere first (in place under autograd, or through a dtype cast)
// runs it before choosing its path.
void check_mem_overlap(const char* op, const Tensor& out, std::initializer_list<Tensor> inputs);

// The broadcast shape of two shapes (PyTorch's rule), or ValueError naming both.
void broadcast_shapes(const char* op, IntArrayRef a, IntArrayRef b, int64_t* out, int* out_ndim);

}  // namespace ember::kernels
