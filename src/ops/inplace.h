// What every in-place and out= form of an op shares: the argument checks of out=, and the path
// of an in-place op under autograd.
#pragma once

#include <initializer_list>

#include "autograd/record.h"
#include "core/check.h"
#include "ember/tensor.h"
#include "kernels/tensor_iter.h"

namespace ember::ops {

// In-place methods are const, as LibTorch's: they change the tensor's data, not the handle, and
// return the handle as Tensor& so that calls chain (x.mul_(2).add_(1)).
inline Tensor& handle(const Tensor& t) { return const_cast<Tensor&>(t); }

// An out= call (or an in-place one, out being self) writing a `result`-typed value: out must
// not overlap its inputs (PyTorch's check_mem_overlap), autograd cannot record it, and the
// result type must be castable to out's (torch's rule and message).
inline void check_out_arguments(const char* op, const Tensor& out,
                                std::initializer_list<Tensor> inputs, ScalarType result) {
  kernels::check_mem_overlap(op, out, inputs);
  for (const Tensor& t : inputs)
    EMBER_CHECK(!autograd::needs_grad(t, out), "[", op,
                "] functions with out=... arguments "
                "don't support automatic differentiation, but one of the arguments requires "
                "grad. Use the form that returns a new tensor, or compute inside an "
                "ember::NoGradGuard.");
  EMBER_CHECK_T(TypeError, can_cast(result, out.scalar_type()), "[", op, "] result type ", result,
                " can't be cast to the desired output type ", out.scalar_type());
}

// Note [In-place ops under autograd]
// An in-place op on a tensor that takes part in autograd runs out of place on a clone of the
// tensor's old values (which its formula may read); the result is written into the tensor,
// which takes over the result's history. `out_of_place(clone)` computes and records the op.
template <class OutOfPlace>
const Tensor& inplace_through_clone(const char* op, const Tensor& self,
                                    const OutOfPlace& out_of_place) {
  Tensor result = out_of_place(self.clone());
  EMBER_CHECK_T(TypeError, can_cast(result.scalar_type(), self.scalar_type()), "[", op,
                "] result type ", result.scalar_type(),
                " can't be cast to the desired output type ", self.scalar_type());
  if (result.scalar_type() != self.scalar_type()) result = result.to(self.scalar_type());
  {
    autograd::NoGradGuard no_grad;
    self.copy_(result);
  }
  autograd::rebase_history(self, result);
  return self;
}

// For an in-place op that overwrites every value without reading any (fill_, the random fills)
// on a tensor that takes part in autograd: its history becomes a node whose gradient to the old
// history is zero, as PyTorch's FillBackward0. Run after autograd::check_inplace said so.
void discard_history(const Tensor& self);

}  // namespace ember::ops
