// The fused optimizer updates: what one element of a parameter goes through in an SGD (with
// momentum) or Adam/AdamW step, and the kernel entries that run it over a whole parameter.
// Compiled by g++ and nvcc.
#pragma once

#include <cmath>
#include <cstdint>

#include "ember/macros.h"
#include "kernels/dispatch_stub.h"
#include "kernels/functors.h"

namespace ember {
class Tensor;
}

namespace ember::kernels {

// Note [Fused optimizer steps]
// As tensor ops, one parameter's update made three passes over memory (SGD with momentum: scale
// the buffer, add the gradient, add to the parameter) to ten (Adam, with five temporaries), and as
// many kernel launches on a GPU. Here it is one pass: each element of the parameter, its gradient
// and its state is read once and written once. The math is PyTorch's, in the same order, in
// opmath_t (float for the 16-bit floats), as each op of the unfused form computes it; the
// CPU loop (cpu/optim_kernels.cpp) and the CUDA kernel (cuda/optim_kernels.cu) call the same
// functors. Every operand is contiguous, of the parameter's dtype and on its device. The options
// are branches on members that stay the same over the whole loop: the CPU file is compiled with
// loop unswitching, so each combination gets its own vector loop.

// SGD with momentum (momentum > 0): buf = g' on the first step, else momentum * buf +
// (1 - dampening) * g', where g' = g + weight_decay * p; p -= lr * (nesterov ? g' + momentum *
// buf : buf).
struct SgdMomentumStep {
  double lr, momentum, dampening, weight_decay;
  bool nesterov, first;
};

// Adam (decoupled = false: L2 weight decay added to the gradient) and AdamW (decoupled: p scaled
// by 1 - lr * weight_decay first). bias2_sqrt = sqrt(1 - beta2^t), step_size = lr / (1 - beta1^t).
struct AdamStep {
  double lr, beta1, beta2, eps, weight_decay, bias2_sqrt, step_size;
  bool decoupled;
};

template <class M>
struct SgdMomentumUpdate {
  M neg_lr, momentum, keep, weight_decay;  // keep = 1 - dampening
  bool nesterov, first;

  explicit SgdMomentumUpdate(const SgdMomentumStep& s)
      : neg_lr(static_cast<M>(-s.lr)),
        momentum(static_cast<M>(s.momentum)),
        keep(static_cast<M>(1 - s.dampening)),
        weight_decay(static_cast<M>(s.weight_decay)),
        nesterov(s.nesterov),
        first(s.first) {}

  template <class T>
  EMBER_HOST_DEVICE void operator()(T* p, const T* g, T* buf, int64_t i) const {
    const M x = static_cast<M>(p[i]);
    M d = static_cast<M>(g[i]);
    if (weight_decay != M(0)) d = d + x * weight_decay;
    const T b = convert<T>(first ? d : static_cast<M>(buf[i]) * momentum + keep * d);
    buf[i] = b;
    d = nesterov ? d + momentum * static_cast<M>(b) : static_cast<M>(b);
    p[i] = convert<T>(x + neg_lr * d);
  }
};

template <class M>
struct AdamUpdate {
  M beta1, beta2, one_minus_beta1, one_minus_beta2, eps, bias2_sqrt, neg_step_size;
  M l2_decay, decay_factor;  // g += l2_decay * p; p *= decay_factor (AdamW)

  explicit AdamUpdate(const AdamStep& s)
      : beta1(static_cast<M>(s.beta1)),
        beta2(static_cast<M>(s.beta2)),
        one_minus_beta1(static_cast<M>(1 - s.beta1)),
        one_minus_beta2(static_cast<M>(1 - s.beta2)),
        eps(static_cast<M>(s.eps)),
        bias2_sqrt(static_cast<M>(s.bias2_sqrt)),
        neg_step_size(static_cast<M>(-s.step_size)),
        l2_decay(static_cast<M>(s.decoupled ? 0.0 : s.weight_decay)),
        decay_factor(static_cast<M>(s.decoupled ? 1 - s.lr * s.weight_decay : 1.0)) {}

  template <class T>
  EMBER_HOST_DEVICE void operator()(T* p, const T* g, T* m, T* v, int64_t i) const {
    M x = static_cast<M>(p[i]);
    M grad = static_cast<M>(g[i]);
    if (l2_decay != M(0)) grad = grad + x * l2_decay;
    if (decay_factor != M(1)) x = x * decay_factor;
    const M m1 = static_cast<M>(convert<T>(static_cast<M>(m[i]) * beta1 + one_minus_beta1 * grad));
    const M v1 =
        static_cast<M>(convert<T>(static_cast<M>(v[i]) * beta2 + one_minus_beta2 * (grad * grad)));
    m[i] = convert<T>(m1);
    v[i] = convert<T>(v1);
    const M denom = std::sqrt(v1) / bias2_sqrt + eps;
    p[i] = convert<T>(x + neg_step_size * (m1 / denom));
  }
};

// The whole parameter `p` (with its gradient and state) in one pass.
using SgdMomentumStepFn = void (*)(const Tensor& p, const Tensor& grad, const Tensor& buf,
                                   const SgdMomentumStep&);
using AdamStepFn = void (*)(const Tensor& p, const Tensor& grad, const Tensor& m, const Tensor& v,
                            const AdamStep&);
inline DispatchStub<SgdMomentumStepFn> sgd_momentum_step_stub{"SGD step"};
inline DispatchStub<AdamStepFn> adam_step_stub{"Adam step"};

}  // namespace ember::kernels
