"""The words printed on a page, in Japanese or English: one small pure module (no I/O, no imports of
the package) so that books, and any other page of the project, speak the same words.

:func:`words` is the entry point: ``words("ja")`` or ``words("en")`` returns a :class:`Words` whose
fields are the fixed labels and whose methods make the phrases that depend on a number or a level.

Contracts
---------
* **Two languages**, :data:`LANGS`: ``en`` (the default of a book) and ``ja``. With ``ja`` every
  word printed is Japanese (問題, 解答, もくじ, ヒント, the levels 初級 ... 最難関, the variants and
  their rules); with ``en`` every word is English.
* **Plurals**: English counts take the singular for exactly 1 (``1 puzzle``, ``2 puzzles``,
  ``0 hints``); Japanese counts have no plural (``1問``, ``24問``).
* **Levels** are the graders' five (easy -> extreme) and ``unrated`` (a killer puzzle the grader
  does not rate); another level is printed as it is.
* **Variants** are named by their kinds (``x``, ``hyper``, ``jigsaw``, ``killer``, alone or mixed);
  :meth:`Words.variant_name` of no kind (classic) is the empty string.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: The languages a page can be printed in.
LANGS = ("en", "ja")

_LEVELS = {
    "en": {"easy": "Easy", "medium": "Medium", "hard": "Hard", "expert": "Expert", "extreme": "Extreme",
           "unrated": "Unrated"},
    "ja": {"easy": "初級", "medium": "中級", "hard": "上級", "expert": "超上級", "extreme": "最難関",
           "unrated": "未評価"},
}
_VARIANTS = {
    "en": {"x": "X", "hyper": "Hyper", "jigsaw": "Jigsaw", "killer": "Killer"},
    "ja": {"x": "対角線", "hyper": "ハイパー", "jigsaw": "ジグソー", "killer": "キラー"},
}
#: One short paragraph per variant: the rule it adds to the classic rules.
_RULES = {
    "en": {
        "classic": "Fill every empty cell so that each row, each column and each box holds every digit once.",
        "x": "The classic rules, and each of the two long diagonals (shaded) also holds every digit once.",
        "hyper": "The classic rules, and each of the four shaded windows also holds every digit once.",
        "jigsaw": "The boxes are irregular: each region bounded by thick lines holds every digit once, as does "
                  "each row and each column.",
        "killer": "The classic rules, and the digits in each dashed cage add up to the small number in its corner; "
                  "no digit repeats within a cage. A killer puzzle may start with no digits at all.",
    },
    "ja": {
        "classic": "空いているマスに数字を入れ、どの行・列・太線で囲まれたブロックにも"
                   "同じ数字が一度ずつ入るようにします。",
        "x": "基本のルールに加え、網かけの2本の対角線にも同じ数字が一度ずつ入ります。",
        "hyper": "基本のルールに加え、網かけの4つの窓にも同じ数字が一度ずつ入ります。",
        "jigsaw": "ブロックの形が不規則です。太線で囲まれた各領域と、各行・各列に同じ数字が一度ずつ入ります。",
        "killer": "基本のルールに加え、点線のケージ内の数字の合計は左上の小さな数になります。ケージ内で同じ数字は"
                  "使えません。最初に数字がひとつもない問題もあります。",
    },
}


@dataclass(frozen=True)
class Words:
    """The words of one language (:func:`words`); fields are fixed labels, methods make phrases."""

    lang: str
    contents: str
    answers: str
    puzzles: str  # a heading: the section of ungraded puzzles
    rules: str  # the heading of the variant rules page
    example: str  # under a rules page's drawing
    blank: str  # printed on a page left blank on purpose
    one_solution: str  # the title page's foot line
    number_prefix: str  # before a puzzle's number
    classic: str = ""  # a section of classic puzzles in a book sectioned by variant
    levels: dict[str, str] = field(default_factory=dict)
    noun_one: dict[str, str] = field(default_factory=dict)  # singular of the counted nouns (English)
    noun_many: dict[str, str] = field(default_factory=dict)  # plural (English) or the counter (Japanese)

    def level_name(self, level: str | None) -> str:
        """The printed name of a grader level (``easy`` -> ``Easy`` / ``初級``); None is ``""``."""
        if level is None:
            return ""
        return self.levels.get(level, level)

    def count(self, n: int, noun: str) -> str:
        """``n`` things: ``noun`` is ``puzzle``, ``hint`` or ``page`` (``1 puzzle``, ``24 hints``,
        ``24問``, ``ヒント数 24``)."""
        if self.lang == "ja":
            word = self.noun_many[noun]
            return f"{word} {n}" if noun == "hint" else f"{n}{word}"
        return f"{n} {self.noun_one[noun] if n == 1 else self.noun_many[noun]}"

    def variant_name(self, kinds: tuple[str, ...] | list[str]) -> str:
        """The name of a variant from its kinds (``("killer", "x")`` -> ``Killer X Sudoku`` /
        ``キラー対角線ナンプレ``); ``""`` for classic (no kinds)."""
        if not kinds:
            return ""
        names = _VARIANTS[self.lang]
        order = [k for k in ("killer", "jigsaw", "hyper", "x") if k in kinds]
        order += sorted(k for k in kinds if k not in order)
        if self.lang == "ja":
            return "".join(names.get(k, k) for k in order) + "ナンプレ"
        return " ".join(names.get(k, k) for k in order) + " Sudoku"

    def variant_names(self, variants: list[tuple[str, ...]]) -> str:
        """Several variants named together, each by :meth:`variant_name`: ``X Sudoku and Jigsaw
        Sudoku`` (``A, B and C``) / ``対角線ナンプレとジグソーナンプレ`` (``A、BとC``)."""
        names = [self.variant_name(v) for v in variants if v]
        if len(names) < 2:
            return names[0] if names else ""
        if self.lang == "ja":
            return f"{'、'.join(names[:-1])}と{names[-1]}"
        return f"{', '.join(names[:-1])} and {names[-1]}"

    def rule(self, kind: str) -> str:
        """The rule paragraph of a variant kind (``x``, ``hyper``, ``jigsaw``, ``killer``) or of
        ``classic``."""
        return _RULES[self.lang][kind]

    def volume_title(self, title: str, k: int) -> str:
        """The title of volume ``k`` (from 1) of a book called ``title``."""
        return f"{title} 第{k}巻" if self.lang == "ja" else f"{title}, Volume {k}"

    def subtitle(self, n_puzzles: int) -> str:
        """The default subtitle of a book of ``n_puzzles`` puzzles."""
        if self.lang == "ja":
            return f"ナンプレ {n_puzzles}問"
        return f"{n_puzzles} Number Place {'puzzle' if n_puzzles == 1 else 'puzzles'}"


def words(lang: str = "en") -> Words:
    """The :class:`Words` of ``lang`` (one of :data:`LANGS`); raises ``ValueError`` for another."""
    if lang == "ja":
        return Words("ja", contents="もくじ", answers="解答", puzzles="問題", rules="ルール", example="例",
                     blank="（このページは白紙です）",  # noqa: RUF001
                     one_solution="どの問題も答えはひとつです", number_prefix="問題", classic="ナンプレ",
                     levels=_LEVELS["ja"], noun_one={"puzzle": "問", "hint": "ヒント数", "page": "ページ"},
                     noun_many={"puzzle": "問", "hint": "ヒント数", "page": "ページ"})
    if lang == "en":
        return Words("en", contents="Contents", answers="Answers", puzzles="Puzzles", rules="Rules",
                     example="Example", blank="This page is intentionally left blank.",
                     one_solution="every puzzle has exactly one solution", number_prefix="No. ",
                     classic="Classic Sudoku",
                     levels=_LEVELS["en"],
                     noun_one={"puzzle": "puzzle", "hint": "hint", "page": "page"},
                     noun_many={"puzzle": "puzzles", "hint": "hints", "page": "pages"})
    raise ValueError(f"lang: {lang!r} is not one of {', '.join(LANGS)}")
