"""A grade's techniques and solving steps in the studio's language (Japanese or English).

Contracts
---------
* :func:`title` names a technique of :data:`pipeline.difficulty.techniques.TECHNIQUES`: its table
  title in English (``X-Wing``), the name Japanese solvers use in Japanese (``Xウィング``;
  katakana for the names that came to Japan from English, as Japanese puzzle sites print them). Every
  technique has both (a test checks it); a name the table does not know is returned as it is.
* :func:`step_line` is one step of a path: in English exactly ``numplace rate --explain``'s line
  (:func:`pipeline.difficulty.grade.explain_step`); in Japanese the technique's Japanese name and
  what the step does (``ステップ 3: ネイキッドシングル — r1c1 に 5 を入れる``; ``候補 7 を r5c3, r9c6
  から消す``). The Japanese line leaves out the English words that describe the pattern: the page marks
  the pattern's cells on the grid. Cells keep the ``r5c3`` names of the English line.
"""

from __future__ import annotations

from pipeline.difficulty.candidates import Step
from pipeline.difficulty.grade import cell_name, digit_name, explain_step
from pipeline.difficulty.techniques import TITLES
from pipeline.studio.words import Lang

#: Japanese names of the techniques, by table name.
JA: dict[str, str] = {
    "naked_single": "ネイキッドシングル",
    "hidden_single": "ヒドゥンシングル",
    "cage_combination": "ケージの組み合わせ",
    "innies_outies": "45の法則(イニーズ・アウティーズ)",
    "cage_unit_overlap": "ケージとユニットの重なり",
    "cage_combination_unit": "ユニット内のケージの組み合わせ",
    "cage_splitting": "ケージの分割",
    "innies_outies_multi": "複数ユニットの45の法則",
    "locked_pair": "ロックドペア",
    "locked_triple": "ロックドトリプル",
    "pointing": "ロックされた候補(ポインティング)",
    "claiming": "ロックされた候補(クレーミング)",
    "naked_pair": "ネイキッドペア",
    "naked_triple": "ネイキッドトリプル",
    "hidden_pair": "ヒドゥンペア",
    "hidden_triple": "ヒドゥントリプル",
    "naked_quad": "ネイキッドクアッド",
    "hidden_quad": "ヒドゥンクアッド",
    "x_wing": "Xウィング",
    "swordfish": "ソードフィッシュ",
    "jellyfish": "ジェリーフィッシュ",
    "remote_pair": "リモートペア",
    "bug_plus_1": "BUG+1",
    "skyscraper": "スカイスクレイパー",
    "two_string_kite": "2ストリングカイト",
    "turbot_fish": "ターボットフィッシュ",
    "empty_rectangle": "エンプティレクタングル",
    "w_wing": "Wウィング",
    "xy_wing": "XYウィング",
    "xyz_wing": "XYZウィング",
    "uniqueness_1": "ユニークネス・テスト1",
    "uniqueness_2": "ユニークネス・テスト2",
    "uniqueness_3": "ユニークネス・テスト3",
    "uniqueness_4": "ユニークネス・テスト4",
    "uniqueness_5": "ユニークネス・テスト5",
    "uniqueness_6": "ユニークネス・テスト6",
    "hidden_rectangle": "ヒドゥンレクタングル",
    "avoidable_rectangle_1": "アボイダブルレクタングル1",
    "avoidable_rectangle_2": "アボイダブルレクタングル2",
    "finned_x_wing": "フィン付きXウィング",
    "sashimi_x_wing": "サシミXウィング",
    "finned_swordfish": "フィン付きソードフィッシュ",
    "sashimi_swordfish": "サシミソードフィッシュ",
    "finned_jellyfish": "フィン付きジェリーフィッシュ",
    "sashimi_jellyfish": "サシミジェリーフィッシュ",
    "sue_de_coq": "スー・ド・コック",
    "simple_colors": "シンプルカラー",
    "multi_colors": "マルチカラー",
    "x_chain": "Xチェーン",
    "xy_chain": "XYチェーン",
    "continuous_nice_loop": "連続ナイスループ",
    "discontinuous_nice_loop": "不連続ナイスループ",
    "aic": "AIC(交互推論チェーン)",
    "grouped_continuous_nice_loop": "グループ化連続ナイスループ",
    "grouped_discontinuous_nice_loop": "グループ化不連続ナイスループ",
    "grouped_aic": "グループ化AIC",
    "als_xz": "ALS-XZ",
    "als_xy_wing": "ALS-XYウィング",
    "als_xy_chain": "ALS-XYチェーン",
    "death_blossom": "デスブロッサム",
    "forcing_chain": "フォーシングチェーン",
    "forcing_net": "フォーシングネット",
    "trial_and_error": "試行錯誤(仮置き)",
}


def title(technique: str, lang: Lang = "en") -> str:
    """The name of ``technique`` in ``lang`` (see the module contract)."""
    table = JA if lang == "ja" else TITLES
    return table.get(technique, technique)


def step_line(step: Step, n: int, number: int, lang: Lang = "en") -> str:
    """Step ``number`` of a path in ``lang`` (see the module contract)."""
    if lang != "ja":
        return explain_step(step, n, number)
    parts = [f"{cell_name(i, n)} に {digit_name(d)} を入れる" for i, d in step.placements]
    by_digit: dict[int, list[int]] = {}
    for i, d in step.eliminations:
        by_digit.setdefault(d, []).append(i)
    parts += [f"候補 {digit_name(d)} を {', '.join(cell_name(i, n) for i in sorted(cells))} から消す"
              for d, cells in sorted(by_digit.items())]
    return f"ステップ {number}: {title(step.technique, 'ja')} — {'、'.join(parts)}"
