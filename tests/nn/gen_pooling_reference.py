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
from reference_header import filled, run, write_reference_header

torch.set_default_dtype(torch.float64)
F = torch.nn.functional


def case(name, shapes, forward):
    """A case whose every input requires grad."""
    return run(name, shapes, range(len(shapes)), forward)


def unpool(pool, unpool_fn, shape, pool_args, unpool_args):
    """Pools a fixed input for its indices, then unpools the case's input with them."""
    def forward(x):
        _, indices = pool(filled(shape, 5), **pool_args, return_indices=True)
        return (unpool_fn(x, indices, **unpool_args),)
    return forward


cases = [
    # Average pooling: ceil_mode, count_include_pad and divisor_override.
    case("avg_pool1d", [(2, 3, 7)],
        lambda x: (F.avg_pool1d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),)),
    case("avg_pool1d_default", [(3, 8)], lambda x: (F.avg_pool1d(x, 2),)),
    case("avg_pool2d_ceil", [(2, 2, 5, 6)],
        lambda x: (F.avg_pool2d(x, (3, 2), (2, 1), (1, 1), ceil_mode=True),)),
    case("avg_pool2d_ceil_exclude_pad", [(2, 2, 5, 6)],
        lambda x: (F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),)),
    case("avg_pool2d_divisor", [(1, 2, 5, 5)],
        lambda x: (F.avg_pool2d(x, 3, 2, 1, divisor_override=5),)),
    case("avg_pool2d_unbatched", [(3, 5, 5)], lambda x: (F.avg_pool2d(x, 2),)),
    case("avg_pool3d_ceil_exclude_pad", [(2, 2, 4, 5, 6)],
        lambda x: (F.avg_pool3d(x, (2, 3, 2), (2, 2, 1), (1, 1, 0), ceil_mode=True,
                                count_include_pad=False),)),
    case("avg_pool3d_divisor", [(1, 2, 4, 4, 5)],
        lambda x: (F.avg_pool3d(x, 2, 1, 1, divisor_override=3),)),
    case("avg_pool3d_unbatched", [(2, 3, 4, 5)], lambda x: (F.avg_pool3d(x, 2),)),
    # Max pooling with indices: padding, dilation, ceil_mode.
    case("max_pool1d", [(2, 3, 9)],
        lambda x: F.max_pool1d(x, 3, 2, 1, 2, ceil_mode=True, return_indices=True)),
    case("max_pool2d", [(2, 2, 6, 7)],
        lambda x: F.max_pool2d(x, (3, 2), 2, 1, (1, 2), ceil_mode=True, return_indices=True)),
    case("max_pool3d", [(2, 2, 5, 6, 7)],
        lambda x: F.max_pool3d(x, (2, 3, 3), 2, (1, 1, 0), (1, 1, 2), ceil_mode=True,
                               return_indices=True)),
    case("max_pool3d_unbatched", [(2, 4, 4, 4)],
        lambda x: F.max_pool3d(x, 2, return_indices=True)),
    # Adaptive pooling: uneven windows, outputs larger than inputs, None keeping a size.
    case("adaptive_avg_pool1d", [(2, 3, 7)], lambda x: (F.adaptive_avg_pool1d(x, 3),)),
    case("adaptive_avg_pool1d_grow", [(2, 5)], lambda x: (F.adaptive_avg_pool1d(x, 7),)),
    case("adaptive_avg_pool2d", [(2, 2, 7, 5)], lambda x: (F.adaptive_avg_pool2d(x, (3, 4)),)),
    case("adaptive_avg_pool2d_none", [(2, 7, 5)],
        lambda x: (F.adaptive_avg_pool2d(x, (3, None)),)),
    case("adaptive_avg_pool3d", [(2, 2, 5, 7, 6)],
        lambda x: (F.adaptive_avg_pool3d(x, (2, 3, 4)),)),
    case("adaptive_max_pool1d", [(2, 3, 7)],
        lambda x: F.adaptive_max_pool1d(x, 3, return_indices=True)),
    case("adaptive_max_pool2d", [(2, 2, 7, 5)],
        lambda x: F.adaptive_max_pool2d(x, (3, 4), return_indices=True)),
    case("adaptive_max_pool2d_none", [(2, 7, 5)],
        lambda x: F.adaptive_max_pool2d(x, (None, 2), return_indices=True)),
    case("adaptive_max_pool3d", [(2, 2, 5, 7, 6)],
        lambda x: F.adaptive_max_pool3d(x, (2, 3, 4), return_indices=True)),
    # LP pooling, unpooling and conv1d.
    case("lp_pool1d", [(2, 3, 8)], lambda x: (F.lp_pool1d(x, 4.0, 3, 2, ceil_mode=True),)),
    case("lp_pool2d", [(2, 2, 5, 6)], lambda x: (F.lp_pool2d(x, 2.0, (2, 3), 2),)),
    case("max_unpool1d", [(2, 3, 4)],
        unpool(F.max_pool1d, F.max_unpool1d, (2, 3, 9), {"kernel_size": 2},
               {"kernel_size": 2, "output_size": [9]})),
    case("max_unpool2d", [(2, 2, 3, 3)],
        unpool(F.max_pool2d, F.max_unpool2d, (2, 2, 6, 6), {"kernel_size": 2},
               {"kernel_size": 2})),
    case("max_unpool3d", [(1, 2, 2, 2, 3)],
        unpool(F.max_pool3d, F.max_unpool3d, (1, 2, 5, 4, 7), {"kernel_size": 2},
               {"kernel_size": 2, "output_size": [1, 2, 5, 4, 7]})),
    case("conv1d", [(2, 4, 9), (6, 2, 3), (6,)],
        lambda x, w, b: (F.conv1d(x, w, b, stride=2, padding=1, dilation=2, groups=2),)),
    case("conv1d_unbatched", [(3, 6), (2, 3, 2)], lambda x, w: (F.conv1d(x, w),)),
]

write_reference_header(
    "gen_pooling_reference.py",
    "Outputs and gradients of torch's pools and conv1d for pooling_test.cpp's cases.",
    "pooling_reference", cases)
