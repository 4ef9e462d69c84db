"""Round trips of .npy and .npz files between NumPy and ember, both ways, in one CTest test.

1. NumPy writes an array of every dtype ember shares with it, a Fortran-order and a big-endian
   array, a 0-d and an empty one (.npy), and archives of them with np.savez and
   np.savez_compressed (.npz).
2. The NpyInterop.* tests of ember_tests (argv[1]) read them, check the values, and write back
   what they read with save_npy and save_npz (stored and compressed).
3. NumPy loads ember's files and checks every value, dtype and shape; ember's .npy files must
   also be byte for byte what np.save writes for the same array.
Exits 77 (CTest's skip) when this Python has no numpy.
"""
import io
import os
import sys
import zipfile

from roundtrip import round_trip

try:
    import numpy as np
except ImportError:
    print("SKIP: this python3 has no numpy (Debian's python3-numpy; scripts/setup.sh --test)")
    sys.exit(77)

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]


def pattern(dtype):
    """What ember's tests expect in <dtype>.npy: arange(-3, 9) as (3, 4), or arange(12) % 3 == 0
    for bool and arange(12) for uint8."""
    if dtype == "bool":
        return (np.arange(12) % 3 == 0).reshape(3, 4)
    start = 0 if dtype == "uint8" else -3
    return np.arange(start, start + 12).reshape(3, 4).astype(dtype)


def numpy_writes(d):
    arrays = {dtype: pattern(dtype) for dtype in DTYPES}
    arrays["fortran"] = np.asfortranarray(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    arrays["big_endian"] = np.arange(-3, 9, dtype=">i4").reshape(3, 4)
    arrays["big_endian_f8"] = np.linspace(-1, 1, 5, dtype=">f8")
    arrays["scalar"] = np.array(2.5)
    arrays["empty"] = np.zeros((0, 3), dtype=np.float32)
    assert arrays["fortran"].flags.f_contiguous and not arrays["fortran"].flags.c_contiguous
    for name, a in arrays.items():
        np.save(os.path.join(d, name + ".npy"), a)
    np.savez(os.path.join(d, "arrays.npz"), **arrays)
    np.savez_compressed(os.path.join(d, "compressed.npz"), **arrays)
    with zipfile.ZipFile(os.path.join(d, "compressed.npz")) as z:
        assert all(i.compress_type == zipfile.ZIP_DEFLATED for i in z.infolist())
    return arrays


def same(got, want, what):
    assert got.dtype == want.dtype.newbyteorder("<") or got.dtype == want.dtype, \
        (what, got.dtype, want.dtype)
    assert got.shape == want.shape, (what, got.shape, want.shape)
    assert np.array_equal(got, want), (what, got, want)


def numpy_reads(d, arrays):
    for name, want in arrays.items():
        path = os.path.join(d, name + "_from_ember.npy")
        got = np.load(path)
        same(got, want, path)
        # np.save of the array ember read (C order, little-endian) gives the same bytes.
        expected = io.BytesIO()
        np.save(expected, want.astype(want.dtype.newbyteorder("<"), order="C"))
        with open(path, "rb") as f:
            assert f.read() == expected.getvalue(), path + " differs from np.save's bytes"
    for archive, method in [("arrays_from_ember.npz", zipfile.ZIP_STORED),
                            ("compressed_from_ember.npz", zipfile.ZIP_DEFLATED)]:
        path = os.path.join(d, archive)
        with zipfile.ZipFile(path) as z:
            assert all(i.compress_type == method for i in z.infolist()), archive
        with np.load(path) as got:
            assert list(got.keys()) == list(arrays), (archive, list(got.keys()))
            for name, want in arrays.items():
                same(got[name], want, archive + ":" + name)


def main():
    round_trip("NpyInterop", numpy_writes, numpy_reads)
    print("npy/npz round trip with NumPy", np.__version__, ": OK")


main()
