"""Round trips of .pt files between Python's PyTorch and ember, both ways, in one CTest test.

1. Python writes a trained model's state dict with its input and output, a checkpoint dict, and
   tensors of every dtype (non-contiguous ones and ones sharing a storage among them).
2. The PtInterop.* tests of ember_tests (argv[1]) read them, run the model, and write back what
   they read, the model's output, and the module saved with torch::save.
3. Python loads ember's files with torch.load(weights_only=True) and checks every value, dtype,
   stride and shared storage against what it wrote.
Exits 77 (CTest's skip) when this Python has no torch.
"""
import os
import sys

from roundtrip import round_trip

try:
    import torch
except ImportError:
    print("SKIP: this python3 has no torch (Debian's python3-torch; scripts/setup.sh --test)")
    sys.exit(77)

DTYPES = [torch.float64, torch.float32, torch.float16, torch.bfloat16, torch.int64, torch.int32,
          torch.int16, torch.int8, torch.uint8, torch.bool]


def python_writes(d):
    torch.manual_seed(1)
    net = torch.nn.Sequential(torch.nn.Linear(5, 8), torch.nn.Tanh(), torch.nn.Linear(8, 3))
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    x = torch.randn(16, 5)
    target = torch.randn(16, 3)
    for _ in range(5):
        opt.zero_grad()
        torch.nn.functional.mse_loss(net(x), target).backward()
        opt.step()
    torch.save(net.state_dict(), os.path.join(d, "model.pt"))
    torch.save({"model": net.state_dict(), "x": x, "y": net(x).detach(), "epoch": 5,
                "loss": 0.25, "tag": "mlp"}, os.path.join(d, "checkpoint.pt"))
    base = torch.randn(4, 6, dtype=torch.float64)
    tensors = {"base": base, "row": base[2], "t": base.t(), "cols": base[:, 1::2]}
    for dtype in DTYPES:
        values = torch.arange(-3, 9).reshape(3, 4) if dtype.is_signed or dtype.is_floating_point \
            else torch.arange(12).reshape(3, 4)
        tensors[str(dtype)] = values.to(dtype).t()  # non-contiguous
    torch.save(tensors, os.path.join(d, "tensors.pt"))

    # Adam, 4 steps saved with its optimizer, then a 5th step that ember repeats from the file.
    adam_net = torch.nn.Sequential(torch.nn.Linear(5, 8), torch.nn.Tanh(), torch.nn.Linear(8, 3))
    adam = torch.optim.Adam(adam_net.parameters(), lr=0.01, betas=(0.8, 0.99), amsgrad=True)
    def adam_step():
        adam.zero_grad()
        torch.nn.functional.mse_loss(adam_net(x), target).backward()
        adam.step()
    for _ in range(4):
        adam_step()
    torch.save({"model": adam_net.state_dict(), "optimizer": adam.state_dict(), "x": x,
                "target": target}, os.path.join(d, "adam.pt"))
    adam_step()
    return net, x, tensors, adam_net, adam


def python_reads(d, net, x, tensors, adam_net, adam):
    load = lambda name: torch.load(os.path.join(d, name), weights_only=True)
    back = load("tensors_from_ember.pt")
    assert list(back) == list(tensors), (list(back), list(tensors))
    for name, t in tensors.items():
        b = back[name]
        assert b.dtype == t.dtype and b.shape == t.shape, name
        assert b.stride() == t.stride() and b.storage_offset() == t.storage_offset(), name
        assert torch.equal(b, t), name
    share = back["base"].storage().data_ptr()
    for view in ["row", "t", "cols"]:
        assert back[view].storage().data_ptr() == share, view + " lost its shared storage"

    # PyTorch 1.13's weights_only unpickler has no opcode for floats (BINFLOAT; 2.x reads it),
    # so the dictionary holding one is read with the full unpickler there.
    floats_ok = int(torch.__version__.split(".")[0]) >= 2
    out = load("output_from_ember.pt") if floats_ok else \
        torch.load(os.path.join(d, "output_from_ember.pt"))
    assert torch.allclose(out["y"], net(x), rtol=1e-5, atol=1e-6), (out["y"], net(x))
    assert out["epoch"] == 5 and out["tag"] == "mlp" and out["loss"] == 0.25, out

    state = load("module_from_ember.pt")  # torch::save(net, path): a plain state dict
    assert list(state) == list(net.state_dict()), list(state)
    fresh = torch.nn.Sequential(torch.nn.Linear(5, 8), torch.nn.Tanh(), torch.nn.Linear(8, 3))
    fresh.load_state_dict(state)
    assert torch.equal(fresh(x), net(x))

    # ember's 5th Adam step from the file matches Python's, and its optimizer loads in Python.
    stepped = load("adam_model_from_ember.pt")
    for name, value in adam_net.state_dict().items():
        assert torch.allclose(stepped[name], value, rtol=1e-5, atol=1e-6), name
    again = torch.optim.Adam(adam_net.parameters(), lr=1.0)
    saved = torch.load(os.path.join(d, "adam_from_ember.pt"))  # floats: see above
    again.load_state_dict(saved)
    assert again.param_groups[0]["betas"] == (0.8, 0.99) and again.param_groups[0]["amsgrad"]
    for p in adam_net.parameters():
        ours, theirs = adam.state[p], again.state[p]
        assert int(theirs["step"]) == int(ours["step"]) == 5
        for key in ["exp_avg", "exp_avg_sq", "max_exp_avg_sq"]:
            assert torch.allclose(theirs[key], ours[key], rtol=1e-5, atol=1e-7), key


def main():
    def reads(d, written):
        with torch.no_grad():
            python_reads(d, *written)
    round_trip("PtInterop", python_writes, reads)
    print("pt round trip with PyTorch", torch.__version__, ": OK")


main()
