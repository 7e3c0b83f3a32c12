#!/usr/bin/env python3
"""The RUT masking of docs/enmascarar.md written again in Python from the document alone (hashlib's
BLAKE2s, a SipHash-2-4 from the paper), as a second runtime would write it. It prints the known
answers that tests/c/test_mascara.c pins (`--print`), or checks that the C file's table is what this
reference computes (`--check FILE`, a CTest test), so the C code, the document and this script agree.
Test code only; no dependency outside the standard library."""
import hashlib
import re
import sys

MASK = (1 << 64) - 1
CLASSES = [  # (min, max, label): docs/enmascarar.md, "The RUT permutation"
    (1, 999_999, "datoteca/rut/menor/v1"),
    (1_000_000, 29_999_999, "datoteca/rut/persona/v1"),
    (30_000_000, 75_999_999, "datoteca/rut/intermedio/v1"),
    (76_000_000, 77_999_999, "datoteca/rut/empresa/v1"),
    (78_000_000, 89_999_999, "datoteca/rut/alto/v1"),
    (90_000_000, 99_999_999, "datoteca/rut/sa-antigua/v1"),
]
ROUNDS = 10


def rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & MASK


def siphash24(key: bytes, msg: bytes) -> int:
    k0 = int.from_bytes(key[:8], "little")
    k1 = int.from_bytes(key[8:16], "little")
    v = [k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D, k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573]

    def rnd():
        v[0] = (v[0] + v[1]) & MASK; v[1] = rotl(v[1], 13) ^ v[0]; v[0] = rotl(v[0], 32)
        v[2] = (v[2] + v[3]) & MASK; v[3] = rotl(v[3], 16) ^ v[2]
        v[0] = (v[0] + v[3]) & MASK; v[3] = rotl(v[3], 21) ^ v[0]
        v[2] = (v[2] + v[1]) & MASK; v[1] = rotl(v[1], 17) ^ v[2]; v[2] = rotl(v[2], 32)

    n = len(msg)
    for i in range(0, n - n % 8, 8):
        m = int.from_bytes(msg[i:i + 8], "little")
        v[3] ^= m; rnd(); rnd(); v[0] ^= m
    b = (n << 56) & MASK | int.from_bytes(msg[n - n % 8:], "little")
    v[3] ^= b; rnd(); rnd(); v[0] ^= b
    v[2] ^= 0xFF
    for _ in range(4):
        rnd()
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def subkeys(master_hex: str):
    master = bytes.fromhex(master_hex)
    return [hashlib.blake2s(label.encode(), key=master, digest_size=32).digest()[:16] for _, _, label in CLASSES]


def width(n):
    t = 1
    while 2 ** t < n:
        t += 1
    return t


def feistel(key, t, x, inverse):
    u = t // 2
    v = t - u
    a, b = x >> v, x & ((1 << v) - 1)

    def f(i, half):
        m = v if i % 2 else u
        return siphash24(key, (i | m << 8 | half << 32).to_bytes(8, "little")) & ((1 << m) - 1)

    if not inverse:
        for i in range(ROUNDS):
            a, b = b, a ^ f(i, b)
    else:
        for i in reversed(range(ROUNDS)):
            a, b = b ^ f(i, a), a
    return a << v | b


def mask_body(keys, body, inverse=False):
    for c, (lo, hi, _) in enumerate(CLASSES):
        if lo <= body <= hi:
            n, b = hi - lo + 1, width(hi - lo + 1)
            x = feistel(keys[c], b, body - lo, inverse)
            while x >= n:
                x = feistel(keys[c], b, x, inverse)
            return lo + x
    raise ValueError("body out of range")


KEY = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
BODIES = [1, 2, 999_999, 1_000_000, 12_345_678, 29_999_999, 30_000_000, 75_999_999, 76_000_000, 77_999_999,
          78_000_000, 89_999_999, 90_000_000, 97_004_000, 99_999_999]


def table():
    keys = subkeys(KEY)
    return [(body, mask_body(keys, body)) for body in BODIES]


def selfcheck():
    # SipHash-2-4 against the reference's vectors, copied in tests/c/mascara_vectores.h
    here = __file__.rsplit("/", 1)[0]
    text = open(f"{here}/mascara_vectores.h", encoding="utf-8").read()
    block = text[text.index("vec_sip64[64]"):]
    vectors = re.findall(r'"([0-9a-f]{16})"', block)[:64]
    key = bytes(range(16))
    for i, want in enumerate(vectors):
        got = siphash24(key, bytes(range(i))).to_bytes(8, "little").hex()
        assert got == want, f"Python SipHash-2-4 vector {i}: expected {want}, got {got}"
    keys = subkeys(KEY)
    for body, masked in table():
        assert mask_body(keys, masked, inverse=True) == body, f"Python inverse of {masked} is not {body}"


def main():
    selfcheck()
    if len(sys.argv) == 2 and sys.argv[1] == "--print":
        for body, masked in table():
            print(f"        {{{body}u, {masked}u}},")
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        text = open(sys.argv[2], encoding="utf-8").read()
        block = text[text.index("conocidos[] = {"):]
        block = block[:block.index("};")]
        pinned = [(int(a), int(b)) for a, b in re.findall(r"\{(\d+)u, (\d+)u\}", block)]
        want = table()
        if pinned != want:
            for (a, b), (c, d) in zip(pinned, want):
                if (a, b) != (c, d):
                    print(f"mascara_ref: {sys.argv[2]} pins body {a} -> {b}; the document's algorithm gives {c} -> {d}")
            if len(pinned) != len(want):
                print(f"mascara_ref: {len(pinned)} pinned answers, {len(want)} expected")
            return 1
        print(f"mascara_ref: {len(want)} known answers of {sys.argv[2]} match the Python reference")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
