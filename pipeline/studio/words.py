"""The studio's labels in Japanese and English (``numplace studio --lang ja|en``, or ``?lang=`` in a URL).

:func:`word` returns the label of a key in a language; every key exists in both languages (a test
checks it). Level names are the books' (:func:`pipeline.publish.labels.words`: 初級 ... 最難関,
Easy ... Extreme), so a page and a book name a level alike.
"""

from __future__ import annotations

from typing import Literal

from pipeline.difficulty.techniques import LEVELS
from pipeline.publish import labels

Lang = Literal["ja", "en"]
LANGS: tuple[Lang, ...] = ("en", "ja")
#: Keys named by the grader, printed as the books print them.
LEVEL_KEYS = (*LEVELS, "unrated")

WORDS: dict[str, dict[Lang, str]] = {
    "app": {"en": "numplace studio", "ja": "ナンプレ スタジオ"},
    "solve": {"en": "Solve", "ja": "解く"},
    "repair": {"en": "Repair", "ja": "修正"},
    "generate": {"en": "Generate", "ja": "作る"},
    "sets": {"en": "Sets", "ja": "セット"},
    "puzzle": {"en": "Puzzle", "ja": "問題"},
    "solution": {"en": "Solution", "ja": "解答"},
    "solutions": {"en": "Solutions", "ja": "解答"},
    "enter": {"en": "Enter a puzzle", "ja": "問題を入力"},
    "type_in": {"en": "Click a cell and type", "ja": "マスをクリックして入力"},
    "paste": {"en": "Paste a line or a drawn grid", "ja": "1行または盤面を貼り付け"},
    "upload": {"en": "Upload a file", "ja": "ファイルをアップロード"},
    "use_text": {"en": "Use this text", "ja": "このテキストを使う"},
    "size": {"en": "Size", "ja": "サイズ"},
    "variant": {"en": "Variant", "ja": "バリアント"},
    "regions": {"en": "Jigsaw regions (one label per cell)", "ja": "ジグソー領域(マスごとのラベル)"},
    "cages": {"en": "Killer cages (JSON)", "ja": "キラーのケージ(JSON)"},
    "clear": {"en": "Clear", "ja": "クリア"},
    "status": {"en": "Status", "ja": "状態"},
    "line": {"en": "As one line", "ja": "1行で"},
    "differ": {"en": "Cells where the two solutions differ are marked", "ja": "2つの解答で異なるマスに印"},
    "grade": {"en": "Grade", "ja": "難易度"},
    "path": {"en": "Solving path", "ja": "解き筋"},
    "step": {"en": "Step", "ja": "ステップ"},
    "no_grade": {"en": "Not graded", "ja": "難易度なし"},
    "logic_steps": {"en": "logic steps", "ja": "論理ステップ"},
    "guesses": {"en": "guesses", "ja": "推測"},
    "hardest": {"en": "hardest", "ja": "最も難しい手筋"},
    "repair_do": {"en": "Repair", "ja": "修正する"},
    "changes": {"en": "Changed givens", "ja": "変更したヒント"},
    "repaired": {"en": "Repaired puzzle", "ja": "修正後の問題"},
    "nothing_to_repair": {"en": "Nothing to repair: the puzzle has exactly one solution",
                          "ja": "修正不要: この問題の解はちょうど1つです"},
    "multiple_exactly": {"en": "multiple: exactly {k} solutions", "ja": "複数解: 解はちょうど {k} 個"},
    "multiple_at_least": {"en": "multiple: at least {k} solutions", "ja": "複数解: 解は {k} 個以上"},
    "not_fit": {"en": "Not fit to print: the puzzle has more than one solution. Two of them are drawn below, "
                      "then the givens to add so that only one is left.",
                "ja": "このままでは掲載できません: 解が2つ以上あります。下に2つの解と、解を1つにするために"
                      "足すヒントを示します。"},
    "to_add": {"en": "Givens to add", "ja": "足すヒント"},
    "add_these": {"en": "Add these givens and the puzzle has one solution",
                  "ja": "これらのヒントを足すと解は1つになります"},
    "fewest_proved": {"en": "the fewest: no fewer added givens make it unique",
                      "ja": "最少: これより少ない追加では唯一解になりません"},
    "fewest_not_proved": {"en": "not proved the fewest", "ja": "最少とは限りません"},
    "add_not_unique": {"en": "Even with these givens the puzzle still has more than one solution (the search "
                             "stopped); add more.",
                       "ja": "これらを足しても解はまだ複数です(探索を打ち切りました)。さらに足してください。"},
    "equally_good_n": {"en": "{k} repairs change as few givens and are equally good; which given is wrong is "
                             "the editor's choice:",
                       "ja": "同じ数の変更で同じくらい良い修正が {k} 通りあります。"
                             "どの数字が誤りかは編集者が選んでください:"},
    "equally_good_more": {"en": "(the first of more)", "ja": "(ほかにもあります)"},
    "shown": {"en": "shown", "ja": "表示中"},
    "repaired_not_unique": {"en": "The repaired puzzle has more than one solution",
                            "ja": "修正後の問題は解が複数あります"},
    "clashes_n": {"en": "{k} independent clash(es): each set of givens below cannot stand together, and no two "
                        "sets share a given, so each needs its own change.",
                  "ja": "独立した矛盾が {k} 組あります: 下の各組のヒントは両立せず、組どうしは重ならないので、"
                        "組ごとに1か所の変更が必要です。"},
    "more_remain": {"en": "More clashes may remain (the search stopped).",
                    "ja": "ほかにも矛盾が残っているかもしれません(探索を打ち切りました)。"},
    "smallest_not_proved": {"en": "No smaller set was found within {k} exact searches: each set above is "
                                  "minimal (every one of its givens is needed), not proved the smallest.",
                            "ja": "{k} 回の厳密な探索では、これより小さい組は見つかりませんでした。上の各組は極小"
                                  "(どのヒントも欠かせない)ですが、最小であることは証明できていません。"},
    "looking_smallest": {"en": "Looking for the smallest such set (may take seconds); it follows here when "
                               "found",
                         "ja": "最小の組を探しています(数秒かかることがあります)。見つかるとここに表示します。"},
    "solve_it": {"en": "Solve", "ja": "解く"},
    "guesses_n": {"en": "{k} guess(es)", "ja": "推測 {k} 回"},
    "logic_steps_n": {"en": "{k} logic steps", "ja": "論理ステップ {k}"},
    "choose": {"en": "Choose", "ja": "選んでください"},
    "hints_placeholder": {"en": "minimal, or 24-28", "ja": "極小、または 24-28"},
    "puzzle_placeholder": {"en": "53..7....6..195.... (one line) or a drawn grid",
                           "ja": "53..7....6..195.... (1行)または盤面"},
    "areas": {"en": "Areas: digits only (or never) in a set of cells", "ja": "エリア: マスの組に入る(入らない)数字"},
    "area_cells": {"en": "Cells (like r1c1 r1c2, or r1c1-r3c3)", "ja": "マス(r1c1 r1c2、r1c1-r3c3 など)"},
    "area_digits": {"en": "Digits", "ja": "数字"},
    "area_rule": {"en": "Rule", "ja": "規則"},
    "rule_only": {"en": "only these digits", "ja": "この数字だけ"},
    "rule_never": {"en": "never these digits", "ja": "この数字は入らない"},
    "minimal_col": {"en": "minimal", "ja": "極小"},
    "yes": {"en": "yes", "ja": "はい"},
    "no": {"en": "no", "ja": "いいえ"},
    "id": {"en": "id", "ja": "番号"},
    "complete": {"en": "complete", "ja": "完了"},
    "incomplete": {"en": "incomplete", "ja": "失敗あり"},
    "partial": {"en": "partial", "ja": "途中まで"},
    "running": {"en": "running", "ja": "実行中"},
    "interrupted": {"en": "interrupted", "ja": "中断"},
    "cages_list": {"en": "Cages", "ja": "ケージ"},
    "x": {"en": "x", "ja": "X(対角線)"},
    "hyper": {"en": "hyper", "ja": "ハイパー"},
    "jigsaw": {"en": "jigsaw", "ja": "ジグソー"},
    "killer": {"en": "killer", "ja": "キラー"},
    "sym.none": {"en": "none", "ja": "なし"},
    "sym.identity": {"en": "none", "ja": "なし"},
    "sym.rot180": {"en": "rot180", "ja": "180度回転"},
    "sym.rot90": {"en": "rot90", "ja": "90度回転"},
    "sym.rot270": {"en": "rot270", "ja": "270度回転"},
    "sym.mirror-h": {"en": "mirror-h", "ja": "上下対称"},
    "sym.mirror-v": {"en": "mirror-v", "ja": "左右対称"},
    "sym.mirror-d": {"en": "mirror-d", "ja": "対角線対称"},
    "sym.mirror-a": {"en": "mirror-a", "ja": "逆対角線対称"},
    "sym.orthogonal": {"en": "orthogonal", "ja": "上下左右対称"},
    "sym.diagonal": {"en": "diagonal", "ja": "両対角線対称"},
    "sym.full": {"en": "full", "ja": "全対称"},
    "sym.random": {"en": "random", "ja": "ランダム"},
    "sym.": {"en": "(none)", "ja": "なし"},
    "method.weighted-lp": {"en": "weighted-lp", "ja": "重み付き(線形計画)"},
    "method.weighted-ilp": {"en": "weighted-ilp", "ja": "重み付き(整数計画)"},
    "method.uniform": {"en": "uniform", "ja": "一様"},
    "rule.only": {"en": "only", "ja": "この数字だけ"},
    "rule.never": {"en": "never", "ja": "入らない"},
    "rule.somewhere": {"en": "somewhere", "ja": "どこかに入る"},
    "number": {"en": "No.", "ja": "番号"},
    "any_puzzle": {"en": "any puzzle", "ja": "すべての問題"},
    "chart_puzzles": {"en": "puzzles", "ja": "問題数"},
    "chart_hints": {"en": "Hints (givens)", "ja": "ヒント数"},
    "chart_levels": {"en": "Difficulty mix", "ja": "難易度の内訳"},
    "chart_scores": {"en": "Score by level (median)", "ja": "レベルごとのスコア(中央値)"},
    "chart_symmetry": {"en": "Symmetry", "ja": "対称性"},
    "chart_techniques": {"en": "Hardest technique of each puzzle", "ja": "各問題で最も難しい手筋"},
    "chart_time": {"en": "Generation time by level (ms, median)", "ja": "レベルごとの作成時間(ミリ秒、中央値)"},
    "level": {"en": "Level", "ja": "レベル"},
    "technique": {"en": "Technique", "ja": "手筋"},
    "ms": {"en": "ms", "ja": "ミリ秒"},
    "why": {"en": "Why there is no solution", "ja": "解けない理由"},
    "why_core": {"en": "These givens cannot stand together", "ja": "これらのヒントは両立しません"},
    "smallest": {"en": "smallest such set", "ja": "最小の組"},
    "minimal": {"en": "minimal: drop any one and the rest has a solution",
                "ja": "極小: どれか1つを外せば残りは解ける"},
    "count": {"en": "Count", "ja": "個数"},
    "seed": {"en": "Seed", "ja": "シード"},
    "symmetry": {"en": "Symmetry", "ja": "対称性"},
    "hints": {"en": "Hints", "ja": "ヒント"},
    "minimal_puzzles": {"en": "Orbit-minimal puzzles", "ja": "極小の問題"},
    "levels": {"en": "Levels", "ja": "レベル"},
    "steer": {"en": "Steer toward the levels", "ja": "レベルに寄せる"},
    "technique_target": {"en": "Made for a technique", "ja": "テクニックを狙う"},
    "technique_help": {"en": "Puzzles whose solving path uses this technique and nothing harder (several: one "
                             "of them); it fixes the level, so leave Levels empty. 9x9 only.",
                       "ja": "解き筋にこのテクニックを使い、それより難しい手筋を使わない問題(複数選ぶとどれか一つ)。"
                             "レベルはテクニックで決まるので空のままにします。9x9 のみ。"},
    "made_for": {"en": "Made for", "ja": "狙いのテクニック"},
    "uses": {"en": "Path uses", "ja": "解き筋で使う手筋"},
    "method": {"en": "Grid method", "ja": "盤面の作り方"},
    "engine": {"en": "Engine", "ja": "エンジン"},
    "fixed": {"en": "Fixed cells of the solution", "ja": "解答の固定マス"},
    "keep_fixed": {"en": "Keep fixed cells as givens", "ja": "固定マスをヒントに残す"},
    "pattern": {"en": "Clue pattern (ticked cells hold givens)", "ja": "ヒントの配置(チェックしたマス)"},
    "solution_symmetry": {"en": "Solution symmetry", "ja": "解答の対称性"},
    "go": {"en": "Generate", "ja": "作成"},
    "config": {"en": "The same as a config for numplace run", "ja": "numplace run 用の設定"},
    "download": {"en": "Download", "ja": "ダウンロード"},
    "working": {"en": "Working", "ja": "作成中"},
    "making": {"en": "Making puzzle {k} of {n}", "ja": "{n} 問中 {k} 問目を作成中"},
    "made_n": {"en": "{k} made", "ja": "作成済み {k} 問"},
    "elapsed": {"en": "{s} s", "ja": "{s} 秒"},
    "grading": {"en": "Grading (a hard puzzle takes seconds)", "ja": "難易度を判定中(難しい問題は数秒かかります)"},
    "being_graded": {"en": "Being graded", "ja": "難易度を判定中"},
    "made": {"en": "made", "ja": "作成"},
    "failed": {"en": "failed", "ja": "失敗"},
    "root": {"en": "Output root", "ja": "出力フォルダ"},
    "no_sets": {"en": "No sets under this root yet", "ja": "まだセットがありません"},
    "set": {"en": "Set", "ja": "セット"},
    "runs": {"en": "Runs", "ja": "実行"},
    "check": {"en": "Check", "ja": "検査"},
    "filter": {"en": "Filter", "ja": "絞り込み"},
    "score": {"en": "Score", "ja": "スコア"},
    "book": {"en": "Book PDF", "ja": "本のPDF"},
    "make_book": {"en": "Make a book", "ja": "本を作る"},
    "title": {"en": "Title", "ja": "タイトル"},
    "first_n": {"en": "Take the first N of the filter", "ja": "絞り込みの先頭N問"},
    "picked": {"en": "Picked puzzles", "ja": "選んだ問題"},
    "used": {"en": "Used list", "ja": "使用リスト"},
    "plots": {"en": "Report", "ja": "レポート"},
    "sets_all": {"en": "All sets", "ja": "すべてのセット"},
    "no_root": {"en": "No such output folder", "ja": "出力フォルダがありません"},
    "not_a_set": {"en": "is not a set under", "ja": "はこのフォルダのセットではありません:"},
    "bad_root": {"en": "Cannot read the output folder", "ja": "出力フォルダを読めません"},
    "puzzles": {"en": "puzzles", "ja": "問"},
    "puzzles_col": {"en": "Puzzles", "ja": "問"},
    "next_index": {"en": "next index", "ja": "次の番号"},
    "stock": {"en": "stock", "ja": "ストック"},
    "run_id": {"en": "Run", "ja": "実行"},
    "indices": {"en": "Indices", "ja": "番号"},
    "created": {"en": "Created", "ja": "作成日時"},
    "check_fast": {"en": "Quick check (numplace check --fast)", "ja": "簡易検査 (numplace check --fast)"},
    "check_full": {"en": "Full check", "ja": "完全な検査"},
    "checking": {"en": "Quick check (numplace check --fast) running; its lines follow here when it is done",
                 "ja": "簡易検査 (numplace check --fast) の実行中。終わるとここに結果を表示します"},
    "checking_full": {"en": "Full check (numplace check) running; its lines follow here when it is done, "
                           "also if you leave this page and come back",
                      "ja": "完全な検査 (numplace check) の実行中。終わるとここに結果を表示します(このページを離れて"
                            "戻っても続きます)"},
    "reporting": {"en": "The report's charts are being computed; they follow here when they are done, also if "
                        "you leave this page and come back",
                  "ja": "レポートの図を計算中です。終わるとここに表示します(このページを離れて戻っても続きます)"},
    "charts": {"en": "charts", "ja": "図"},
    "queued": {"en": "Waiting for the job before it to finish", "ja": "前の処理が終わるのを待っています"},
    "progress_s": {"en": "working: {s} s so far", "ja": "作業中: {s} 秒経過"},
    "progress_n": {"en": "working: {done} of {total} {unit}, {s} s so far",
                   "ja": "作業中: {total} {unit}中 {done}、{s} 秒経過"},
    "check_full_done": {"en": "Full check (numplace check)", "ja": "完全な検査 (numplace check)"},
    "check_ok": {"en": "sound", "ja": "問題なし"},
    "check_bad": {"en": "problems found", "ja": "問題あり"},
    "any": {"en": "any", "ja": "すべて"},
    "classic": {"en": "classic", "ja": "標準"},
    "matching": {"en": "puzzles match", "ja": "問が一致"},
    "no_match": {"en": "No puzzle matches", "ja": "一致する問題はありません"},
    "page": {"en": "Page", "ja": "ページ"},
    "pick_hint": {"en": "Tick rows in the table to pick puzzles for a book",
                  "ja": "表の行にチェックを入れて本に入れる問題を選びます"},
    "take": {"en": "Puzzles of the book", "ja": "本に入れる問題"},
    "how_many": {"en": "How many", "ja": "問題数"},
    "per_page": {"en": "Puzzles a page", "ja": "1ページの問題数"},
    "book_made": {"en": "Book made", "ja": "本を作成しました"},
    "pages": {"en": "pages", "ja": "ページ"},
    "refused_filter": {"en": "No puzzle matches until the filter is fixed (nothing is taken from the whole set)",
                       "ja": "絞り込みを直すまで一致する問題はありません(セット全体から取ることはしません)"},
    "workbook": {"en": "Technique workbook (numplace book --workbook)",
                 "ja": "テクニック別の練習帳 (numplace book --workbook)"},
    "workbook_help": {"en": "A chapter per technique the chosen puzzles were made for: a worked example, then "
                            "practice puzzles. Make such puzzles on Generate with Made for a technique.",
                      "ja": "選んだ問題の狙いのテクニックごとに1章: 解き方の例と練習問題。そうした問題は「作る」の"
                            "「テクニックを狙う」で作ります。"},
    "book_section": {"en": "Puzzles", "ja": "問題"},
    "nothing_picked": {"en": "Nothing picked: tick rows in the table, or take the first N",
                       "ja": "問題が選ばれていません: 表で選ぶか、先頭N問を使います"},
    "read_only": {"en": "Browsing never writes into a set; a book is made in a temporary folder.",
                  "ja": "閲覧でセットに書き込むことはありません。本は一時フォルダで作ります。"},
    "unique": {"en": "unique", "ja": "唯一解"},
    "multiple": {"en": "multiple", "ja": "複数解"},
    "none": {"en": "none", "ja": "解なし"},
    "timeout": {"en": "timeout", "ja": "時間切れ"},
}


def lang_of(value: object) -> Lang:
    """``value`` as a language (``ja`` or ``en``); anything else is English."""
    return "ja" if str(value).strip().lower() == "ja" else "en"


def variant_name(name: str, lang: Lang = "en") -> str:
    """A variant name like ``x+hyper`` or ``classic`` in ``lang`` (each kind by its word)."""
    return "+".join(word(k, lang) for k in (name or "classic").split("+"))


def word(key: str, lang: Lang = "en") -> str:
    """The label of ``key`` in ``lang``: a level (``easy`` ... ``extreme``, ``unrated``) as the books
    print it; an unknown key is returned as it is."""
    if key in LEVEL_KEYS:
        return labels.words(lang).level_name(key)
    entry = WORDS.get(key)
    return entry[lang] if entry else key
