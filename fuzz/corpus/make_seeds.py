#!/usr/bin/python3
# Writes the committed seed corpora of the ember fuzzers (fuzz/corpus/<name>/), small inputs that
# start each harness on its interesting paths, and regress_* inputs that once found a bug (each
# with a GoogleTest regression test too). Deterministic: rerunning rewrites the same bytes.
# Crash inputs saved by libFuzzer may be copied in by hand, named for what they caught; this
# script leaves other files alone.
#
#   python3 fuzz/corpus/make_seeds.py
import gzip
import json
import random
import struct
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def write(name, filename, data):
    directory = HERE / name
    directory.mkdir(exist_ok=True)
    (directory / filename).write_bytes(data)


def device_string_seeds():
    for i, spec in enumerate(["cpu", "cuda", "cuda:0", "cuda:1", "cuda:127", "cpu:0", "cuda:128",
                              "cuda:01", "cuda:", "cpu:1", "gpu", "CUDA", "cuda:1:2", "",
                              "cuda:99999999999", "cuda:-1", " cuda"]):
        write("device_string", f"seed_{i:02d}", spec.encode())


# ---- safetensors: 8-byte little-endian header length, JSON header padded with spaces, data

def safetensors(tensors, metadata=None, ascii_only=True):
    """tensors: name -> (dtype name, shape, raw bytes), laid out in the given order."""
    header, data = {}, b""
    if metadata is not None:
        header["__metadata__"] = metadata
    for name, (dtype, shape, raw) in tensors.items():
        header[name] = {"dtype": dtype, "shape": shape,
                        "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=ascii_only).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + data


def safetensors_seeds():
    write("safetensors", "golden", (ROOT / "tests/io/data/golden.safetensors").read_bytes())
    seeds = {
        "empty_header": safetensors({}),
        "metadata_only": safetensors({}, {"format": "pt", "note": "caf\u00e9 \"q\"\n"}, False),
        "one_f32": safetensors({"w": ("F32", [2, 2], struct.pack("<4f", 1, -2, 0.5, 3))}),
        "scalar_i64": safetensors({"step": ("I64", [], struct.pack("<q", -7))}),
        "zero_size": safetensors({"e": ("F16", [0, 3], b""), "b": ("BOOL", [2], b"\x01\x00")}),
        "every_int": safetensors({"u8": ("U8", [3], b"\x00\x7f\xff"),
                                  "i8": ("I8", [1], b"\x80"),
                                  "i16": ("I16", [2], struct.pack("<2h", -1, 300)),
                                  "i32": ("I32", [1, 1], struct.pack("<i", 1 << 30))}),
        "floats": safetensors({"d": ("F64", [2], struct.pack("<2d", 1e300, -0.0)),
                               "bf": ("BF16", [2], b"\x80\x3f\x00\xc0")}),
        "escaped_name": safetensors({"a\\b\u00e9\U0001F600": ("U8", [1], b"\x05")}),
        "too_short": b"\x08\x00\x00",
        # Shapes no ember tensor can have (io_test: RefusesShapesNoTensorCanHaveInLoadMetadataToo).
        "regress_17_dims": safetensors({"t": ("U8", [1] * 17, b"\x00")}),
        "regress_empty_huge_dims": safetensors({"t": ("U8", [0, 1 << 62, 1 << 62], b"")}),
        "truncated_header": struct.pack("<Q", 64) + b'{"x":{"dtype":"F32"',
    }
    for name, data in seeds.items():
        write("safetensors", name, data)


# ---- IDX: 0 0 <type code> <ndims>, big-endian uint32 sizes, big-endian elements

def idx(code, shape, payload):
    return bytes([0, 0, code, len(shape)]) + b"".join(struct.pack(">I", s) for s in shape) + payload


def idx_seeds():
    seeds = {
        "u8_2x3": idx(0x08, [2, 3], bytes([0, 1, 2, 16, 128, 255])),
        "i8_2": idx(0x09, [2], b"\x80\x7f"),
        "i16_3x2": idx(0x0B, [3, 2], struct.pack(">6h", 1, 2, 3, 256, -1, -32768)),
        "i32_1x1x2": idx(0x0C, [1, 1, 2], struct.pack(">2i", 0x01020304, -5)),
        "f32_2": idx(0x0D, [2], struct.pack(">2f", 1.5, float("inf"))),
        "f64_1": idx(0x0E, [1], struct.pack(">d", -2.5)),
        "empty_0x5": idx(0x0D, [0, 5], b""),
        "too_many_elements": idx(0x0E, [0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF], b"x"),
        # io_test: RefusesEmptyShapesNoTensorCanHave.
        "regress_empty_huge_dims": idx(0x08, [0, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF], b""),
    }
    for name, data in seeds.items():
        write("idx", name, data)
    # mtime=0: the gzip header holds no timestamp, so the bytes never change.
    write("idx", "u8_2x3.gz", gzip.compress(seeds["u8_2x3"], mtime=0))
    write("idx", "i16_3x2.gz", gzip.compress(seeds["i16_3x2"], mtime=0))
    write("idx", "digits_labels.gz", (ROOT / "data/digits/t10k-labels-idx1-ubyte.gz").read_bytes())


def npy_seeds():
    # NumPy's own files (np.save, and archives laid out as np.savez and np.savez_compressed
    # write them) for the npy harness, which reads each input as a .npy file and a .npz archive.
    import io
    import zipfile

    import numpy as np

    def npy(array, version=None):
        out = io.BytesIO()
        if version is None:
            np.save(out, array)
        else:
            np.lib.format.write_array(out, array, version=version)
        return out.getvalue()

    arrays = {
        "f4_2x3": np.arange(6, dtype="<f4").reshape(2, 3),
        "f8_scalar": np.array(2.5),
        "f2_3": np.array([1, -2, 0.5], dtype="<f2"),
        "i8_empty_0x3": np.zeros((0, 3), dtype="<i8"),
        "i2_fortran_2x3": np.asfortranarray(np.arange(6, dtype="<i2").reshape(2, 3)),
        "i4_big_endian_3": np.array([1, -2, 3], dtype=">i4"),
        "b1_4": np.array([True, False, True, True]),
        "u1_2x2": np.array([[0, 255], [7, 8]], dtype=np.uint8),
        "i1_2": np.array([-128, 127], dtype=np.int8),
    }
    for name, array in arrays.items():
        write("npy", name + ".npy", npy(array))
    write("npy", "f4_version2.npy", npy(arrays["f4_2x3"], (2, 0)))
    write("npy", "f4_version3.npy", npy(arrays["f4_2x3"], (3, 0)))
    # np.savez's layout (one "<name>.npy" record per array), with a fixed date for the same bytes
    # on every run.
    for compression, filename in [(zipfile.ZIP_STORED, "archive.npz"),
                                  (zipfile.ZIP_DEFLATED, "archive_compressed.npz")]:
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as archive:
            for name in ["f4_2x3", "b1_4", "f8_scalar"]:
                record = zipfile.ZipInfo(name + ".npy", date_time=(2026, 1, 1, 0, 0, 0))
                record.compress_type = compression
                archive.writestr(record, npy(arrays[name]))
        write("npy", filename, out.getvalue())


def random_seeds(name, sizes, seed):
    # The tensor harnesses decode any bytes; these give them programs of a few lengths.
    rng = random.Random(seed)
    for size in sizes:
        write(name, f"random_{size:04d}", bytes(rng.randrange(256) for _ in range(size)))


if __name__ == "__main__":
    device_string_seeds()
    safetensors_seeds()
    idx_seeds()
    npy_seeds()
    random_seeds("view_args", [8, 16, 32, 64, 128, 256], 1)
    random_seeds("op_program", [16, 64, 128, 256, 512, 1024], 2)
