#!/usr/bin/env python3
"""Writes tests/nn/loss_reference.h: what loss_family_test.cpp expects, from torch 1.13's losses
in float64, each loss under each reduction.

Run with torch installed (the committed values were made with Debian's python3-torch 1.13):
    /usr/bin/python3 tests/nn/gen_loss_reference.py
Each case is reference_header.run() of a loss: its tensors filled with cos(0.23 k + 0.7 i), mapped
into the loss's domain inside the forward function (sigmoid for probabilities, sign for +-1
targets, ...). The header holds the output ("output0") and the gradients of the tensors that
require grad ("grad0", "grad1", ...). loss_family_test.cpp builds the same cases.
"""
import torch
from reference_header import run, write_reference_header

torch.set_default_dtype(torch.float64)
F = torch.nn.functional
REDUCTIONS = ["none", "mean", "sum"]


def loss_case(name, shapes, grads, forward):
    """reference_header.run() for a loss: its only output."""
    return run(name, shapes, grads, lambda *xs: (forward(*xs),))


def cosine_distance(a, b):
    return 1 - F.cosine_similarity(a, b)


cases = []
for r in REDUCTIONS:
    cases += [
        loss_case(f"l1_{r}", [(3, 4), (3, 4)], [0, 1], lambda x, t: F.l1_loss(x, t, reduction=r)),
        loss_case(f"smooth_l1_{r}", [(3, 4), (3, 4)], [0, 1],
            lambda x, t: F.smooth_l1_loss(x, t, reduction=r, beta=0.5)),
        loss_case(f"huber_{r}", [(3, 4), (3, 4)], [0, 1],
            lambda x, t: F.huber_loss(x, t, reduction=r, delta=0.7)),
        loss_case(f"soft_margin_{r}", [(3, 4), (3, 4)], [0],
            lambda x, t: F.soft_margin_loss(x, t.sign(), reduction=r)),
        loss_case(f"bce_{r}", [(3, 4), (3, 4), (4,)], [0, 1],
            lambda x, t, w: F.binary_cross_entropy(torch.sigmoid(x), (t + 1) / 2, w.abs() + 0.5,
                                                   reduction=r)),
        loss_case(f"kl_div_{r}", [(3, 4), (3, 4)], [0, 1],
            lambda x, t: F.kl_div(F.log_softmax(x, 1), F.softmax(t, 1), reduction=r)),
        loss_case(f"kl_div_log_target_{r}", [(3, 4), (3, 4)], [0, 1],
            lambda x, t: F.kl_div(F.log_softmax(x, 1), F.log_softmax(t, 1), reduction=r,
                                  log_target=True)),
        loss_case(f"cross_entropy_probs_{r}", [(3, 4), (3, 4), (4,)], [0, 1],
            lambda x, t, w: F.cross_entropy(x, F.softmax(t, 1), w.abs() + 0.5, reduction=r,
                                            label_smoothing=0.2)),
        loss_case(f"cross_entropy_indices_{r}", [(4, 3, 2), (3,)], [0],
            lambda x, w: F.cross_entropy(
                x, torch.tensor([[0, 2], [1, -100], [2, 2], [-100, 0]]), w.abs() + 0.5,
                reduction=r, ignore_index=-100, label_smoothing=0.3)),
        loss_case(f"poisson_nll_{r}", [(3, 4), (3, 4)], [0],
            lambda x, t: F.poisson_nll_loss(x, 3 * (t + 1), reduction=r)),
        loss_case(f"poisson_nll_full_{r}", [(3, 4), (3, 4)], [0],
            lambda x, t: F.poisson_nll_loss(x.exp(), 3 * (t + 1), log_input=False, full=True,
                                            eps=1e-3, reduction=r)),
        loss_case(f"gaussian_nll_{r}", [(3, 4), (3, 4), (3, 4)], [0, 1, 2],
            lambda x, t, v: F.gaussian_nll_loss(x, t, v + 1.2, reduction=r)),
        loss_case(f"gaussian_nll_homoscedastic_{r}", [(3, 4), (3, 4), (3,)], [0, 2],
            lambda x, t, v: F.gaussian_nll_loss(x, t, v.abs(), full=True, eps=0.1, reduction=r)),
        loss_case(f"margin_ranking_{r}", [(6,), (6,), (6,)], [0, 1],
            lambda a, b, t: F.margin_ranking_loss(a, b, t.sign(), margin=0.3, reduction=r)),
        loss_case(f"hinge_embedding_{r}", [(3, 4), (3, 4)], [0],
            lambda x, t: F.hinge_embedding_loss(x, t.sign(), margin=0.8, reduction=r)),
        loss_case(f"cosine_embedding_{r}", [(4, 5), (4, 5)], [0, 1],
            lambda a, b: F.cosine_embedding_loss(a, b, torch.tensor([1, -1, 1, -1]), margin=0.2,
                                                 reduction=r)),
        loss_case(f"triplet_margin_{r}", [(4, 5), (4, 5), (4, 5)], [0, 1, 2],
            lambda a, p, n: F.triplet_margin_loss(a, p, n, margin=1.5, reduction=r)),
        loss_case(f"triplet_margin_p1_swap_{r}", [(4, 5), (4, 5), (4, 5)], [0, 1, 2],
            lambda a, p, n: F.triplet_margin_loss(a, p, 0.5 * n, margin=0.5, p=1, swap=True,
                                                  reduction=r)),
        loss_case(f"triplet_distance_{r}", [(4, 5), (4, 5), (4, 5)], [0, 1, 2],
            lambda a, p, n: F.triplet_margin_with_distance_loss(
                a, p, n, distance_function=cosine_distance, margin=0.8, swap=True, reduction=r)),
        loss_case(f"multi_margin_{r}", [(4, 5)], [0],
            lambda x: F.multi_margin_loss(x, torch.tensor([1, 0, 4, 2]), reduction=r)),
        loss_case(f"multi_margin_p2_weight_{r}", [(4, 5), (5,)], [0],
            lambda x, w: F.multi_margin_loss(x, torch.tensor([3, 3, 0, 1]), p=2, margin=0.7,
                                             weight=w.abs(), reduction=r)),
        loss_case(f"multilabel_margin_{r}", [(3, 4)], [0],
            lambda x: F.multilabel_margin_loss(
                x, torch.tensor([[3, 0, -1, 1], [0, 1, 2, 3], [2, -1, 0, 0]]), reduction=r)),
        loss_case(f"multilabel_soft_margin_{r}", [(3, 4), (3, 4), (4,)], [0, 1],
            lambda x, t, w: F.multilabel_soft_margin_loss(x, (t + 1) / 2, w.abs(), reduction=r)),
    ]

cases += [
    loss_case("smooth_l1_beta0_broadcast", [(3, 4), (4,)], [0, 1],
        lambda x, t: F.smooth_l1_loss(x, t, beta=0.0)),
    loss_case("kl_div_batchmean", [(3, 4), (3, 4)], [0],
        lambda x, t: F.kl_div(F.log_softmax(x, 1), F.softmax(t, 1), reduction="batchmean")),
    loss_case("cosine_embedding_unbatched", [(5,), (5,)], [0, 1],
        lambda a, b: F.cosine_embedding_loss(a, b, torch.tensor(-1), margin=-0.5)),
    loss_case("multi_margin_unbatched", [(5,)], [0],
        lambda x: F.multi_margin_loss(x, torch.tensor(3), reduction="none")),
    loss_case("multilabel_margin_unbatched", [(4,)], [0],
        lambda x: F.multilabel_margin_loss(x, torch.tensor([2, 1, -1, 3]), reduction="none")),
    loss_case("gaussian_nll_var_column", [(3, 4), (3, 4), (3, 1)], [0, 2],
        lambda x, t, v: F.gaussian_nll_loss(x, t, v + 1.5)),
]

write_reference_header(
    "gen_loss_reference.py",
    "Outputs and gradients of torch's losses under each reduction for loss_family_test.cpp.",
    "loss_reference", cases)
