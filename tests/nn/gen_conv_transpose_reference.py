#!/usr/bin/env python3
"""Writes tests/nn/conv_transpose_reference.h: what conv_transpose_test.cpp expects, from torch
1.13's F.conv_transpose1d/2d/3d and ConvTranspose2d's forward with an output_size, in float64.

Run with torch installed (the committed values were made with Debian's python3-torch 1.13):
    /usr/bin/python3 tests/nn/gen_conv_transpose_reference.py
Each case fills its i-th tensor with cos(0.23 k + 0.7 i) (k the flat index), calls the op, and
takes as loss the sum of each output times cos(0.31 k + j) (j the output's position). The header
holds the outputs and the gradients of every input ("grad0", "grad1", ...): input, weight, bias.
"""
import torch
from reference_header import run, write_reference_header

torch.set_default_dtype(torch.float64)
F = torch.nn.functional


def case(name, shapes, forward):
    """A case whose every input requires grad."""
    return run(name, shapes, range(len(shapes)), forward)


def convt(name, fn, x, w, bias, **kw):
    """fn(input, weight, bias, **kw) with a bias of weight.size(1) * groups when bias is set."""
    groups = kw.get("groups", 1)
    if bias:
        return case(name, [x, w, (w[1] * groups,)], lambda a, b, c: (fn(a, b, c, **kw),))
    return case(name, [x, w], lambda a, b: (fn(a, b, None, **kw),))


ct1, ct2, ct3 = F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d

cases = [
    # 1-D: plain, strided with padding and output_padding, grouped and dilated, unbatched.
    convt("ct1d_plain", ct1, (2, 3, 5), (3, 2, 3), True),
    convt("ct1d_stride_pad_outpad", ct1, (2, 2, 4), (2, 3, 3), True, stride=3, padding=1,
          output_padding=2),
    convt("ct1d_groups_dilation", ct1, (1, 4, 5), (4, 3, 2), False, groups=2, dilation=3,
          padding=2),
    convt("ct1d_unbatched", ct1, (3, 4), (3, 2, 2), True, stride=2),
    # 2-D: plain, per-dim stride / padding / output_padding, groups with dilation, an
    # output_padding below the dilation but not the stride, a crop larger than output_padding,
    # unbatched.
    convt("ct2d_plain", ct2, (2, 3, 3, 4), (3, 2, 2, 3), True),
    convt("ct2d_stride_pad_outpad", ct2, (2, 2, 3, 4), (2, 3, 3, 2), True, stride=(2, 3),
          padding=(1, 0), output_padding=(1, 2)),
    convt("ct2d_groups_dilation", ct2, (1, 6, 3, 3), (6, 2, 2, 3), True, groups=3,
          dilation=(2, 1), padding=(1, 1)),
    convt("ct2d_outpad_below_dilation", ct2, (1, 2, 3, 3), (2, 2, 3, 3), False, stride=1,
          dilation=3, output_padding=2, padding=2),
    convt("ct2d_outpad_beyond_padding", ct2, (1, 1, 2, 3), (1, 1, 1, 2), False, stride=3,
          padding=(2, 1), output_padding=(2, 1)),
    convt("ct2d_unbatched", ct2, (2, 3, 3), (2, 4, 3, 3), True, stride=2, padding=1,
          output_padding=1),
    # 3-D: plain, strided with padding and output_padding per dim, groups with dilation,
    # unbatched.
    convt("ct3d_plain", ct3, (1, 2, 2, 3, 2), (2, 3, 2, 2, 2), True),
    convt("ct3d_stride_pad_outpad", ct3, (2, 2, 3, 2, 3), (2, 2, 3, 2, 2), True, stride=(2, 3, 1),
          padding=(1, 0, 1), output_padding=(1, 2, 0)),
    convt("ct3d_groups_dilation", ct3, (1, 4, 2, 3, 3), (4, 1, 2, 2, 3), True, groups=2,
          dilation=(2, 1, 2), stride=(1, 2, 1), padding=(0, 1, 1)),
    convt("ct3d_unbatched", ct3, (2, 2, 2, 3), (2, 2, 2, 3, 2), False, stride=2, padding=1,
          output_padding=1),
]


def module_case(name, x, output_size, in_channels, out_channels, kernel, unbatched=False, **kw):
    """ConvTranspose2d(...)(x, output_size) with the case's weight and bias."""
    def forward(a, w, b):
        m = torch.nn.ConvTranspose2d(in_channels, out_channels, kernel, **kw)
        # The case's weight and bias in place of the module's, so that they get gradients.
        return (torch.nn.utils.stateless.functional_call(m, {"weight": w, "bias": b},
                                                         (a, output_size)),)
    groups = kw.get("groups", 1)
    w = (in_channels, out_channels // groups) + kernel
    return case(name, [x, w, (out_channels,)], forward)


cases += [
    module_case("module_output_size", (1, 2, 4, 3), [8, 10], 2, 3, (3, 2), stride=(2, 3),
                padding=(1, 0)),
    module_case("module_output_size_full", (2, 2, 3, 3), [2, 2, 7, 8], 2, 2, (2, 2), stride=3,
                padding=1, dilation=(2, 1)),
    module_case("module_output_size_unbatched", (2, 3, 3), [2, 6, 7], 2, 2, (2, 2), stride=2),
]

write_reference_header(
    "gen_conv_transpose_reference.py",
    "Outputs and gradients of torch's transposed convolutions (1-d, 2-d, 3-d) and of "
    "ConvTranspose2d with an output_size, for conv_transpose_test.cpp's cases.",
    "conv_transpose_reference", cases)
