"""lz-string's ``compressToBase64`` / ``decompressFromBase64``, the compression f-puzzles links use.

Contract: :func:`compress_to_base64` gives the very string JavaScript's lz-string 1.4 gives
(``LZString.compressToBase64``), padding included (``hello`` -> ``BYUwNmD2Q===``), and
:func:`decompress_from_base64` reads it back. Both work on UTF-16 code units, as JavaScript
strings are, so any text round-trips. Written here because the Python ports on PyPI are
unmaintained (the best known had its last release in 2018); the algorithm is small and fixed.
"""

from __future__ import annotations

from collections.abc import Callable

KEY = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="


def _units(text: str) -> list[str]:
    """``text`` as UTF-16 code units (one str of length 1 each), as JavaScript sees it."""
    raw = text.encode("utf-16-le", "surrogatepass")
    return [chr(raw[k] | raw[k + 1] << 8) for k in range(0, len(raw), 2)]


def _text(units: list[str]) -> str:
    return "".join(units).encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


class _Bits:
    """The output bit stream: ``bits_per_char`` bits a character, least significant bit first."""

    def __init__(self, bits_per_char: int, char: Callable[[int], str]) -> None:
        self.width, self.char = bits_per_char, char
        self.out: list[str] = []
        self.val = 0
        self.pos = 0

    def write(self, value: int, count: int) -> None:
        for _ in range(count):
            self.val = (self.val << 1) | (value & 1)
            value >>= 1
            if self.pos == self.width - 1:
                self.pos = 0
                self.out.append(self.char(self.val))
                self.val = 0
            else:
                self.pos += 1

    def flush(self) -> str:
        while True:
            self.val <<= 1
            if self.pos == self.width - 1:
                self.out.append(self.char(self.val))
                return "".join(self.out)
            self.pos += 1


def _compress(text: str, bits_per_char: int, char: Callable[[int], str]) -> str:
    dictionary: dict[str, int] = {}
    to_create: set[str] = set()
    w = ""
    enlarge_in, dict_size, num_bits = 2, 3, 2
    out = _Bits(bits_per_char, char)

    def emit(word: str) -> None:
        nonlocal enlarge_in, num_bits
        if word in to_create:
            code = ord(word[0])
            if code < 256:
                out.write(0, num_bits)
                out.write(code, 8)
            else:
                out.write(1, num_bits)
                out.write(code, 16)
            enlarge_in -= 1
            if enlarge_in == 0:
                enlarge_in, num_bits = 2**num_bits, num_bits + 1
            to_create.discard(word)
        else:
            out.write(dictionary[word], num_bits)
        enlarge_in -= 1
        if enlarge_in == 0:
            enlarge_in, num_bits = 2**num_bits, num_bits + 1

    for c in _units(text):
        if c not in dictionary:
            dictionary[c] = dict_size
            dict_size += 1
            to_create.add(c)
        wc = w + c
        if wc in dictionary:
            w = wc
        else:
            emit(w)
            dictionary[wc] = dict_size
            dict_size += 1
            w = c
    if w:
        emit(w)
    out.write(2, num_bits)  # the end of the stream
    return out.flush()


def compress_to_base64(text: str) -> str:
    """JavaScript's ``LZString.compressToBase64(text)``."""
    res = _compress(text, 6, lambda v: KEY[v])
    return res + "=" * ((4 - len(res) % 4) % 4)


def _decompress(length: int, reset: int, value_at: Callable[[int], int]) -> str | None:
    dictionary: dict[int, str] = {}
    enlarge_in, dict_size, num_bits = 4, 4, 3
    val, position, index = value_at(0), reset, 1

    def read(count: int) -> int:
        nonlocal val, position, index
        bits, power = 0, 1
        for _ in range(count):
            resb = val & position
            position >>= 1
            if position == 0:
                position = reset
                val = value_at(index)
                index += 1
            bits |= power if resb else 0
            power <<= 1
        return bits

    kind = read(2)
    if kind == 2:
        return ""
    c = chr(read(8 if kind == 0 else 16))
    dictionary[3] = c
    w = c
    result = [c]
    while True:
        if index > length:
            return ""
        code = read(num_bits)
        if code == 2:
            return _text(result)
        if code in (0, 1):
            dictionary[dict_size] = chr(read(8 if code == 0 else 16))
            code = dict_size
            dict_size += 1
            enlarge_in -= 1
            if enlarge_in == 0:
                enlarge_in, num_bits = 2**num_bits, num_bits + 1
        if code in dictionary:
            entry = dictionary[code]
        elif code == dict_size:
            entry = w + w[0]
        else:
            return None
        result.append(entry)
        dictionary[dict_size] = w + entry[0]
        dict_size += 1
        enlarge_in -= 1
        w = entry
        if enlarge_in == 0:
            enlarge_in, num_bits = 2**num_bits, num_bits + 1


def decompress_from_base64(data: str) -> str | None:
    """JavaScript's ``LZString.decompressFromBase64(data)`` (None for data that is not lz-string's)."""
    if not data:
        return ""
    index = {ch: k for k, ch in enumerate(KEY)}
    if any(ch not in index for ch in data):
        return None
    return _decompress(len(data), 32, lambda k: index[data[k]] if k < len(data) else 0)
