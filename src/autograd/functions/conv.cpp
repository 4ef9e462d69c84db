// Backward formulas of the convolution and the pools (see conv.h).
#include "autograd/functions/conv.h"

#include "ember/factory.h"
#include "ember/linalg.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"

namespace ember::autograd::functions {

Grads ConvolutionBackward0::operator()(const Context& c) const {
  const kernels::Window2d& w = window;
  const Tensor &x = c.saved(0), &weight = c.saved(1);
  ops::ConvSizes s(x, weight, w, groups);
  Tensor gx, gw, gb;
  if (ops::conv_per_image(x, s) && !autograd::needs_grad(c.grad(), x, weight)) {
    if (c.needs(0)) gx = zeros(x.sizes(), x.options());
    if (c.needs(1)) gw = empty(weight.sizes(), weight.options());
    if (c.needs(2)) gb = empty({s.o}, weight.options());
    kernels::conv2d_backward_stub(DeviceType::CPU, x.contiguous(), weight.contiguous(),
                                  c.grad().contiguous(), gx, gw, gb, w, groups);
    return Grads{gx, gw, gb};
  }
  if (c.needs(2)) gb = c.grad().sum({0, 2, 3});
  Tensor g = c.grad().reshape({s.n, s.g, s.o / s.g, s.l});
  if (c.needs(0)) {  // col2im(W^T @ grad)
    Tensor wt = weight.reshape({1, s.g, s.o / s.g, s.k}).transpose(-1, -2);
    gx = ops::col2im(matmul(wt, g).reshape({s.n, s.c * w.kh * w.kw, s.l}), x.sizes(), w);
  }
  if (c.needs(1)) {  // grad @ cols^T, summed over the batch
    Tensor cols = ops::im2col(x, w).view({s.n, s.g, s.k, s.l});
    gw = matmul(g, cols.transpose(-1, -2)).sum({0}).reshape(weight.sizes());
  }
  return Grads{gx, gw, gb};
}

Grads Im2ColBackward0::operator()(const Context& c) const {
  return Grads{ops::col2im(c.grad(), input, window)};
}

Grads Col2ImBackward0::operator()(const Context& c) const {
  return Grads{ops::im2col(c.grad(), window)};
}

Grads MaxPool2DWithIndicesBackward0::operator()(const Context& c) const {
  const kernels::Window2d& w = pool.window;
  const int64_t planes = pool.planes, l = w.out_h * w.out_w;
  Tensor g = c.grad().reshape({planes, l});
  const Tensor& indices = c.saved(0);
  if (g.device().is_cpu() && !autograd::needs_grad(g)) {  // the kernel records no graph
    Tensor gi = empty({planes, w.height * w.width}, g.options());
    kernels::max_pool2d_backward_stub(DeviceType::CPU, g.contiguous(), indices.contiguous(), gi, w);
    return Grads{gi.view(pool.input)};
  }
  Tensor z = zeros({planes, w.height * w.width}, g.options());
  z.scatter_add_(1, indices.reshape({planes, l}), g);  // in place: z is new, no clone needed
  return Grads{z.view(pool.input)};
}

Grads AvgPool2DBackward0::operator()(const Context& c) const {
  const kernels::Window2d& w = pool.window;
  const int64_t planes = pool.planes, l = w.out_h * w.out_w, taps = w.kh * w.kw;
  Tensor g = (c.grad().reshape({planes, 1, l}) / c.saved(0).view({1, 1, l}))
                 .expand({planes, taps, l})
                 .contiguous();
  return Grads{ops::col2im(g, {planes, 1, w.height, w.width}, w).view(pool.input)};
}

}  // namespace ember::autograd::functions
