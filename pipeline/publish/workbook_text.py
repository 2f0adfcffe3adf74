# ruff: noqa: RUF001, E501  (Japanese text: full-width punctuation, long sentences)
"""The words of a technique workbook: each technique's short explanation in English and Japanese, and
the workbook's fixed phrases.

Contract: :func:`lesson` gives a title and an explanation for every technique a puzzle can be made
for (:data:`pipeline.config.technique.OFFERED`). The title is always the technique registry's row
(:data:`pipeline.difficulty.techniques.TECHNIQUES`: ``title``, ``ja``), the one place a technique is
named; the techniques a workbook is most often made of have their own paragraph (:data:`LESSONS`),
the others a general one built from the title.
"""

from __future__ import annotations

#: technique -> lang -> explanation (the chapter's title is the registry row's: :func:`lesson`).
LESSONS: dict[str, dict[str, str]] = {
    "hidden_single": {
        "en": ("A digit has only one place left in a row, a column or a box: it goes there, "
                                "whatever else that cell could hold."),
        "ja": ("ある行・列・ブロックで、ある数字を置ける場所がひとつしかなければ、そこにその数字が入ります。"),
    },
    "pointing": {
        "en": ("Inside one box a digit can only go in one row (or column). "
                                               "Whichever cell takes it, that line gets the digit from this box, "
                                               "so the digit leaves the rest of the line."),
        "ja": ("あるブロックの中で、ある数字の候補が一本の行（または列）にだけ並んでいるとき、"
                          "その行の他のブロックの部分からその数字を消せます。"),
    },
    "claiming": {
        "en": ("In a row (or column) a digit can only go inside one box. The box "
                                               "must take it on that line, so the digit leaves the rest of the box."),
        "ja": ("ある行（または列）で、ある数字の候補がひとつのブロックの中にだけあるとき、"
                         "そのブロックの他のマスからその数字を消せます。"),
    },
    "naked_pair": {
        "en": ("Two cells of one unit hold the same two candidates and nothing else. Those two "
                             "digits go in those two cells, so they leave every other cell of the unit."),
        "ja": ("同じ行・列・ブロックの2マスの候補が同じ2つの数字だけなら、その2つの数字はこの2マスに入るので、"
                          "同じ並びの他のマスから消せます。"),
    },
    "hidden_pair": {
        "en": ("Two digits can go only in the same two cells of a unit. Those cells hold those "
                              "digits, so every other candidate leaves the two cells."),
        "ja": ("ある並びで2つの数字の置ける場所が同じ2マスだけなら、その2マスの他の候補は消せます。"),
    },
    "x_wing": {
        "en": ("A digit can go in exactly two cells in each of two rows, and those cells share the "
                         "same two columns. The digit must take opposite corners of that rectangle, so each of "
                         "the two columns gets it from these rows: it leaves the rest of both columns. "
                         "(The same holds with rows and columns swapped.)"),
        "ja": ("ある数字の候補が、2本の行でそれぞれちょうど2マスにあり、その4マスが同じ2本の列に並ぶとき、"
                       "数字は長方形の対角に入ります。どちらの列でもこの2本の行のどちらかに入るので、"
                       "2本の列の他のマスからその数字を消せます（行と列を入れ替えても同じです）。"),
    },
    "swordfish": {
        "en": ("An X-Wing with three lines: in three rows a digit can only go in cells of the same "
                            "three columns. The three rows put the digit in those three columns, so it leaves "
                            "every other cell of the three columns."),
        "ja": ("3本版のXウィングです。3本の行で、ある数字の候補が同じ3本の列の中にだけあるとき、"
                           "その3本の列の他のマスからその数字を消せます。"),
    },
    "jellyfish": {
        "en": ("The fish with four lines: in four rows a digit can only go in cells of the same four "
                            "columns, so it leaves every other cell of those columns."),
        "ja": ("4本版のXウィングです。4本の行で、ある数字の候補が同じ4本の列の中にだけあるとき、"
                            "その4本の列の他のマスからその数字を消せます。"),
    },
    "skyscraper": {
        "en": ("Two rows each hold a digit in exactly two cells, and one end of each pair shares a "
                             "column (the base). One of the two other ends (the roofs) must hold the digit, so "
                             "any cell that sees both roofs loses it."),
        "ja": ("2本の行で、ある数字の候補がそれぞれちょうど2マスにあり、片方の端どうしが同じ列にあるとき、"
                            "残りの2つの端（屋根）のどちらかに必ずその数字が入ります。両方の屋根から見えるマスの候補を消せます。"),
    },
    "two_string_kite": {
        "en": ("A digit has exactly two places in a row and exactly two in a column, and one cell "
                                "of each pair lies in the same box. One of the two far ends holds the digit, so the "
                                "cell that sees both far ends loses it."),
        "ja": ("ある数字の候補が、ある行でちょうど2マス、ある列でちょうど2マスにあり、それぞれの片方が同じ"
                            "ブロックにあるとき、もう片方の2マスのどちらかに数字が入ります。その両方から見えるマスの候補を消せます。"),
    },
    "turbot_fish": {
        "en": ("Two strong links of one digit (units where it has exactly two places) joined by a "
                              "weak link: one end or the other holds the digit, so a cell seeing both ends loses it."),
        "ja": ("ある数字の強いリンク（ちょうど2か所にしか置けない並び）2本を弱いリンクでつなぐと、"
                             "両端のどちらかに数字が入ります。両端から見えるマスの候補を消せます。"),
    },
    "empty_rectangle": {
        "en": ("In one box a digit's candidates all lie in one row and one column (a cross). "
                                  "With a strong link of the digit elsewhere, one end of the link or the cross "
                                  "holds the digit, and the cell where they meet loses it."),
        "ja": ("あるブロックで、ある数字の候補が一本の行と一本の列（十字）の上にだけあるとき、その数字の"
                              "強いリンクと組み合わせると、交わるマスからその数字を消せます。"),
    },
    "w_wing": {
        "en": ("Two cells with the same pair of candidates {a, b}, joined by a strong link on a: "
                         "one of the two cells is b, so a cell that sees both loses b."),
        "ja": ("同じ2つの候補 {a, b} をもつ2マスが、数字 a の強いリンクでつながっているとき、どちらかのマスは b に"
                       "なります。両方から見えるマスの b を消せます。"),
    },
    "xy_wing": {
        "en": ("A pivot cell {x, y} sees two pincers {x, z} and {y, z}. Whatever the pivot holds, one "
                          "pincer becomes z, so a cell that sees both pincers loses z."),
        "ja": ("候補 {x, y} の軸のマスが、{x, z} と {y, z} の2マスから見えるとき、軸がどちらでも片方が z になります。"
                        "両方のマスから見えるマスの z を消せます。"),
    },
    "xyz_wing": {
        "en": ("An XY-Wing whose pivot holds {x, y, z}: the pivot or a pincer is z, so a cell that "
                           "sees all three loses z."),
        "ja": ("軸のマスが {x, y, z} のXYウィングです。軸か2つのマスのどれかが z になるので、3マスすべてから見える"
                         "マスの z を消せます。"),
    },
    "simple_colors": {
        "en": ("Follow one digit's strong links and colour their cells in two alternating shades: "
                                "one shade holds the digit. A cell that sees both shades loses it; a shade that "
                                "sees itself twice in a unit is false everywhere."),
        "ja": ("ある数字の強いリンクをたどり、マスを2色に交互に塗り分けると、どちらかの色が正解です。"
                          "両方の色から見えるマスの候補を消せ、同じ並びに同じ色が2つあればその色はすべて偽です。"),
    },
    "multi_colors": {
        "en": ("Two separate colourings of one digit: when a shade of one sees both shades of the "
                               "other, that shade is false; cells that see opposite shades of both lose the digit."),
        "ja": ("ある数字の2組の色分けを組み合わせて候補を消します。"),
    },
    "remote_pair": {
        "en": ("A chain of cells that all hold the same pair {a, b}, each seeing the next: the "
                              "digits alternate along it, so a cell seeing two ends of opposite parity loses both."),
        "ja": ("同じ2候補 {a, b} のマスが見え合いながら連なる鎖では数字が交互に入ります。偶奇の異なる2マスから"
                         "見えるマスの a と b を消せます。"),
    },
    "uniqueness_1": {
        "en": ("Four cells at the corners of a rectangle in two boxes, three of them holding "
                                    "only {a, b}: if the fourth were a or b too, the two digits could swap and the "
                                    "puzzle would have two solutions. It has one, so a and b leave the fourth."),
        "ja": ("2つのブロックにまたがる長方形の4マスのうち3マスの候補が {a, b} だけのとき、4マス目も"
                              "a か b なら答えが2つになってしまいます。答えはひとつなので、4マス目から a と b を消せます。"),
    },
    "bug_plus_1": {
        "en": ("Every open cell holds two candidates but one, which holds three. Were the extra digit "
                        "false, the puzzle would have two solutions: that cell takes the digit that appears three "
                        "times in its units."),
        "ja": ("1マスを除いて空きマスの候補がすべて2つのとき、そのマスには並びの中で3回現れる数字が入ります。"),
    },
    "finned_x_wing": {
        "en": ("An X-Wing with extra candidates (the fin) in one box of a base line: either the "
                                "X-Wing holds or the fin does, so cells of the fin's box that the X-Wing would clear "
                                "lose the digit."),
        "ja": ("Xウィングの片方の行に余分な候補（フィン）があるとき、フィンと同じブロックにあって"
                             "Xウィングが消すはずのマスの候補を消せます。"),
    },
    "x_chain": {
        "en": ("A chain of one digit's links, strong and weak in turn, from strong to strong: one end "
                          "holds the digit, so a cell that sees both ends loses it."),
        "ja": ("ある数字の強いリンクと弱いリンクを交互につないだ鎖の両端のどちらかに数字が入ります。"
                       "両端から見えるマスの候補を消せます。"),
    },
    "xy_chain": {
        "en": ("A chain of two-candidate cells, each sharing a digit with the next: if the first cell "
                           "is not z the last one is, so a cell that sees both ends loses z."),
        "ja": ("2候補のマスを共通の数字でつないだ鎖で、両端のどちらかが z になります。両端から見えるマスの z を"
                        "消せます。"),
    },
}

#: The workbook's fixed phrases, per language.
PHRASES: dict[str, dict[str, str]] = {
    "en": {"chapter": "Chapter {k}", "example": "Worked example", "practice": "Practice",
           "subtitle": "A technique workbook: {t} techniques, {p} puzzles",
           "legend": "Shaded: the pattern. Bold: the candidates it uses. Struck through: what it removes. "
                     "r3c5 is the cell in row 3, column 5.",
           "answers_note": "Beside each solution, its key step: the grid just before that step of the solving "
                           "path (singles first), the pattern shaded, what it removes struck through. rNcM is the "
                           "cell in row N, column M.",
           "key": "Key step", "intro": "Solve with singles and easier techniques until they stop; then look "
                                       "for the {title}. Each puzzle of this chapter needs it, and nothing "
                                       "harder."},
    "ja": {"chapter": "第{k}章", "example": "例題", "practice": "練習問題",
           "subtitle": "テクニック別ナンプレ {t}テクニック {p}問",
           "legend": "網かけ：パターンのマス　太字：使う候補　斜線：消せる候補　r3c5 は3行目5列目のマス",
           "answers_note": "解答の右は鍵の一手：解く手順でその手の直前の盤面です。網かけはパターン、斜線は消せる候補。"
                           "rNcM はN行目M列目のマスです。",
           "key": "鍵の一手", "intro": "シングルとやさしいテクニックで進め、行き詰まったら「{title}」を探しましょう。"
                                    "この章の問題はどれもこのテクニックが必要で、それより難しいものは要りません。"},
}


def lesson(name: str, lang: str) -> tuple[str, str]:
    """The chapter title (the registry row's, in ``lang``: ``en`` or ``ja``) and the explanation of
    technique ``name``."""
    from pipeline.difficulty.techniques import TECHNIQUES

    row = TECHNIQUES[name]
    title = row.ja if lang == "ja" else row.title
    own = LESSONS.get(name, {}).get(lang)
    if own is not None:
        return title, own
    if lang == "ja":
        return title, f"この章の問題は、シングルとそれよりやさしいテクニックで進めたあと、「{title}」を一度は使います。"
    return title, (f"Each puzzle of this chapter needs a {title} once the singles and the easier techniques "
                   "stop, and nothing harder.")


def removes(lang: str, elims: list[tuple[str, int]], places: list[tuple[str, int]]) -> str:
    """What a step does, as a sentence in ``lang``: ``elims`` and ``places`` are (cell name, digit)."""
    by_digit: dict[int, list[str]] = {}
    for cell, d in elims:
        by_digit.setdefault(d, []).append(cell)
    if lang == "ja":
        parts = [f"{'、'.join(cells)} から {d} を消せます" for d, cells in sorted(by_digit.items())]
        parts += [f"{cell} に {d} が入ります" for cell, d in places]
        return "。".join(parts) + "。"
    parts = [f"removes {d} from {_and(cells)}" for d, cells in sorted(by_digit.items())]
    parts += [f"puts {d} in {cell}" for cell, d in places]
    sentence = "; ".join(parts)
    return sentence[:1].upper() + sentence[1:] + "."


def _and(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"
