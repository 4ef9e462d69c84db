#!/usr/bin/env python3
"""Writes tests/nn/ctc_loss_reference.h: what ctc_loss_test.cpp expects, from torch 1.13's
F.ctc_loss in float64.

Run with torch installed (the committed values were made with Debian's python3-torch 1.13):
    /usr/bin/python3 tests/nn/gen_ctc_loss_reference.py
Each case fills its input x [T, N, C] (or [T, C]) with cos(0.23 k) (reference_header.py's
filled()) and hands ctc_loss the log-probabilities x - logsumexp(x) with the logsumexp detached:
their values are normalised, and x's gradient is the one ctc_loss gives a log_probs leaf (ATen's,
exp(log_probs) minus the label posteriors). The "logits" case takes log_softmax(x) instead, so
its gradient is the logits'. The loss is the sum of the output times cos(0.31 k); the header
holds the output ("output0") and x's gradient ("grad0"). The targets and lengths are constants
that ctc_loss_test.cpp repeats.
"""
import torch
from reference_header import run, write_reference_header

torch.set_default_dtype(torch.float64)
F = torch.nn.functional


def normalised(x):
    dim = x.dim() - 1
    return x - x.logsumexp(dim, keepdim=True).detach()


def ctc(name, shape, targets, input_lengths, target_lengths, blank=0, reduction="mean",
        zero_infinity=False, log_probs=normalised):
    return run(name, [shape], [0], lambda x: (F.ctc_loss(
        log_probs(x), torch.tensor(targets), torch.tensor(input_lengths),
        torch.tensor(target_lengths), blank=blank, reduction=reduction,
        zero_infinity=zero_infinity),))


# Three samples of up to 3 labels (the third repeats one label, so it needs blanks between),
# padded with 0 or -1 past their lengths, or concatenated.
PADDED = [[1, 2, 2], [3, 1, 0], [4, 4, 4]]
CONCATENATED = [1, 2, 2, 3, 1, 4, 4, 4]
IN_LENGTHS = [7, 5, 6]
TG_LENGTHS = [3, 2, 3]

cases = [
    ctc("padded_mean", (7, 3, 5), PADDED, IN_LENGTHS, TG_LENGTHS),
    ctc("padded_sum", (7, 3, 5), PADDED, IN_LENGTHS, TG_LENGTHS, reduction="sum"),
    ctc("padded_none", (7, 3, 5), PADDED, IN_LENGTHS, TG_LENGTHS, reduction="none"),
    ctc("concatenated_none", (7, 3, 5), CONCATENATED, IN_LENGTHS, TG_LENGTHS, reduction="none"),
    # Shorter inputs and targets, an empty target (its mean divides by 1), padding of -1.
    ctc("varying_lengths_mean", (6, 4, 4), [[1, 1, -1], [2, 3, 1], [3, -1, -1], [2, 1, -1]],
        [6, 4, 2, 3], [2, 3, 0, 1]),
    # The blank is the last class: targets use class 0.
    ctc("blank_last_none", (5, 3, 4), [[0, 1], [2, 2], [0, 0]], [5, 5, 4], [2, 2, 1], blank=3,
        reduction="none"),
    # The second sample's target [2, 2, 2] needs 5 steps and has 4: an infinite loss, zeroed.
    ctc("zero_infinity_none", (4, 2, 3), [[1, 2, 0], [2, 2, 2]], [4, 4], [2, 3],
        reduction="none", zero_infinity=True),
    ctc("zero_infinity_mean", (4, 2, 3), [[1, 2, 0], [2, 2, 2]], [4, 4], [2, 3],
        zero_infinity=True),
    ctc("unbatched_none", (6, 4), [3, 1, 3], [6], [3], reduction="none"),
    ctc("unbatched_sum", (6, 4), [2, 2], [5], [2], blank=1, reduction="sum"),
    ctc("logits_mean", (7, 3, 5), PADDED, IN_LENGTHS, TG_LENGTHS,
        log_probs=lambda x: x.log_softmax(2)),
]

write_reference_header(
    "gen_ctc_loss_reference.py",
    "Losses of torch's F.ctc_loss and their gradients, for ctc_loss_test.cpp's cases.",
    "ctc_loss_reference", cases)
