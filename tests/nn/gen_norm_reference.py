#!/usr/bin/env python3
"""Writes tests/nn/norm_reference.h: what norm_distance_test.cpp expects, from torch 1.13's
group_norm, instance_norm, local_response_norm, cosine_similarity, pairwise_distance,
pixel_shuffle and pixel_unshuffle in float64.

Run with torch installed (the committed values were made with Debian's python3-torch 1.13):
    /usr/bin/python3 tests/nn/gen_norm_reference.py
Each case fills its i-th tensor with cos(0.23 k + 0.7 i) (k the flat index), calls the op, and
takes as loss the sum of each output times cos(0.31 k + j) (j the output's position). The header
holds the outputs and the gradients of the tensors that require grad ("grad0", "grad1", ...).
norm_distance_test.cpp builds the same cases.
"""
import torch
from reference_header import run, write_reference_header

torch.set_default_dtype(torch.float64)
F = torch.nn.functional


def instance_norm_training(x, w, b, mean, var):
    mean, var = mean.detach().clone(), var.detach().abs() + 0.5
    out = torch.instance_norm(x, w, b, mean, var, True, 0.2, 1e-5, False)
    return out, mean, var


cases = [
    run("group_norm", [(2, 6, 3, 2), (6,), (6,)], [0, 1, 2],
        lambda x, w, b: (torch.group_norm(x, 3, w, b, 1e-5, False),)),
    run("group_norm_no_affine", [(3, 4, 5)], [0],
        lambda x: (torch.group_norm(x, 2, None, None, 1e-3, False),)),
    run("instance_norm_training", [(2, 3, 5), (3,), (3,), (3,), (3,)], [0, 1, 2],
        instance_norm_training),
    run("instance_norm_eval", [(2, 3, 2, 2), (3,), (3,), (3,), (3,)], [0, 1, 2],
        lambda x, w, b, mean, var: (torch.instance_norm(
            x, w, b, mean.detach(), var.detach().abs() + 0.5, False, 0.1, 1e-5, False),)),
    run("local_response_norm_3d", [(2, 5, 3)], [0],
        lambda x: (F.local_response_norm(x, 3, alpha=0.1, beta=0.75, k=2.0),)),
    run("local_response_norm_4d", [(2, 6, 2, 2)], [0],
        lambda x: (F.local_response_norm(x, 4, alpha=0.3, beta=0.5, k=1.0),)),
    run("cosine_similarity", [(3, 4), (3, 4)], [0, 1],
        lambda a, b: (torch.cosine_similarity(a, b, 1, 1e-8),)),
    run("cosine_similarity_broadcast", [(2, 1, 4), (3, 4)], [0, 1],
        lambda a, b: (torch.cosine_similarity(a, b, -1, 1e-8),)),
    run("pairwise_distance", [(3, 4), (3, 4)], [0, 1],
        lambda a, b: (torch.pairwise_distance(a, b, 2.0, 1e-6, False),)),
    run("pairwise_distance_p1_keepdim", [(3, 4), (3, 4)], [0, 1],
        lambda a, b: (torch.pairwise_distance(a, b, 1.0, 1e-6, True),)),
    run("pairwise_distance_p3_broadcast", [(3, 4), (4,)], [0, 1],
        lambda a, b: (torch.pairwise_distance(a, b, 3.0, 1e-6, False),)),
    run("pixel_shuffle", [(1, 8, 2, 3)], [0], lambda x: (torch.pixel_shuffle(x, 2),)),
    run("pixel_unshuffle", [(2, 1, 4, 6)], [0], lambda x: (torch.pixel_unshuffle(x, 2),)),
]

write_reference_header(
    "gen_norm_reference.py",
    "Outputs and gradients of torch's normalisation, distance and pixel-shuffle ops for norm_distance_test.cpp's cases.",
    "norm_reference", cases)
