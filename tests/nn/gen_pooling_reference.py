#!/usr/bin/env python3
"""Writes tests/nn/pooling_reference.h: what pooling_test.cpp expects, from torch 1.13's pools
(max, avg, adaptive, LP, unpooling) and conv1d in float64.

Run with torch installed (the committed values were made with Debian's python3-torch 1.13):
    /usr/bin/python3 tests/nn/gen_pooling_reference.py
Each case fills its i-th tensor with cos(0.23 k + 0.7 i) (k the flat index), calls the op, and
takes as loss the sum of each floating output times cos(0.31 k + j) (j the output's position);
integer outputs (the indices) are recorded but left out of the loss. The header holds the
outputs and the gradients of the tensors that require grad ("grad0", "grad1", ...).
pooling_test.cpp builds the same cases.
"""
import torch
from reference_header import case_initializer, write_reference_header

torch.set_default_dtype(torch.float64)
F = torch.nn.functional


def filled(shape, i):
    n = 1
    for s in shape:
        n *= s
    return torch.cos(0.23 * torch.arange(n, dtype=torch.float64) + 0.7 * i).reshape(shape)


def run(name, shapes, forward):
    xs = [filled(s, i).requires_grad_() for i, s in enumerate(shapes)]
    outputs = forward(*xs)
    loss = sum((o * torch.cos(0.31 * torch.arange(o.numel()).reshape(o.shape) + j)).sum()
               for j, o in enumerate(outputs) if o.is_floating_point())
    loss.backward()
    rows = [(f"output{j}", o) for j, o in enumerate(outputs)]
    rows += [(f"grad{i}", x.grad) for i, x in enumerate(xs)]
    return case_initializer(name, rows)


def unpool(pool, unpool_fn, shape, pool_args, unpool_args):
    """Pools a fixed input for its indices, then unpools the case's input with them."""
    def forward(x):
        _, indices = pool(filled(shape, 5), **pool_args, return_indices=True)
        return (unpool_fn(x, indices, **unpool_args),)
    return forward


cases = [
    # Average pooling: ceil_mode, count_include_pad and divisor_override.
    run("avg_pool1d", [(2, 3, 7)],
        lambda x: (F.avg_pool1d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),)),
    run("avg_pool1d_default", [(3, 8)], lambda x: (F.avg_pool1d(x, 2),)),
    run("avg_pool2d_ceil", [(2, 2, 5, 6)],
        lambda x: (F.avg_pool2d(x, (3, 2), (2, 1), (1, 1), ceil_mode=True),)),
    run("avg_pool2d_ceil_exclude_pad", [(2, 2, 5, 6)],
        lambda x: (F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),)),
    run("avg_pool2d_divisor", [(1, 2, 5, 5)],
        lambda x: (F.avg_pool2d(x, 3, 2, 1, divisor_override=5),)),
    run("avg_pool2d_unbatched", [(3, 5, 5)], lambda x: (F.avg_pool2d(x, 2),)),
    run("avg_pool3d_ceil_exclude_pad", [(2, 2, 4, 5, 6)],
        lambda x: (F.avg_pool3d(x, (2, 3, 2), (2, 2, 1), (1, 1, 0), ceil_mode=True,
                                count_include_pad=False),)),
    run("avg_pool3d_divisor", [(1, 2, 4, 4, 5)],
        lambda x: (F.avg_pool3d(x, 2, 1, 1, divisor_override=3),)),
    run("avg_pool3d_unbatched", [(2, 3, 4, 5)], lambda x: (F.avg_pool3d(x, 2),)),
    # Max pooling with indices: padding, dilation, ceil_mode.
    run("max_pool1d", [(2, 3, 9)],
        lambda x: F.max_pool1d(x, 3, 2, 1, 2, ceil_mode=True, return_indices=True)),
    run("max_pool2d", [(2, 2, 6, 7)],
        lambda x: F.max_pool2d(x, (3, 2), 2, 1, (1, 2), ceil_mode=True, return_indices=True)),
    run("max_pool3d", [(2, 2, 5, 6, 7)],
        lambda x: F.max_pool3d(x, (2, 3, 3), 2, (1, 1, 0), (1, 1, 2), ceil_mode=True,
                               return_indices=True)),
    run("max_pool3d_unbatched", [(2, 4, 4, 4)],
        lambda x: F.max_pool3d(x, 2, return_indices=True)),
    # Adaptive pooling: uneven windows, outputs larger than inputs, None keeping a size.
    run("adaptive_avg_pool1d", [(2, 3, 7)], lambda x: (F.adaptive_avg_pool1d(x, 3),)),
    run("adaptive_avg_pool1d_grow", [(2, 5)], lambda x: (F.adaptive_avg_pool1d(x, 7),)),
    run("adaptive_avg_pool2d", [(2, 2, 7, 5)], lambda x: (F.adaptive_avg_pool2d(x, (3, 4)),)),
    run("adaptive_avg_pool2d_none", [(2, 7, 5)],
        lambda x: (F.adaptive_avg_pool2d(x, (3, None)),)),
    run("adaptive_avg_pool3d", [(2, 2, 5, 7, 6)],
        lambda x: (F.adaptive_avg_pool3d(x, (2, 3, 4)),)),
    run("adaptive_max_pool1d", [(2, 3, 7)],
        lambda x: F.adaptive_max_pool1d(x, 3, return_indices=True)),
    run("adaptive_max_pool2d", [(2, 2, 7, 5)],
        lambda x: F.adaptive_max_pool2d(x, (3, 4), return_indices=True)),
    run("adaptive_max_pool2d_none", [(2, 7, 5)],
        lambda x: F.adaptive_max_pool2d(x, (None, 2), return_indices=True)),
    run("adaptive_max_pool3d", [(2, 2, 5, 7, 6)],
        lambda x: F.adaptive_max_pool3d(x, (2, 3, 4), return_indices=True)),
    # LP pooling, unpooling and conv1d.
    run("lp_pool1d", [(2, 3, 8)], lambda x: (F.lp_pool1d(x, 4.0, 3, 2, ceil_mode=True),)),
    run("lp_pool2d", [(2, 2, 5, 6)], lambda x: (F.lp_pool2d(x, 2.0, (2, 3), 2),)),
    run("max_unpool1d", [(2, 3, 4)],
        unpool(F.max_pool1d, F.max_unpool1d, (2, 3, 9), {"kernel_size": 2},
               {"kernel_size": 2, "output_size": [9]})),
    run("max_unpool2d", [(2, 2, 3, 3)],
        unpool(F.max_pool2d, F.max_unpool2d, (2, 2, 6, 6), {"kernel_size": 2},
               {"kernel_size": 2})),
    run("max_unpool3d", [(1, 2, 2, 2, 3)],
        unpool(F.max_pool3d, F.max_unpool3d, (1, 2, 5, 4, 7), {"kernel_size": 2},
               {"kernel_size": 2, "output_size": [1, 2, 5, 4, 7]})),
    run("conv1d", [(2, 4, 9), (6, 2, 3), (6,)],
        lambda x, w, b: (F.conv1d(x, w, b, stride=2, padding=1, dilation=2, groups=2),)),
    run("conv1d_unbatched", [(3, 6), (2, 3, 2)], lambda x, w: (F.conv1d(x, w),)),
]

write_reference_header(
    "gen_pooling_reference.py",
    "Outputs and gradients of torch's pools and conv1d for pooling_test.cpp's cases.",
    "pooling_reference", cases)
