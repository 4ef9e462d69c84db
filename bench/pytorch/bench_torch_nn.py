#!/usr/bin/env python3
"""PyTorch anchor for W10 and W11 (../shared/bench/WORKLOADS.md), which the shared
bench_torch.py lacks: the same models, steps and repetitions as ember-bench and the LibTorch
anchor, on a CUDA GPU or the CPU.

Usage: python3 bench_torch_nn.py [--device cuda|cpu] [W10 W11]   (no workload = both)
Prints `RESULT <key> <median> <unit> <min> <max> <reps> # <description>` lines with the keys
ember-bench prints, so ../shared/bench/compare.py pairs them. Each timed repetition ends with a
synchronisation, so queued GPU work is counted.
"""
import argparse
import statistics
import time

import torch
import torch.nn.functional as F


def sync(dev):
    if dev.type == "cuda":
        torch.cuda.synchronize(dev)


def bench(dev, key, desc, warm, reps, per_rep, step):
    """As ember-bench's bench(): `warm` untimed steps, then `reps` timed runs of `per_rep` steps."""
    for _ in range(warm):
        step()
    sync(dev)
    ms = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(per_rep):
            step()
        sync(dev)
        ms.append((time.perf_counter() - t0) / per_rep * 1e3)
    print(f"RESULT {key:<16} {statistics.median(ms):12.5g} {'ms/step':<9} {min(ms):12.5g} "
          f"{max(ms):12.5g} {len(ms):3d} # {desc}", flush=True)


class LeNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(1, 6, 5, padding=2)
        self.c2 = torch.nn.Conv2d(6, 16, 5)
        self.f1 = torch.nn.Linear(400, 120)
        self.f2 = torch.nn.Linear(120, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        x = F.relu(self.f1(x.flatten(1)))
        return self.f2(x)


def w10(dev):
    torch.manual_seed(0)
    model = LeNet().to(dev)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = torch.randn(64, 1, 28, 28, device=dev)
    y = torch.randint(0, 10, (64,), device=dev)

    def step():
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
    bench(dev, "W10_cnn_b64",
          "LeNet-like CNN 1x28x28, CE loss, Adam 1e-3; zero_grad+fwd+loss+bwd+step, batch 64",
          10, 7, 10, step)


def w11(dev):
    torch.manual_seed(0)
    lstm = torch.nn.LSTM(128, 256, num_layers=1).to(dev)
    x = torch.randn(32, 32, 128, device=dev)

    def step():
        lstm.zero_grad()
        lstm(x)[0].mean().backward()
    bench(dev, "W11_lstm", "LSTM 128->256, seq 32, batch 32: zero_grad+fwd+mean+bwd", 5, 7, 5,
          step)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cuda")
    ap.add_argument("workloads", nargs="*")
    args = ap.parse_args()
    dev = torch.device(args.device)
    print(f"INFO torch {torch.__version__} on {torch.cuda.get_device_name(dev) if dev.type == 'cuda' else 'cpu'}")
    todo = set(args.workloads) or {"W10", "W11"}
    if "W10" in todo:
        w10(dev)
    if "W11" in todo:
        w11(dev)


if __name__ == "__main__":
    main()
