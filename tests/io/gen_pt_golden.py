"""Writes tests/io/data/*.pt with Debian's PyTorch 1.13 (/usr/bin/python3 tests/io/gen_pt_golden.py).

Every value is arange-based, so the C++ test states the expected numbers itself:
- state_dict.pt: nn.Sequential(Linear(3, 4), ReLU(), Linear(4, 2)) with weights
  w = arange(n) / 10 - 0.3 (per tensor, in state-dict order) and the output for
  x = arange(6).reshape(2, 3) / 4 saved alongside in checkpoint.pt.
- checkpoint.pt: {"model": that state dict, "epoch": 3, "lr": 0.05, "name": "digits",
  "flags": [True, False, None], "sizes": (2, 3), "output": y}.
- tensors.pt: [t0, t1, t2, t3] where t1 = t0[1] and t2 = t0.t() share t0's storage,
  t0 = arange(12, dtype=float64).reshape(3, 4), and t3 = arange(5, dtype=int16).
- dtypes.pt: {"float64": ..., ...} each arange(6).reshape(2, 3) of that dtype
  (bool: arange % 2 == 1).
- parameter.pt: nn.Parameter(arange(4.)) (requires_grad=True).
"""
import os

import torch

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
torch.manual_seed(0)

net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
with torch.no_grad():
    for p in net.state_dict().values():
        p.copy_(torch.arange(p.numel(), dtype=torch.float32).reshape(p.shape) / 10 - 0.3)
x = torch.arange(6, dtype=torch.float32).reshape(2, 3) / 4
y = net(x).detach()
torch.save(net.state_dict(), os.path.join(here, "state_dict.pt"))
torch.save({"model": net.state_dict(), "epoch": 3, "lr": 0.05, "name": "digits",
            "flags": [True, False, None], "sizes": (2, 3), "output": y},
           os.path.join(here, "checkpoint.pt"))

t0 = torch.arange(12, dtype=torch.float64).reshape(3, 4)
torch.save([t0, t0[1], t0.t(), torch.arange(5, dtype=torch.int16)],
           os.path.join(here, "tensors.pt"))

dtypes = {}
for name in ["float64", "float32", "float16", "bfloat16", "int64", "int32", "int16", "int8",
             "uint8"]:
    dtypes[name] = torch.arange(6).reshape(2, 3).to(getattr(torch, name))
dtypes["bool"] = torch.arange(6).reshape(2, 3) % 2 == 1
torch.save(dtypes, os.path.join(here, "dtypes.pt"))
torch.save(torch.nn.Parameter(torch.arange(4.0)), os.path.join(here, "parameter.pt"))
print("y =", y.tolist())
