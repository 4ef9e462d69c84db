#!/usr/bin/env python3
"""Prints the learning rates that lr_scheduler_test.cpp expects, from torch.optim.lr_scheduler.

Run once with torch installed (the committed values were made with torch 1.13):
    python3 tests/nn/gen_lr_scheduler_reference.py
and paste each line into cases() in lr_scheduler_test.cpp. Each row is epoch 0 (after construction) then 12 steps.
"""
import warnings

import torch
from torch.optim import SGD, lr_scheduler as S

CASES = {
    "StepLR(3, 0.5)": lambda o: S.StepLR(o, step_size=3, gamma=0.5),
    "MultiStepLR({6, 2, 9, 2}, 0.1)": lambda o: S.MultiStepLR(o, milestones=[6, 2, 9, 2], gamma=0.1),
    "ExponentialLR(0.9)": lambda o: S.ExponentialLR(o, gamma=0.9),
    "CosineAnnealingLR(5, 0.001)": lambda o: S.CosineAnnealingLR(o, T_max=5, eta_min=0.001),
    "LinearLR()": lambda o: S.LinearLR(o),
    "LinearLR(1, 0, 10)": lambda o: S.LinearLR(o, start_factor=1.0, end_factor=0.0, total_iters=10),
}

warnings.simplefilter("ignore")  # the "optimizer.step() before lr_scheduler.step()" warning
for name, make in CASES.items():
    opt = SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1)
    sched = make(opt)
    lrs = [sched.get_last_lr()[0]]
    for _ in range(12):
        opt.step()
        sched.step()
        lrs.append(sched.get_last_lr()[0])
    print('{"%s", {%s}},' % (name, ", ".join(repr(v) for v in lrs)))
