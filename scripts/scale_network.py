#!/usr/bin/env python3
"""A network file whose every evaluation is PERCENT% of another's: the output layer (each
bucket's weights and bias) multiplied by PERCENT/100 and rounded, the rest byte for byte.

    python3 scripts/scale_network.py IN.nnue OUT.nnue PERCENT

What it answers (reports/elo-eval-scale/): whether the search's margins, many of them Ethereal
12's in centipawns, want the evaluation in other units. Only format 2 (eight output buckets,
not mirrored: the shipped network's) is read; the layout is src/engine/nnue/network.rs's.
Rounding moves each output weight by at most half a unit of QB (1/128 of the float 1.0).
"""
import struct
import sys

HIDDEN, INPUTS, BUCKETS = 128, 768, 8


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    src, dst, percent = sys.argv[1], sys.argv[2], int(sys.argv[3])
    data = bytearray(open(src, "rb").read())
    end = 12 + 2 * (INPUTS * HIDDEN + HIDDEN)
    if data[:4] != b"SLNN" or struct.unpack_from("<I", data, 4)[0] != 2:
        sys.exit(f"{src}: not a format-2 network file")
    if len(data) != end + 4 + BUCKETS * (2 * 2 * HIDDEN + 4):
        sys.exit(f"{src}: {len(data)} bytes, not a format-2 network of {HIDDEN} hidden")
    weights_at = end + 4
    count = BUCKETS * 2 * HIDDEN
    weights = struct.unpack_from(f"<{count}h", data, weights_at)
    struct.pack_into(f"<{count}h", data, weights_at, *[round(w * percent / 100) for w in weights])
    bias_at = weights_at + 2 * count
    biases = struct.unpack_from(f"<{BUCKETS}i", data, bias_at)
    struct.pack_into(f"<{BUCKETS}i", data, bias_at, *[round(b * percent / 100) for b in biases])
    open(dst, "wb").write(data)


if __name__ == "__main__":
    main()
