#!/usr/bin/env python3
# Converts scikit-learn's digits.csv.gz (8x8 handwritten digits, 1797 samples) into MNIST-style
# gzip-compressed IDX files here, with a fixed train/test split; run once, the outputs are committed.
#
# Usage: python3 data/digits/convert.py <path to sklearn/datasets/data/digits.csv.gz>
# e.g. after `apt-get download python3-sklearn && dpkg -x python3-sklearn_*.deb x`:
#   python3 data/digits/convert.py x/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz
# Only the standard library is used, and the output is byte-identical on every run (fixed seed,
# gzip mtime 0), so a re-run shows no diff.
import csv
import gzip
import io
import os
import random
import struct
import sys

SEED = 0
NUM_TEST = 360
HERE = os.path.dirname(os.path.abspath(__file__))


def idx_u8(dims, values):
    # IDX: 0 0 <type 0x08 = u8> <ndims>, big-endian uint32 sizes, then the bytes.
    header = struct.pack(">BBBB", 0, 0, 0x08, len(dims)) + struct.pack(f">{len(dims)}I", *dims)
    return header + bytes(values)


def write_gz(name, payload):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(gzip.compress(payload, compresslevel=9, mtime=0))


def main():
    with gzip.open(sys.argv[1], "rt") as f:
        rows = [[int(float(v)) for v in row] for row in csv.reader(f) if row]
    assert len(rows) == 1797 and all(len(r) == 65 for r in rows), "unexpected digits.csv layout"
    assert all(0 <= v <= 16 for r in rows for v in r[:64]) and all(0 <= r[64] <= 9 for r in rows)

    # random.Random(seed).shuffle gives the same permutation on every Python 3 version.
    order = list(range(len(rows)))
    random.Random(SEED).shuffle(order)
    splits = {"t10k": order[:NUM_TEST], "train": order[NUM_TEST:]}
    for prefix, indices in splits.items():
        images = [v for i in indices for v in rows[i][:64]]
        labels = [rows[i][64] for i in indices]
        write_gz(f"{prefix}-images-idx3-ubyte.gz", idx_u8([len(indices), 8, 8], images))
        write_gz(f"{prefix}-labels-idx1-ubyte.gz", idx_u8([len(indices)], labels))
        counts = [labels.count(c) for c in range(10)]
        print(f"{prefix}: {len(indices)} samples, per class {counts}")


if __name__ == "__main__":
    main()
