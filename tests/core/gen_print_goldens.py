#!/usr/bin/env python3
"""Writes print_goldens.inc: PyTorch's repr of the tensors that print_test.cpp rebuilds in ember.

Run once with torch installed (the committed output was made with torch 1.13):
    python3 tests/core/gen_print_goldens.py > tests/core/print_goldens.inc
The tests read only the generated file, so they never need torch. Inputs are deterministic
(explicit values, arange, exact divisions) so ember builds bit-identical tensors.
"""
import torch
from torch._tensor_str import _add_suffixes, _tensor_str

nan, inf = float("nan"), float("inf")
f16, bf16, f64 = torch.float16, torch.bfloat16, torch.float64


def as_cuda(t, index=0, grad_fn=None):
    """repr(t) as if t lived on cuda:<index>; this machine has no GPU.

    Mirrors torch._tensor_str._str_intern for a strided CUDA tensor: the elements print as on
    the CPU and device='cuda:N' is the first suffix, ahead of size, dtype and grad suffixes.
    """
    suffixes = ["device='cuda:%d'" % index]
    if t.numel() == 0:
        if t.dim() != 1:
            suffixes.append("size=" + str(tuple(t.shape)))
        if t.dtype != torch.get_default_dtype():
            suffixes.append("dtype=" + str(t.dtype))
    elif t.dtype not in (torch.get_default_dtype(), torch.int64, torch.bool):
        suffixes.append("dtype=" + str(t.dtype))
    if grad_fn is not None:
        suffixes.append("grad_fn=<%s>" % grad_fn)
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes("tensor(" + _tensor_str(t.detach(), 7), suffixes, 7, False)


# Each case: (name, repr string). print_test.cpp builds the tensor named `name` the same way.
CASES = [
    # integers and bools
    ("int_1d", repr(torch.tensor([1, 4, 9]))),
    ("int_negative_widths", repr(torch.tensor([-123456789012, 5, 0]))),
    ("int32", repr(torch.tensor([1, -2, 3], dtype=torch.int32))),
    ("int16", repr(torch.tensor([300, -2], dtype=torch.int16))),
    ("int8", repr(torch.tensor([-128, 127], dtype=torch.int8))),
    ("uint8", repr(torch.arange(5, dtype=torch.uint8))),
    ("int_3d", repr(torch.arange(24).reshape(2, 3, 4))),
    ("int_4d", repr(torch.arange(16).reshape(2, 2, 2, 2))),
    ("int_wrap", repr(torch.arange(40))),
    ("int_transposed", repr(torch.arange(6).reshape(2, 3).t())),
    ("bool_1d", repr(torch.tensor([True, False]))),
    ("bool_2d", repr(torch.tensor([[True, True], [False, True]]))),
    ("bool_scalar", repr(torch.tensor(True))),
    # float modes
    ("float_ones_2x3", repr(torch.ones(2, 3))),
    ("float_fraction", repr(torch.tensor([1.5, -2.25, 3.0]))),
    ("float_tenths", repr(torch.tensor([0.1, 0.2, 0.3]))),
    ("float_mixed_2d", repr(torch.tensor([[1.5, -100.25], [0.001, 3.0]]))),
    ("float_zeros", repr(torch.zeros(3))),
    ("float_negative_zero", repr(torch.tensor([-0.0, 1.0]))),
    ("float_int_mode_big", repr(torch.tensor([1.0, 10000.0]))),
    ("float_int_mode_over_1e8", repr(torch.tensor([1e9, 2e9]))),
    ("float_sci_small", repr(torch.tensor([1e-5, 2e-5]))),
    ("float_sci_ratio", repr(torch.tensor([0.5, 1e-5, -3.0]))),
    ("float_sci_large", repr(torch.tensor([1.5e9, -2.0]))),
    ("float_nan_inf_int", repr(torch.tensor([nan, 1.0, inf, -inf]))),
    ("float_nan_inf_frac", repr(torch.tensor([nan, 1.5, -inf]))),
    ("float_nan_sci", repr(torch.tensor([1e-8, -1e8, nan]))),
    ("float_all_nan", repr(torch.tensor([nan, nan]))),
    ("float_wrap", repr(torch.arange(30.0) / 7)),
    ("float_wrap_2d", repr((torch.arange(60.0) / 8).reshape(2, 30))),
    ("float_3d", repr((torch.arange(12.0) / 4).reshape(2, 3, 2))),
    ("float64", repr(torch.tensor([0.1, 0.2], dtype=f64))),
    ("float16", repr(torch.tensor([1.0, 2.0], dtype=f16))),
    ("float16_fraction", repr(torch.tensor([0.1, 1 / 3, 65504.0], dtype=f16))),
    ("bfloat16_2d", repr(torch.tensor([[0.1, 0.2], [3.0, -4.5]], dtype=bf16))),
    # 0-dim
    ("scalar_float", repr(torch.tensor(3.5))),
    ("scalar_int_mode", repr(torch.tensor(2.0))),
    ("scalar_int", repr(torch.tensor(7))),
    ("scalar_sci", repr(torch.tensor(1e-10))),
    ("scalar_nan", repr(torch.tensor(nan))),
    ("scalar_float64", repr(torch.tensor(2.5, dtype=f64))),
    ("one_element_2d", repr(torch.tensor([[7.0]]))),
    # empty
    ("empty_1d", repr(torch.tensor([]))),
    ("empty_0x3", repr(torch.zeros(0, 3))),
    ("empty_int64", repr(torch.zeros(0, dtype=torch.int64))),
    ("empty_int32_3d", repr(torch.zeros(2, 0, 3, dtype=torch.int32))),
    ("empty_bool", repr(torch.zeros(0, dtype=torch.bool))),
    # summarisation (more than 1000 elements)
    ("summary_1d", repr(torch.arange(2000))),
    ("summary_1001", repr(torch.arange(1001.0) / 4)),
    ("summary_2d", repr(torch.arange(2000).reshape(40, 50))),
    ("summary_2d_float", repr((torch.arange(2000.0) / 3).reshape(40, 50))),
    ("summary_rows_only", repr(torch.arange(1200).reshape(600, 2))),
    ("summary_cols_only", repr((torch.arange(3000.0) / 7).reshape(3, 1000))),
    ("summary_3d", repr(torch.arange(1200).reshape(10, 10, 12))),
    # suffixes and their wrapping
    ("suffix_dtype_wraps", repr(torch.arange(9, dtype=f64) / 8)),
    ("suffix_dtype_after_rows", repr((torch.arange(6, dtype=f16) / 4).reshape(2, 3))),
    ("requires_grad", repr(torch.ones(2, requires_grad=True))),
    ("requires_grad_dtype", repr(torch.tensor([0.5, 1.5], dtype=f64, requires_grad=True))),
    ("requires_grad_wraps", repr((torch.arange(11.0) / 8).requires_grad_())),
    ("cuda_float", as_cuda(torch.tensor([1.0, 2.0]))),
    ("cuda_int", as_cuda(torch.tensor([1, 4, 9]), index=1)),
    ("cuda_half", as_cuda(torch.tensor([1.0, 2.0], dtype=f16))),
    ("cuda_scalar", as_cuda(torch.tensor(3.5))),
    ("cuda_empty_2d", as_cuda(torch.zeros(0, 3, dtype=torch.int64))),
    ("cuda_requires_grad", as_cuda(torch.ones(2, 2, requires_grad=True))),
    ("cuda_grad_fn", as_cuda(torch.tensor([[-0.0249]]), grad_fn="AddmmBackward0")),
    ("cuda_suffixes_wrap", as_cuda(torch.arange(9, dtype=f64) / 8, grad_fn="DivBackward0")),
    ("grad_fn", repr(torch.ones(2, requires_grad=True) * 2)),
]

print("// Generated by tests/core/gen_print_goldens.py from torch %s; do not edit."
      % torch.__version__.split("+")[0])
print("// Each entry: a case name and PyTorch's repr of that tensor.")
for name, text in CASES:
    assert ")golden\"" not in text
    print('{"%s", R"golden(%s)golden"},' % (name, text))
