"""lz-string's base64 form, written here: the same strings as JavaScript's lz-string, both ways."""

from __future__ import annotations

import random

from pipeline.publish.lzstring import compress_to_base64, decompress_from_base64

#: (text, LZString.compressToBase64(text)) as lz-string 1.5.0 (npm) computed them with node.
JS = [
    ("", "Q==="),
    ("hello", "BYUwNmD2Q==="),
    ("Hello", "BIUwNmD2Q==="),
    ("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "IY18ZpA="),
    ('{"size":9,"grid":[[{"value":5,"given":true},{},{"value":5,"given":true},{},{"value":5,"given":true},{},'
     '{"value":5,"given":true},{}]]}',
     "N4IgzglgXgpiBcBOANCA5gJwgEwQbT1ADcBDAGwFc54BWVNCImAOwQBcMqBfZYH48lQR10jFu04x+/EKUrURDJq3gduvGXKG16Y"
     "lWqkaAuka5A=="),
]


def test_the_strings_javascript_gives() -> None:
    for text, js in JS:
        assert compress_to_base64(text) == js
        assert decompress_from_base64(js) == text


def test_round_trips_any_text() -> None:
    rng = random.Random(5)
    alphabet = 'ab{}":,RC0123456789é東🚀'
    for _ in range(200):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 2000)))
        assert decompress_from_base64(compress_to_base64(text)) == text
    assert decompress_from_base64("not base64!") is None
