// Transfers and copies: Tensor::to, cuda, cpu, copy_, pin_memory, contiguous, clone, detach,
// fill_.
#include "autograd/functions/shape.h"
#include "autograd/record.h"
#include "core/backend.h"
#include "core/check.h"
#include "core/stride_order.h"
#include "core/tensor_impl.h"
#include "ember/cuda.h"
#include "ember/factory.h"
#include "kernels/elementwise_stubs.h"
#include "kernels/tensor_iter.h"
#include "ops/inplace.h"
#include "ops/promotion.h"

namespace ember {
namespace {

// Copies `src` into the new tensor `r` and records `grad_fn` (a gradient passed through) when
// src requires grad and r can carry one.
Tensor copy_with_history(Tensor r, const Tensor& src, bool non_blocking, const char* grad_fn) {
  const bool grad = autograd::needs_grad(src) && r.is_floating_point();
  {
    autograd::NoGradGuard no_grad;
    r.copy_(src, non_blocking);
  }
  if (grad) autograd::record(grad_fn, {r}, {src}, {}, autograd::functions::IdentityBackward{});
  return r;
}

// Every to() overload: `tensor` (whose impl is `self`) on `device` as `dtype`. Inlined into each,
// so that x.to(kCPU), which returns x, stays one call (the W7 overhead).
[[gnu::always_inline]] inline Tensor to_device_and_dtype(
    const Tensor& tensor, const detail::TensorImpl& self, Device device, ScalarType dtype,
    bool non_blocking, bool copy, std::optional<MemoryFormat> memory_format) {
  const MemoryFormat format = memory_format.value_or(MemoryFormat::Preserve);
  // PyTorch's to_will_alias: the index is resolved first (cuda -> cuda:<current>), and when
  // nothing changes the very same tensor comes back.
  const Device target = !device.is_cpu()       ? detail::resolve_device(device)
                        : device.index() == -1 ? device
                                               : Device::cpu();
  if (!copy && target == self.device() && dtype == self.dtype &&
      (format == MemoryFormat::Preserve || detail::is_contiguous_as(self, format)))
    return tensor;
  // PyTorch's _to_copy: a non_blocking copy from a GPU lands in pinned memory, so that it can
  // run asynchronously (Note [Safe non-blocking copies to the host]).
  const bool pin_out = non_blocking && !self.device().is_cpu() && target.is_cpu();
  Tensor r(pin_out ? detail::empty_pinned_impl(self.shape(), dtype)
                   : detail::empty_like_impl(self, dtype, target, format));
  // Differentiable across devices and floating dtypes: the gradient goes back to this tensor's
  // device and dtype. An integer result cannot carry a gradient (it does not require grad).
  return copy_with_history(std::move(r), tensor, non_blocking, "ToCopyBackward0");
}

}  // namespace

Tensor Tensor::to(Device device, ScalarType dtype, bool non_blocking, bool copy,
                  std::optional<MemoryFormat> memory_format) const {
  return to_device_and_dtype(*this, detail::defined_impl(impl_.get(), "to"), device, dtype,
                             non_blocking, copy, memory_format);
}
Tensor Tensor::to(TensorOptions options, bool non_blocking, bool copy,
                  std::optional<MemoryFormat> memory_format) const {
  EMBER_CHECK_T(ValueError, !options.requires_grad(),
                "[to] Operators taking TensorOptions cannot take a TensorOptions with "
                "options.requires_grad set as true. This isn't implemented yet.");
  EMBER_CHECK_T(ValueError, !(options.has_memory_format() && memory_format),
                "[to] Cannot set memory_format both in TensorOptions and explicit argument; "
                "please delete the redundant setter.");
  const detail::TensorImpl& self = detail::defined_impl(impl_.get(), "to");
  return to_device_and_dtype(
      *this, self, options.has_device() ? *options.device_opt() : self.device(),
      options.has_dtype() ? options.dtype_opt()->toScalarType() : self.dtype, non_blocking, copy,
      memory_format ? memory_format : options.memory_format_opt());
}
Tensor Tensor::to(ScalarType dtype, bool non_blocking, bool copy,
                  std::optional<MemoryFormat> memory_format) const {
  return to(device(), dtype, non_blocking, copy, memory_format);
}
Tensor Tensor::to(const Tensor& other, bool non_blocking, bool copy,
                  std::optional<MemoryFormat> memory_format) const {
  return to(other.device(), other.scalar_type(), non_blocking, copy, memory_format);
}
Tensor Tensor::cuda(int index, bool non_blocking) const {
  return to(Device::cuda(index), non_blocking);
}
Tensor Tensor::cpu(bool non_blocking) const { return to(Device::cpu(), non_blocking); }

Tensor& Tensor::copy_(const Tensor& src, bool non_blocking) const {
  EMBER_CHECK_T(ValueError, defined() && src.defined(), "[copy_] both tensors must be defined");
  kernels::check_no_internal_overlap("copy_", *this);
  if (autograd::check_inplace(*this, "copy_", src.requires_grad())) {
    // This tensor's values now come from src: its history becomes src's (cast, moved and
    // broadcast), as PyTorch's CopyBackwards does.
    Tensor from = src.to(device(), scalar_type()).expand(sizes());
    {
      autograd::NoGradGuard no_grad;
      copy_(from, non_blocking);
    }
    autograd::rebase_history(*this, from);
    return ops::handle(*this);
  }
  if (device() == src.device()) {
    kernels::TensorIter it = kernels::make_iter(
        {"copy_", scalar_type(), scalar_type(), /*convert_inputs=*/false, {"src"}}, *this, {src});
    kernels::copy_stub(it.device_type(), it);
    return ops::handle(*this);
  }
  // Across devices: convert and densify on the source device, move the bytes once, then place
  // them with a same-device copy if this tensor is not dense itself.
  Tensor dense = src.expand(sizes()).to(scalar_type()).contiguous();
  Tensor dst =
      is_contiguous() ? *this : Tensor(detail::empty_impl(sizes(), scalar_type(), device()));
  DeviceType engine = device().is_cuda() ? DeviceType::CUDA : src.device().type();
  // Taking the addresses waits for writes still pending on either side.
  std::unique_ptr<detail::PendingWrite> pending = detail::backend(engine).copy(
      detail::impl_of(dst)->data(), device(), detail::impl_of(dense)->data(), dense.device(),
      dense.nbytes(), non_blocking);
  if (pending) detail::impl_of(dst)->storage->pending_write.set(std::move(pending));
  if (!dst.is_same(*this)) copy_(dst);
  return ops::handle(*this);
}

// PyTorch's _pin_memory: a contiguous copy whose gradient passes through.
Tensor Tensor::pin_memory() const {
  (void)detail::defined_impl(impl_.get(), "pin_memory");
  EMBER_CHECK(is_cpu(), "[pin_memory] cannot pin a ", device(),
              " tensor: only dense CPU tensors can be pinned. It is in GPU memory already; "
              "pin_memory() is for CPU tensors that are then copied to a GPU with "
              "non_blocking=true");
  if (is_pinned()) return *this;
  return copy_with_history(Tensor(detail::empty_pinned_impl(sizes(), scalar_type())), *this,
                           /*non_blocking=*/false, "PinMemoryBackward0");
}

// Pinned memory exists only where a GPU does, so without one nothing asks the CUDA backend.
bool Tensor::is_pinned() const {
  return defined() && is_cpu() && cuda::is_available() &&
         impl_->storage->allocator == &detail::backend(DeviceType::CUDA).host_allocator();
}

bool Tensor::is_contiguous(MemoryFormat memory_format) const {
  return detail::is_contiguous_as(detail::defined_impl(impl_.get(), "is_contiguous"),
                                  memory_format);
}

Tensor Tensor::contiguous(MemoryFormat memory_format) const {
  return is_contiguous(memory_format) ? *this : clone(memory_format);
}

Tensor Tensor::clone(std::optional<MemoryFormat> memory_format) const {
  const detail::TensorImpl& self = detail::defined_impl(impl_.get(), "clone");
  return copy_with_history(
      Tensor(detail::empty_like_impl(self, scalar_type(), device(),
                                     memory_format.value_or(MemoryFormat::Preserve))),
      *this, /*non_blocking=*/false, "CloneBackward0");
}

Tensor Tensor::detach() const {
  const detail::TensorImpl& self = detail::defined_impl(impl_.get(), "detach");
  return Tensor(detail::view_impl(self, self.shape(), self.stride_ref(), self.offset));
}

namespace ops {
void discard_history(const Tensor& self) {
  // The old values no longer matter: the gradient to the old history is zero.
  Tensor result = empty_like(self);
  autograd::record({result}, {self}, {}, autograd::functions::FillBackward0{});
  ++detail::impl_of(self)->storage->version;  // before rebasing, which a view's history reads
  autograd::rebase_history(self, result);
}
}  // namespace ops

Tensor& Tensor::fill_(const Scalar& value) const {
  ops::check_fits("fill_", value, scalar_type());
  if (autograd::check_inplace(*this, "fill_", false)) {
    ops::discard_history(*this);
  }
  kernels::TensorIter it = kernels::make_iter(
      {"fill_", scalar_type(), scalar_type(), false, {}, /*check_mem_overlap=*/false}, *this, {});
  kernels::fill_stub(it.device_type(), it, value);
  return ops::handle(*this);
}

Tensor& Tensor::zero_() const { return fill_(0); }

}  // namespace ember
