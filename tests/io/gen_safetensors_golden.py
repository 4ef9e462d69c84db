#!/usr/bin/python3
# Makes tests/io/data/golden.safetensors with PyTorch (Debian's python3-torch), laid out exactly as
# the `safetensors` library writes it, and checks any safetensors file the same way that library
# reads one. Run once; the file is committed and io_test.cpp holds the same values.
#
#   /usr/bin/python3 tests/io/gen_safetensors_golden.py            # (re)writes the golden file
#   /usr/bin/python3 tests/io/gen_safetensors_golden.py check F    # validates F, prints its tensors
#
# python3-safetensors is not packaged for Debian 12, so the format is written by hand with struct
# and json, following safetensors/src/tensor.rs (prepare, Metadata::validate).
import json
import os
import struct
import sys

import torch

# name -> torch dtype; the order of the Rust library's Dtype enum, which sorts the data section.
DTYPES = {"BOOL": torch.bool, "U8": torch.uint8, "I8": torch.int8, "I16": torch.int16,
          "F16": torch.float16, "BF16": torch.bfloat16, "I32": torch.int32, "F32": torch.float32,
          "F64": torch.float64, "I64": torch.int64}
RANK = {name: i for i, name in enumerate(DTYPES)}
NAME_OF = {dt: name for name, dt in DTYPES.items()}


def golden_tensors():
    return {
        "weight": torch.tensor([[1.5, -2.25, 3.0], [0.1, 1e-3, -0.0]], dtype=torch.float32),
        "bias": torch.tensor([0.5, -1.0, 1e100], dtype=torch.float64),
        "half": torch.tensor([1.0, -2.5, 65504.0, 2.0**-24], dtype=torch.float16),
        "bf": torch.tensor([[1.0, -3.140625], [256.0, 2.0**-7]], dtype=torch.bfloat16),
        "steps": torch.tensor(123456789012, dtype=torch.int64),
        "ids": torch.tensor([[-1, 2], [2147483647, -2147483648]], dtype=torch.int32),
        "short": torch.tensor([-32768, 0, 32767], dtype=torch.int16),
        "bytes_i8": torch.tensor([-128, 0, 127], dtype=torch.int8),
        "pixels": torch.tensor([[0, 255], [16, 7]], dtype=torch.uint8),
        "mask": torch.tensor([True, False, True]),
        "empty": torch.zeros(0, 4, dtype=torch.float32),
    }


GOLDEN_METADATA = {"format": "pt", "note": "golden \"quoted\" \u00e9\n"}


def raw_bytes(t):
    t = t.contiguous()
    # numpy has no bfloat16: reinterpret as int16 to get the bytes.
    if t.dtype == torch.bfloat16:
        t = t.view(torch.int16)
    return t.numpy().tobytes()


def serialize(tensors, metadata):
    items = sorted(tensors.items(), key=lambda kv: (-RANK[NAME_OF[kv[1].dtype]], kv[0]))
    header, blobs, offset = {}, [], 0
    if metadata:
        header["__metadata__"] = metadata
    for name, t in items:
        data = raw_bytes(t)
        header[name] = {"dtype": NAME_OF[t.dtype], "shape": list(t.shape),
                        "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
        blobs.append(data)
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(blobs)


def deserialize(buf):
    (n,) = struct.unpack("<Q", buf[:8])
    assert n <= 100_000_000 and 8 + n <= len(buf), "bad header length"
    header = json.loads(buf[8:8 + n].decode("utf-8"))
    metadata = header.pop("__metadata__", None)
    start, out = 0, {}
    for name, info in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"]):
        s, e = info["data_offsets"]
        assert s == start and e >= s, f"InvalidOffset({name})"
        dtype = DTYPES[info["dtype"]]
        numel = 1
        for d in info["shape"]:
            numel *= d
        assert e - s == numel * torch.tensor([], dtype=dtype).element_size(), "TensorInvalidInfo"
        start = e
        chunk = bytearray(buf[8 + n + s:8 + n + e])
        if dtype == torch.bfloat16:
            t = torch.frombuffer(chunk, dtype=torch.int16).view(torch.bfloat16) if chunk else \
                torch.zeros(0, dtype=dtype)
        else:
            t = torch.frombuffer(chunk, dtype=dtype) if chunk else torch.zeros(0, dtype=dtype)
        out[name] = t.reshape(info["shape"])
    assert 8 + n + start == len(buf), "MetadataIncompleteBuffer"
    return out, metadata


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "check":
        with open(sys.argv[2], "rb") as f:
            tensors, metadata = deserialize(f.read())
        print("metadata:", metadata)
        for name, t in tensors.items():
            print(name, NAME_OF[t.dtype], list(t.shape), t.flatten().tolist())
        return
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "golden.safetensors")
    buf = serialize(golden_tensors(), GOLDEN_METADATA)
    tensors, metadata = deserialize(buf)
    assert metadata == GOLDEN_METADATA
    for name, t in golden_tensors().items():
        assert torch.equal(tensors[name], t), name
    with open(path, "wb") as f:
        f.write(buf)
    print(f"wrote {path} ({len(buf)} bytes)")


if __name__ == "__main__":
    main()
