"""The library's one-line messages (a bad puzzle, a refused link, why there is no solution) in the
studio's language. Pure: text in, text out.

The library speaks English (the CLI prints its lines as they are); :func:`say` puts a line into
Japanese by the patterns of :data:`PATTERNS`, keeping the cell names (``r1c2``), digits and what
the user typed. A line no pattern knows is returned after a Japanese lead (``入力エラー:``) with its
English text, so nothing is ever hidden; English lines pass through unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pipeline.studio.words import Lang

_KIND_JA = {"row": "行", "column": "列", "box": "ブロック", "region": "領域", "diagonal": "対角線",
            "window": "窓", "cage": "ケージ"}


def _clash(m: re.Match[str]) -> str:
    kind, k, digit, where = m.group(1), m.group(2), m.group(3), m.group(4)
    place = re.sub(r"columns (\d+) and (\d+)", r"\1列目と\2列目", where)
    place = re.sub(r"rows (\d+) and (\d+)", r"\1行目と\2行目", place)
    place = place.replace(" and ", " と ")
    return f"{_KIND_JA.get(kind, kind)} {k} に {digit} が2つあります({place})"


#: English pattern -> Japanese (a format string of the groups, or a function of the match).
PATTERNS: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = tuple(
    (re.compile(p), j) for p, j in (
        (r"^unknown symbol '(.+)' at row (\d+), column (\d+) \(a (\d+)x\d+ puzzle uses (\S+) and \. or 0 for blank\)$",
         "r{2}c{3} の記号 '{1}' は使えません({4}\u00d7{4} の問題は {5} と、空白に . か 0)"),
        (r"^puzzle has (\d+) cells; expected .*$",
         "マスが {1} 個あります。4\u00d74 は 16、6\u00d76 は 36、9\u00d79 は 81、16\u00d716 は 256 マスです"),
        (r"^puzzle has (\d+) cells; a (\d+)x\d+ puzzle needs (\d+)$",
         "マスが {1} 個あります。{2}\u00d7{2} の問題は {3} マスです"),
        (r"^row (\d+), column (\d+): '(.*)' is not a symbol of a (\d+)x\d+ puzzle \((\S+), or empty\)$",
         "r{1}c{2}: '{3}' は {4}\u00d7{4} の問題の記号ではありません({5} か空白)"),
        (r"^cages: not JSON: .* at character (\d+)$", "ケージ: JSON として読めません({1} 文字目)"),
        (r"^puzzle: empty; .*$", "問題が空です。盤面に数字を入力するか、1行を貼り付けてください"),
        (r"^not a puzzle: (.*)$", "問題として読めません: 9\u00d79 なら数字 81 個の1行(空白は . か 0)、"
                                  "numplace show が出力する盤面、または JSON の問題行を入力してください"),
        (r"^count: (\d+) is over the page's cap of (\d+) a request .*$",
         "個数: {1} は1回の上限 {2} を超えています(セットは numplace run で作ります)。何も作りませんでした"),
        (r"^(\S+): not a key of the generate page .*$",
         "パラメータ '{1}': 作る画面のパラメータではありません(設定のキーか、短いキーを使います)。"
         "何も作りませんでした"),
        (r"^seed: '(.*)' is not a whole number.*$", "シード: '{1}' は 0 以上の整数ではありません"),
        (r"^(\S+): '(.*)' is not N or A-B$", "{1}: '{2}' は N か A-B の形ではありません"),
        (r"^(\S+): '(.*)' is not N, A-B, A- or -B$", "{1}: '{2}' は N、A-B、A-、-B のどれかの形ではありません"),
        (r"^(\S+): '(.*)': the low end is greater than the high end$", "{1}: '{2}' は下限が上限より大きい"),
        (r"^(\S+): '(.*)' is not a value$", "{1}: '{2}' は値として読めません"),
        (r"^level: (.*) is not one of .*$", "レベル: {1} はレベルの名前ではありません"),
        (r"^variant: '(.*)' is not a variant of this set .*$", "バリアント: '{1}' はこのセットにありません"),
        (r"^technique: '(.*)' is not a technique a puzzle of this set was made for .*$",
         "狙いのテクニック: '{1}' を狙って作った問題はこのセットにありません"),
        (r"^uses: '(.*)' is not a technique a path of this set uses$",
         "解き筋で使う手筋: '{1}' を使う問題はこのセットにありません"),
        (r"^difficulty: technique fixes the level .*$",
         "テクニックを狙うとレベルはそのテクニックで決まります。テクニックかレベルのどちらか一方を選んでください"),
        (r"^difficulty\.technique: technique targets are for 9x9 boards .*$",
         "テクニックを狙えるのは 9\u00d79 の盤面だけです"),
        (r"^difficulty\.technique: not on killer boards .*$", "キラーの盤面ではテクニックを狙えません"),
        (r"^difficulty\.technique: (\S+) is never used on (\S+) boards .*$",
         "{1} は {2} の盤面では使われないため狙えません"),
        (r"^difficulty\.technique: '(.*)' is not a technique.*$", "'{1}' はテクニックの名前ではありません"),
        (r"^(row|column|box|region|diagonal|window|cage) (\d+) has two (\S+)s \((.*)\)$", _clash),
        (r"^the givens admit no solution \(no two givens clash directly\)$",
         "ヒントが両立しません(同じ列・行・ブロックに同じ数字があるわけではありません)"),
        (r"^the solver hit its time limit; no answer$", "ソルバーが時間切れになりました。答えはありません"),
        (r"^cannot grade: (.*)$", "難易度をつけられません"),
        (r"^(.+): no puzzle in the file$", "{1}: ファイルに問題がありません"),
        (r"^(.+): the first of (\d+) puzzles$", "{1}: {2} 問のうち最初の問題"),
        (r"^puzzle (\d+): (\S+) failed: (.*)$", "{1} 番目の問題: 作成に失敗しました"),
        (r"^a killer puzzle needs its cages$", "キラーの問題にはケージが必要です"),
        (r"^jigsaw needs board.regions$", "ジグソーには領域(マスごとのラベル)が必要です"),
        (r"^board.regions has (\d+) labels; a (\d+)x\d+ board needs (\d+).*$",
         "ジグソー領域: ラベルが {1} 個あります。{2}\u00d7{2} の盤面には {3} 個必要です"),
        (r"^board.regions names (\d+) regions .*; a (\d+)x\d+ board needs (\d+)$",
         "ジグソー領域: 領域が {1} 個あります。{3} 個必要です"),
        (r"^board.regions region '(.*)' has (\d+) cells \(first at row (\d+), column (\d+)\); each needs (\d+)$",
         "ジグソー領域: 領域 '{1}' は {2} マスです(r{3}c{4} から)。{5} マス必要です"),
        (r"^board.regions region '(.*)' is not connected \(row (\d+), column (\d+) is cut off from the rest\)$",
         "ジグソー領域: 領域 '{1}' がつながっていません(r{2}c{3} が離れています)"),
        (r"^hyper is defined for 9x9 only.*$", "ハイパーは 9\u00d79 だけで使えます"),
        (r"^cages are given but the variant is not killer$", "ケージがありますが、バリアントがキラーではありません"),
        (r"^cage (\d+) sums to (\d+); .*$", "ケージ {1} の合計 {2} はありえません"),
        (r"^unknown variant '(.*)' .*$", "バリアント '{1}' はありません"),
        (r"^workbook: no puzzle of the sets was made for a technique .*$",
         "練習帳: 狙いのテクニックで作った問題がありません(「作る」の「テクニックを狙う」で作ります)"),
        (r"^workbook\.techniques: (\S+) has (\d+) puzzles made for it left, a chapter needs (\d+) .*$",
         "練習帳: '{1}' を狙った問題は {2} 問です。1章には {3} 問(解き方の例と練習問題)必要です"),
        (r"^workbook: (\S+) is not a classic 9x9 puzzle .*$",
         "練習帳: {1} は標準の 9\u00d79 ではありません(練習帳は標準の 9\u00d79 だけ)"),
        (r"^no repair with (\d+) changes? gives a unique puzzle$", "{1} か所の変更で唯一解になる修正はありません"),
        (r"^no repair with (\d+) changes? found that gives a unique puzzle.*$",
         "{1} か所の変更で唯一解になる修正は見つかりませんでした(すべては試していません)"),
    ))


#: Field names a message starts with (``score: ...``, a config key's path), in Japanese.
FIELDS = {"score": "スコア", "hints": "ヒント", "count": "個数", "seed": "シード", "level": "レベル",
          "levels": "レベル", "variant": "バリアント", "size": "サイズ", "symmetry": "対称性", "cages": "ケージ",
          "uses": "解き筋で使う手筋", "technique": "狙いのテクニック",
          "board": "盤面", "board.size": "サイズ", "board.variant": "バリアント", "board.regions": "ジグソー領域",
          "board.cages": "ケージ", "grid": "解答", "grid.fixed": "解答の固定マス", "grid.method": "盤面の作り方",
          "grid.keep_fixed": "固定マスをヒントに残す", "grid.areas": "エリア",
          "grid.solution_symmetry": "解答の対称性",
          "removal": "ヒントの取り除き方", "removal.symmetry": "対称性", "removal.hints": "ヒント",
          "removal.pattern": "ヒントの配置", "removal.minimal": "極小", "difficulty": "難易度",
          "difficulty.levels": "レベル", "difficulty.steer": "レベルに寄せる", "difficulty.technique": "テクニック",
          "difficulty.score": "スコア", "difficulty.logic_only": "論理だけで解ける", "name": "名前",
          "engine": "エンジン"}


def _field(line: str) -> str:
    head, sep, rest = line.partition(": ")
    return f"{FIELDS[head]}{sep}{rest}" if sep and head in FIELDS else line


def _translated(line: str) -> str | None:
    """``line`` in Japanese by :data:`PATTERNS`, or None when no pattern knows it."""
    for pattern, ja in PATTERNS:
        m = pattern.match(line)
        if m is None:
            continue
        return _field(ja(m) if callable(ja) else ja.format(m.group(0), *m.groups()))
    return None


def say(text: str, lang: Lang) -> str:
    """``text`` (one message line of the library) in ``lang`` (see the module contract)."""
    if lang != "ja":
        return text
    line = text.strip()
    said = _translated(line)
    if said is not None:
        return said
    head, sep, rest = line.partition(": ")  # a config key's path, then a line a pattern may know
    if sep and head in FIELDS:
        said = _translated(rest)
        if said is not None:
            return f"{FIELDS[head]}: {said}"
    return f"入力エラー: {line}"
