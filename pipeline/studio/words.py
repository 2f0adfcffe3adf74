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
    "nothing_to_repair": {"en": "Nothing to repair: the puzzle is", "ja": "修正不要: この問題は"},
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
    "next_index": {"en": "next index", "ja": "次の番号"},
    "stock": {"en": "stock", "ja": "ストック"},
    "run_id": {"en": "Run", "ja": "実行"},
    "indices": {"en": "Indices", "ja": "番号"},
    "created": {"en": "Created", "ja": "作成日時"},
    "check_fast": {"en": "Quick check (numplace check --fast)", "ja": "簡易検査 (numplace check --fast)"},
    "check_full": {"en": "Full check", "ja": "完全な検査"},
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


def word(key: str, lang: Lang = "en") -> str:
    """The label of ``key`` in ``lang``: a level (``easy`` ... ``extreme``, ``unrated``) as the books
    print it; an unknown key is returned as it is."""
    if key in LEVEL_KEYS:
        return labels.words(lang).level_name(key)
    entry = WORDS.get(key)
    return entry[lang] if entry else key
