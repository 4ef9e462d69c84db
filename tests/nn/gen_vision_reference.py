#!/usr/bin/env python3
"""Writes tests/nn/vision_reference.h: what vision_test.cpp expects, from torch 1.13's
F.affine_grid and F.grid_sample (every mode, padding mode and align_corners, 4-D and 5-D), in
float64.

Run with torch installed (the committed values were made with Debian's python3-torch 1.13):
    /usr/bin/python3 tests/nn/gen_vision_reference.py
Each case fills its i-th tensor with cos(0.23 k + 0.7 i) (k the flat index), calls the op, and
takes as loss the sum of each output times cos(0.31 k + j) (j the output's position). The header
holds the outputs and the gradients of the inputs that require grad ("grad0", "grad1"). A grid
is used as 1.4 * filled + 0.1, so that it reaches outside [-1, 1].
"""
import torch
from reference_header import run, write_reference_header

torch.set_default_dtype(torch.float64)
F = torch.nn.functional

GRID_SCALE, GRID_SHIFT = 1.4, 0.1


def affine(name, theta_shape, size, align_corners):
    return run(name, [theta_shape], [0],
               lambda t: (F.affine_grid(t, size, align_corners=align_corners),))


def sample(name, input_shape, grid_shape, mode, padding_mode, align_corners):
    # nearest is piecewise constant in the grid: its gradient there is zeros.
    return run(name, [input_shape, grid_shape], [0, 1],
               lambda x, g: (F.grid_sample(x, GRID_SCALE * g + GRID_SHIFT, mode=mode,
                                           padding_mode=padding_mode,
                                           align_corners=align_corners),))


def flag(align_corners):
    return "ac" if align_corners else "noac"


cases = [
    affine("affine_2d_ac", (2, 2, 3), (2, 3, 4, 5), True),
    affine("affine_2d_noac", (2, 2, 3), (2, 3, 4, 5), False),
    affine("affine_3d_ac", (2, 3, 4), (2, 1, 3, 4, 2), True),
    affine("affine_3d_noac", (2, 3, 4), (2, 1, 3, 4, 2), False),
    # one pixel wide: linspace_from_neg_one gives 0
    affine("affine_2d_single", (1, 2, 3), (1, 1, 1, 3), False),
]
for mode in ("bilinear", "nearest", "bicubic"):
    for padding_mode in ("zeros", "border", "reflection"):
        for align_corners in (True, False):
            cases.append(sample(f"sample4d_{mode}_{padding_mode}_{flag(align_corners)}",
                                (2, 2, 4, 5), (2, 3, 4, 2), mode, padding_mode, align_corners))
for mode in ("bilinear", "nearest"):
    for padding_mode in ("zeros", "border", "reflection"):
        for align_corners in (True, False):
            cases.append(sample(f"sample5d_{mode}_{padding_mode}_{flag(align_corners)}",
                                (1, 2, 3, 4, 3), (1, 2, 3, 2, 3), mode, padding_mode,
                                align_corners))
# A one-pixel-high input: reflection with align_corners has nothing to reflect off.
for padding_mode in ("reflection", "border"):
    cases.append(sample(f"sample4d_single_row_{padding_mode}", (1, 2, 1, 4), (1, 2, 3, 2),
                        "bilinear", padding_mode, True))
# affine_grid into grid_sample: a spatial transformer.
cases.append(run("affine_then_sample", [(2, 2, 4, 5), (2, 2, 3)], [0, 1],
                 lambda x, t: (F.grid_sample(x, F.affine_grid(t, (2, 2, 3, 3),
                                                              align_corners=False),
                                             align_corners=False),)))

write_reference_header(
    "gen_vision_reference.py",
    "Outputs and gradients of torch's F.affine_grid and F.grid_sample, for vision_test.cpp's "
    "cases.",
    "vision_reference", cases)
