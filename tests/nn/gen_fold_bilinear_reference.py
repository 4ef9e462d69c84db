#!/usr/bin/env python3
"""Writes tests/nn/fold_bilinear_reference.h: what fold_bilinear_test.cpp expects, from torch
1.13's bilinear, fold, unfold and unflatten in float64.

Run with torch installed (the committed values were made with Debian's python3-torch 1.13):
    /usr/bin/python3 tests/nn/gen_fold_bilinear_reference.py
Each case fills its i-th tensor with cos(0.23 k + 0.7 i) (k the flat index), calls the op, and
takes as loss the sum of each output times cos(0.31 k + j) (j the output's position). The header
holds the outputs and the gradients of every input ("grad0", "grad1", ...).
fold_bilinear_test.cpp builds the same cases.
"""
import torch
from reference_header import run, write_reference_header

torch.set_default_dtype(torch.float64)
F = torch.nn.functional


def case(name, shapes, forward):
    """A case whose every input requires grad."""
    return run(name, shapes, range(len(shapes)), forward)


cases = [
    # bilinear: batched with bias, without bias, leading dims, unbatched (1-D inputs).
    case("bilinear", [(4, 3), (4, 5), (2, 3, 5), (2,)],
         lambda a, b, w, bias: (F.bilinear(a, b, w, bias),)),
    case("bilinear_no_bias", [(3, 2), (3, 4), (3, 2, 4)],
         lambda a, b, w: (F.bilinear(a, b, w),)),
    case("bilinear_leading_dims", [(2, 3, 2), (2, 3, 3), (4, 2, 3), (4,)],
         lambda a, b, w, bias: (F.bilinear(a, b, w, bias),)),
    case("bilinear_unbatched", [(3,), (2,), (2, 3, 2), (2,)],
         lambda a, b, w, bias: (F.bilinear(a, b, w, bias),)),
    # unfold (im2col): defaults, then stride, padding and dilation, per dim.
    case("unfold", [(2, 3, 4, 5)], lambda x: (F.unfold(x, 2),)),
    case("unfold_stride_padding_dilation", [(2, 2, 6, 7)],
         lambda x: (F.unfold(x, (2, 3), dilation=(2, 1), padding=(1, 2), stride=(2, 3)),)),
    # fold (col2im): overlapping blocks sum; unbatched input.
    case("fold", [(2, 12, 12)], lambda x: (F.fold(x, (4, 5), 2),)),
    case("fold_stride_padding_dilation", [(2, 12, 6)],
         lambda x: (F.fold(x, (5, 6), (2, 3), dilation=(1, 2), padding=(1, 0), stride=(2, 1)),)),
    case("fold_unbatched", [(8, 9)], lambda x: (F.fold(x, 4, 2, stride=1),)),
    # unflatten with an inferred size, and of a negative dim.
    case("unflatten", [(2, 12, 3)], lambda x: (x.unflatten(1, (2, -1, 3)),)),
    case("unflatten_negative_dim", [(3, 8)], lambda x: (x.unflatten(-1, (-1, 4)),)),
]

write_reference_header(
    "gen_fold_bilinear_reference.py",
    "Outputs and gradients of torch's bilinear, fold, unfold and unflatten for "
    "fold_bilinear_test.cpp's cases.",
    "fold_bilinear_reference", cases)
