"""Where a line of printed text may break: English at spaces, Japanese between phrases and, inside a
phrase only when it is wider than a line, between characters where the kinsoku rules (禁則処理)
allow. Pure functions of text; the measuring and packing is :func:`pipeline.publish.pages.wrap`'s.

Contracts
---------
* **Kinsoku**: no line starts with closing punctuation, a small kana, the long-vowel mark or an
  iteration mark (:data:`NO_START`: 、。」』ー っ ゃ ...); no line ends with opening punctuation
  (:data:`NO_END`: 「『 ...). These hold for every break this module offers.
* **Phrases** (:func:`phrases`): text splits at spaces (kept at the end of the piece before them), and
  in Japanese also where a run of hiragana (the particles and endings that close a phrase, 文節) is
  followed by a kanji, katakana, Latin letter, digit or opening bracket, and after a closing
  punctuation mark or a middle dot. So ``初級から上級まで`` breaks only as ``初級から / 上級まで``,
  and ``とても`` or ``ようにします。`` never break.
* **Characters** (:func:`clusters`): a phrase wider than a line splits into single characters, each
  with the closing marks after it and the opening marks before it; a Latin word stays whole here
  (the caller cuts a word wider than a line).
"""

from __future__ import annotations

import re

#: Characters that may not start a line (行頭禁則).
NO_START = frozenset("、。，．・：；？！）」』】〕〉》］｝ー…‥"  # noqa: RUF001
                     "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ々ゝゞヽヾ,.;:!?)]}%")
#: Characters that may not end a line (行末禁則).
NO_END = frozenset("（「『【〔〈《［｛([{“‘")  # noqa: RUF001


def kind(ch: str) -> str:
    """The class of a character for breaking: ``space``, ``hira``, ``kata``, ``kanji``, ``open``,
    ``close`` (closing punctuation and other :data:`NO_START` marks), ``latin`` (everything else)."""
    if ch.isspace():
        return "space"
    if ch in NO_END:
        return "open"
    if ch in NO_START and not ("\u3041" <= ch <= "\u309f" or "\u30a1" <= ch <= "\u30ff"):
        return "close"
    if "\u3041" <= ch <= "\u309f":
        return "hira"
    if "\u30a0" <= ch <= "\u30ff" or "\uff66" <= ch <= "\uff9f":
        return "kata"
    if "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf" or ch in "々〆〇":
        return "kanji"
    return "latin"


def _cjk(k: str) -> bool:
    return k in ("hira", "kata", "kanji")


def may_break(a: str, b: str) -> bool:
    """Whether a line may break between characters ``a`` and ``b`` at the phrase level."""
    if b in NO_START or a in NO_END:
        return False
    ka, kb = kind(a), kind(b)
    if ka == "space":
        return kb != "space"
    if ka == "close" or a == "・":
        return True
    if ka == "hira":
        return kb in ("kanji", "kata", "latin", "open")
    if ka == "latin" and _cjk(kb):  # "numplace初級": a Latin word then Japanese (a number keeps its counter: 第1巻)
        return a.isascii() and a.isalpha()
    return False


def phrases(text: str) -> list[str]:
    """``text`` cut at every phrase break (module docstring); the pieces join back to ``text``."""
    out: list[str] = []
    start = 0
    for i in range(1, len(text)):
        if may_break(text[i - 1], text[i]):
            out.append(text[start:i])
            start = i
    if text[start:]:
        out.append(text[start:])
    return out


def clusters(phrase: str) -> list[str]:
    """``phrase`` cut between characters wherever kinsoku allows (Latin words and digits kept
    whole); the pieces join back to ``phrase``."""
    atoms = re.findall(r"[A-Za-z0-9]+\s*|\s+|.", phrase)
    out: list[str] = []
    for atom in atoms:
        if out and (atom[0] in NO_START or out[-1][-1] in NO_END or atom.isspace()):
            out[-1] += atom
        else:
            out.append(atom)
    return out
