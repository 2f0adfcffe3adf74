"""The technique registry and the rulebooks: the one place that names, orders, levels and weighs the
human solving techniques, and says which finder and compiled probe each grader version uses.

Every technique the logical solver (:mod:`pipeline.difficulty.logic`) can use is one entry of
:data:`TECHNIQUES` (:class:`Technique`): our name, English and Japanese names, level, weight, HoDoKu's
name for it, its finder and its compiled probe (by name), and where it is sound. Each grader version
this code holds is one :class:`Rulebook` of :data:`RULEBOOKS`. This module imports nothing of the
package (finders are named as ``"module:function"``, resolved by the driver), so light modules (e.g.
:mod:`pipeline.config`) can use the level names without loading the solver.

Contracts
---------
* **Names** are stable identifiers: they appear in stored puzzle records (the ``techniques`` column),
  in ``max_technique`` arguments and in test data. Renaming one is a data-format change.
* **Row order is solver order** (of this code's :data:`GRADER_VERSION`). The solver tries
  techniques in the order of the rows (:data:`TECHNIQUE_ORDER`), and :mod:`pipeline.difficulty.logic`
  has one finder for every row but the last. The last row is ``trial_and_error``, which always
  applies to a solvable state. That order is HoDoKu's default solver order (``Options.java``'s
  solver index, which its solve loop follows: the first enabled step that applies is taken)
  restricted to the techniques implemented, with the killer rows (HoDoKu has no killer) right after
  the singles. An older grader version's order is kept in its :class:`Rulebook` (:data:`ORDERS` derived
  from them), so that a set begun under it keeps making the puzzles it made (:func:`held_version`).
  The rows of :data:`NOT_IN_SOLVER` are skipped by the solve loop, as HoDoKu's solver skips them.
* **Levels** are :data:`LEVELS`, easiest first, mapped to HoDoKu's index for index
  (:data:`HODOKU_LEVELS`: ``easy`` = Easy, ``medium`` = Medium, ``hard`` = Hard, ``expert`` = Unfair,
  ``extreme`` = Extreme). Every row's level is one of them; every weight is positive.
* **Level and weight** of each row are HoDoKu's defaults (``Options.DEFAULT_SOLVER_STEPS``: level and
  "base score" per step), so scores and levels computed by :mod:`pipeline.difficulty.grade` are HoDoKu's for any
  path that uses only these techniques. :data:`MAX_SCORE` is HoDoKu's ``DifficultyLevel`` limit per
  level (for 9x9; :func:`pipeline.difficulty.grade.max_score` scales it for 16x16 and 25x25).

Each row is written once, here: the docs' table of techniques (docs/difficulty.md, checked against
this registry by ``tests/test_docs.py``), the studio's words, ``numplace rate --explain``, the workbook's
chapter titles and the report read it. HoDoKu's defaults the rows follow are held against a transcription
of HoDoKu's table (``tests/data/hodoku_defaults.json``, ``tests/difficulty/test_registry.py``). Where a
row differs from HoDoKu (a full house counts as a naked single; trial and error picks the cell with the
fewest candidates; the killer rows are ours): docs/difficulty.md, "Where we differ from HoDoKu".

Not implemented (HoDoKu has them): Franken/mutant and kraken fish, squirmbag and
larger fish, ALS nodes in chains (off in HoDoKu's default solver too), templates. A puzzle HoDoKu solves
with one of those is finished here with the forcing chains or nets (or trial and error), so its grade
can come out *harder* than HoDoKu's; every technique we do use has HoDoKu's level and weight, and is
tried at HoDoKu's place in the order.

Older grader versions: each held version is one :class:`Rulebook` of :data:`RULEBOOKS` (its order, and
every finder or probe that differs from the registry's, with a sentence saying what it changed);
docs/difficulty.md's "Grader versions" lists them and the policy for retiring one.

Variant boards (x, hyper, jigsaw, killer) use the same table; what each technique looks at there,
and the killer :data:`UNRATED` level, are described in :mod:`pipeline.difficulty.grade`. The killer
rows (cage sums, :mod:`.killer.cages`) are tried only on boards with cages, so classic
and other variant paths never see them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Our level names, easiest first.
LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert", "extreme")
#: HoDoKu's level names, index for index.
HODOKU_LEVELS: tuple[str, ...] = ("Easy", "Medium", "Hard", "Unfair", "Extreme")
#: The level of a puzzle the grader cannot rate: a killer puzzle that logic (the cage techniques
#: and the classic ones) does not finish and for which no solution keeping every cage sum is known to
#: fall back on (:func:`pipeline.difficulty.grade.grade` says why in ``Grade.reason``). Deliberately
#: *not* one of :data:`LEVELS`: it has no rank, no score limit and no HoDoKu counterpart, and configs
#: cannot ask for it.
UNRATED = "unrated"

#: Highest score of each level (HoDoKu's defaults); a path scoring more moves up a level.
MAX_SCORE: dict[str, float] = {"easy": 800, "medium": 1000, "hard": 1600, "expert": 1800, "extreme": float("inf")}


@dataclass(frozen=True)
class Technique:
    """One entry of the technique registry: everything about a technique, in one place.

    ``name``: our identifier (stable, stored). ``title``: the English display title (explanations, the
    studio). ``ja``: the name Japanese solvers use (the studio's Japanese pages; katakana for the names
    that came to Japan from English). ``level``: one of :data:`LEVELS`. ``weight``: score of one step
    (HoDoKu's base score, > 0). ``hodoku``: HoDoKu's ``SolutionType`` name (empty for the killer rows:
    HoDoKu has no killer). ``hodoku_index``: the index of HoDoKu's solver step that finds it (its
    ``StepConfig`` index, its place in HoDoKu's solve loop: :data:`pipeline.difficulty.hodoku.STEPS`;
    None for the killer rows); unique but for the rows one HoDoKu step finds together (its nice-loop
    steps: discontinuous, continuous and AIC share one index, as do the grouped ones).
    ``finder``: the Python finder of the current rules, ``"module:function"`` inside
    :mod:`pipeline.difficulty` (a function ``(Candidates, _Ctx) -> Step | None``; resolved by
    :func:`pipeline.difficulty.logic.finder_of`); None only for ``trial_and_error``, which is the driver's
    own last rung. ``probe``: the name of its compiled twin in
    :data:`pipeline.difficulty.logic_jit.PROBES` (None: the compiled driver asks the Python finder).
    ``scope``: where the technique is used: ``"any"`` (every board, variants included, as
    :mod:`pipeline.difficulty.grade` describes), ``"unique"`` (a classic puzzle known to have one
    solution: the uniqueness rows), ``"classic"`` (classic boards up to 9x9 only: Sue de Coq and the ALS
    rows, whose finders search there only, as HoDoKu's), ``"cages"`` (boards with killer cages only).
    ``in_solver``: False for a row HoDoKu's default solver leaves out (found by
    :func:`~pipeline.difficulty.logic.find_step`, never a solve step). ``since``: the first grader
    version whose solver has the row (2 for the rows of the oldest held version): a rulebook from version
    3 on tries, in registry order, the rows of its version and before (:func:`_order`), so a new row with
    a new ``since`` leaves every older version's order as it was.
    An older grader version that used another finder or probe for a row says so in its
    :class:`Rulebook`.
    """

    name: str
    title: str
    ja: str
    level: str
    weight: float
    hodoku: str
    hodoku_index: int | None
    finder: str | None
    probe: str | None = None
    scope: str = "any"
    in_solver: bool = True
    since: int = 2


def _t(name: str, title: str, ja: str, level: str, weight: float, hodoku: str, hodoku_index: int | None,
       finder: str | None, probe: str | None = None, scope: str = "any", in_solver: bool = True,
       since: int = 2) -> Technique:
    return Technique(name, title, ja, level, weight, hodoku, hodoku_index, finder, probe, scope, in_solver, since)


_KILLER = "cages"
_UNIQUE = "unique"
_CLASSIC = "classic"

#: The technique registry: name -> :class:`Technique`, in the order the solver of :data:`GRADER_VERSION`
#: tries them (easiest first; ``trial_and_error`` last).
TECHNIQUES: dict[str, Technique] = {
    t.name: t
    for t in (
        _t("naked_single", "Naked Single", "ネイキッドシングル", "easy", 4, "NAKED_SINGLE", 200,
           "basic.singles:naked_single"),
        _t("hidden_single", "Hidden Single", "ヒドゥンシングル", "easy", 14, "HIDDEN_SINGLE", 300,
           "basic.singles:hidden_single"),
        # killer only (pipeline.difficulty.killer.cages; HoDoKu has no killer): skipped on boards without cages
        _t("cage_combination", "Cage Combinations", "ケージの組み合わせ", "easy", 5, "", None,
           "killer.cages:cage_combination", scope=_KILLER),
        _t("innies_outies", "Innies and Outies (45 Rule)", "45の法則(イニーズ・アウティーズ)", "medium", 40, "", None,
           "killer.cages:innies_outies", scope=_KILLER),
        _t("cage_unit_overlap", "Cage/Unit Overlap", "ケージとユニットの重なり", "medium", 50, "", None,
           "killer.cages:cage_unit_overlap", scope=_KILLER),
        _t("cage_combination_unit", "Cage Combinations in a Unit", "ユニット内のケージの組み合わせ",
           "medium", 60, "", None, "killer.cages:cage_combination_unit", scope=_KILLER),
        _t("cage_splitting", "Cage Splitting", "ケージの分割", "hard", 100, "", None,
           "killer.cages:cage_splitting", scope=_KILLER),
        _t("innies_outies_multi", "45 Rule over Several Units", "複数ユニットの45の法則", "hard", 120, "", None,
           "killer.cages:innies_outies_multi", scope=_KILLER),
        _t("locked_pair", "Locked Pair", "ロックドペア", "medium", 40, "LOCKED_PAIR", 1000,
           "basic.subsets:locked_pair", "locked_pair"),
        _t("locked_triple", "Locked Triple", "ロックドトリプル", "medium", 60, "LOCKED_TRIPLE", 1100,
           "basic.subsets:locked_triple", "locked_triple"),
        _t("pointing", "Locked Candidates (Pointing)", "ロックされた候補(ポインティング)",
           "medium", 50, "LOCKED_CANDIDATES_1", 1200, "basic.intersections:pointing", "pointing"),
        _t("claiming", "Locked Candidates (Claiming)", "ロックされた候補(クレーミング)",
           "medium", 50, "LOCKED_CANDIDATES_2", 1210, "basic.intersections:claiming", "claiming"),
        _t("naked_pair", "Naked Pair", "ネイキッドペア", "medium", 60, "NAKED_PAIR", 1300,
           "basic.subsets:naked_pair", "naked_pair"),
        _t("naked_triple", "Naked Triple", "ネイキッドトリプル", "medium", 80, "NAKED_TRIPLE", 1400,
           "basic.subsets:naked_triple", "naked_triple"),
        _t("hidden_pair", "Hidden Pair", "ヒドゥンペア", "medium", 70, "HIDDEN_PAIR", 1500,
           "basic.subsets:hidden_pair", "hidden_pair"),
        _t("hidden_triple", "Hidden Triple", "ヒドゥントリプル", "medium", 100, "HIDDEN_TRIPLE", 1600,
           "basic.subsets:hidden_triple", "hidden_triple"),
        _t("naked_quad", "Naked Quad", "ネイキッドクアッド", "hard", 120, "NAKED_QUADRUPLE", 2000,
           "basic.subsets:naked_quad", "naked_quad"),
        _t("hidden_quad", "Hidden Quad", "ヒドゥンクアッド", "hard", 150, "HIDDEN_QUADRUPLE", 2100,
           "basic.subsets:hidden_quad", "hidden_quad"),
        _t("x_wing", "X-Wing", "Xウィング", "hard", 140, "X_WING", 2200, "fish.search:x_wing", "x_wing"),
        _t("swordfish", "Swordfish", "ソードフィッシュ", "hard", 150, "SWORDFISH", 2300,
           "fish.search:swordfish", "swordfish"),
        _t("jellyfish", "Jellyfish", "ジェリーフィッシュ", "hard", 160, "JELLYFISH", 2400,
           "fish.search:jellyfish", "jellyfish"),
        _t("remote_pair", "Remote Pair", "リモートペア", "hard", 110, "REMOTE_PAIR", 2800, "chains.simple:remote_pair"),
        _t("bug_plus_1", "BUG+1", "BUG+1", "hard", 100, "BUG_PLUS_1", 2900,
           "uniqueness.rectangles:bug_plus_1", scope=_UNIQUE),
        _t("skyscraper", "Skyscraper", "スカイスクレイパー", "hard", 130, "SKYSCRAPER", 3000,
           "patterns.single_digit:skyscraper", "skyscraper"),
        _t("two_string_kite", "2-String Kite", "2ストリングカイト", "hard", 150, "TWO_STRING_KITE", 3100,
           "patterns.single_digit:two_string_kite", "two_string_kite"),
        _t("turbot_fish", "Turbot Fish", "ターボットフィッシュ", "hard", 120, "TURBOT_FISH", 3120,
           "patterns.single_digit:turbot_fish", "turbot_fish"),
        _t("empty_rectangle", "Empty Rectangle", "エンプティレクタングル", "hard", 120, "EMPTY_RECTANGLE", 3170,
           "patterns.single_digit:empty_rectangle", "empty_rectangle"),
        _t("w_wing", "W-Wing", "Wウィング", "hard", 150, "W_WING", 3200, "patterns.wings:w_wing", "w_wing"),
        _t("xy_wing", "XY-Wing", "XYウィング", "hard", 160, "XY_WING", 3300, "patterns.wings:xy_wing", "xy_wing"),
        _t("xyz_wing", "XYZ-Wing", "XYZウィング", "hard", 180, "XYZ_WING", 3400, "patterns.wings:xyz_wing", "xyz_wing"),
        *(_t(f"uniqueness_{k}", f"Uniqueness Test {k}", f"ユニークネス・テスト{k}", "hard", 100, f"UNIQUENESS_{k}",
             3400 + 100 * k, f"uniqueness.rectangles:uniqueness_{k}", scope=_UNIQUE, since=3 if k == 5 else 2)
          for k in (1, 2, 3, 4, 5, 6)),
        _t("hidden_rectangle", "Hidden Rectangle", "ヒドゥンレクタングル", "hard", 100, "HIDDEN_RECTANGLE", 4010,
           "uniqueness.rectangles:hidden_rectangle", scope=_UNIQUE),
        *(_t(f"avoidable_rectangle_{k}", f"Avoidable Rectangle Type {k}", f"アボイダブルレクタングル{k}", "hard", 100,
             f"AVOIDABLE_RECTANGLE_{k}", 4010 + 10 * k, f"uniqueness.rectangles:avoidable_rectangle_{k}", scope=_UNIQUE,
             since=3) for k in (1, 2)),
        _t("finned_x_wing", "Finned X-Wing", "フィン付きXウィング", "hard", 130, "FINNED_X_WING", 4100,
           "fish.search:finned_x_wing", "finned_x_wing"),
        _t("sashimi_x_wing", "Sashimi X-Wing", "サシミXウィング", "hard", 150, "SASHIMI_X_WING", 4200,
           "fish.search:sashimi_x_wing", "sashimi_x_wing"),
        _t("finned_swordfish", "Finned Swordfish", "フィン付きソードフィッシュ",
           "expert", 200, "FINNED_SWORDFISH", 4300, "fish.search:finned_swordfish", "finned_swordfish"),
        _t("sashimi_swordfish", "Sashimi Swordfish", "サシミソードフィッシュ", "expert", 240, "SASHIMI_SWORDFISH", 4400,
           "fish.search:sashimi_swordfish", "sashimi_swordfish"),
        _t("finned_jellyfish", "Finned Jellyfish", "フィン付きジェリーフィッシュ",
           "expert", 250, "FINNED_JELLYFISH", 4500, "fish.search:finned_jellyfish", "finned_jellyfish"),
        _t("sashimi_jellyfish", "Sashimi Jellyfish", "サシミジェリーフィッシュ",
           "expert", 260, "SASHIMI_JELLYFISH", 4600, "fish.search:sashimi_jellyfish", "sashimi_jellyfish"),
        _t("sue_de_coq", "Sue de Coq", "スー・ド・コック", "expert", 250, "SUE_DE_COQ", 5300,
           "als.sue_de_coq:sue_de_coq", scope=_CLASSIC, since=3),
        _t("simple_colors", "Simple Colors", "シンプルカラー", "hard", 150, "SIMPLE_COLORS", 5330,
           "chains.simple:simple_colors", "simple_colors"),
        _t("multi_colors", "Multi-Colors", "マルチカラー", "hard", 200, "MULTI_COLORS", 5360,
           "chains.simple:multi_colors", "multi_colors", since=3),
        _t("x_chain", "X-Chain", "Xチェーン", "expert", 260, "X_CHAIN", 5400, "chains.simple:x_chain", "x_chain"),
        _t("xy_chain", "XY-Chain", "XYチェーン", "expert", 260, "XY_CHAIN", 5500, "chains.simple:xy_chain", "xy_chain"),
        _t("discontinuous_nice_loop", "Discontinuous Nice Loop", "不連続ナイスループ",
           "expert", 280, "DISCONTINUOUS_NICE_LOOP", 5600, "chains.engine:nice_loop"),
        _t("continuous_nice_loop", "Continuous Nice Loop", "連続ナイスループ",
           "expert", 280, "CONTINUOUS_NICE_LOOP", 5600, "chains.engine:nice_loop", since=5),
        _t("aic", "AIC", "AIC(交互推論チェーン)", "expert", 280, "AIC", 5600, "chains.engine:aic"),
        _t("grouped_discontinuous_nice_loop", "Grouped Discontinuous Nice Loop", "グループ化不連続ナイスループ",
           "expert", 300, "GROUPED_DISCONTINUOUS_NICE_LOOP", 5650, "chains.grouped:grouped_loop", since=6),
        _t("grouped_continuous_nice_loop", "Grouped Continuous Nice Loop", "グループ化連続ナイスループ",
           "expert", 300, "GROUPED_CONTINUOUS_NICE_LOOP", 5650, "chains.grouped:grouped_loop", since=6),
        _t("grouped_aic", "Grouped AIC", "グループ化AIC", "expert", 300, "GROUPED_AIC", 5650,
           "chains.grouped:grouped_loop", since=6),
        _t("als_xz", "ALS-XZ", "ALS-XZ", "expert", 300, "ALS_XZ", 5700, "als.sets:als_xz", scope=_CLASSIC, since=3),
        _t("als_xy_wing", "ALS-XY-Wing", "ALS-XYウィング", "expert", 320, "ALS_XY_WING", 5800,
           "als.sets:als_xy_wing", scope=_CLASSIC, since=3),
        _t("als_xy_chain", "ALS-XY-Chain", "ALS-XYチェーン", "expert", 340, "ALS_XY_CHAIN", 5900,
           "als.sets:als_xy_chain", scope=_CLASSIC, since=3),
        _t("death_blossom", "Death Blossom", "デスブロッサム", "expert", 360, "DEATH_BLOSSOM", 6000,
           "als.sets:death_blossom", scope=_CLASSIC, in_solver=False, since=3),
        _t("forcing_chain", "Forcing Chain", "フォーシングチェーン",
           "extreme", 500, "FORCING_CHAIN_CONTRADICTION", 8500, "chains.loops:forcing_chain"),
        _t("forcing_net", "Forcing Net", "フォーシングネット", "extreme", 700, "FORCING_NET_CONTRADICTION", 8600,
           "chains.loops:forcing_net"),
        _t("trial_and_error", "Trial and Error", "試行錯誤(仮置き)", "extreme", 10000, "BRUTE_FORCE", 8900, None),
    )
}

#: The techniques valid only for a puzzle known to have one solution (see :mod:`.uniqueness.rectangles`).
UNIQUENESS: frozenset[str] = frozenset(t.name for t in TECHNIQUES.values() if t.scope == _UNIQUE)
#: The killer rows (cage sums, :mod:`.killer.cages`): tried only on boards with cages.
CAGES: frozenset[str] = frozenset(t.name for t in TECHNIQUES.values() if t.scope == _KILLER)
#: The rows used on classic boards only: the uniqueness rows, and the rows whose finders search classic
#: boards up to 9x9 only (Sue de Coq, the ALS rows).
CLASSIC_ONLY: frozenset[str] = frozenset(t.name for t in TECHNIQUES.values() if t.scope in (_UNIQUE, _CLASSIC))

#: Rows HoDoKu's default solver leaves out (its step is switched off in ``Options.DEFAULT_SOLVER_STEPS``):
#: each has a finder (:func:`pipeline.difficulty.logic.find_step` finds it), but a solve path never uses
#: it, so grades stay HoDoKu's.
NOT_IN_SOLVER: frozenset[str] = frozenset(t.name for t in TECHNIQUES.values() if not t.in_solver)


@dataclass(frozen=True)
class Rulebook:
    """The grading rules of one grader version: the order in which its solver tries the techniques, and
    every finder or compiled probe that differs from the registry's (:data:`TECHNIQUES` holds the
    rules of :data:`GRADER_VERSION`).

    ``order``: technique names, ``trial_and_error`` last (a subset of the registry: an older version
    leaves out the rows added after it). ``finders`` / ``probes``: row -> the finder reference / probe
    name this version uses instead of the registry's (a probe None: no compiled twin). ``change``: what
    this version changed from the one before it, in a sentence (docs/difficulty.md's table of versions).
    ``loose``: the rows whose probe is looser than this version's finder (it may say yes where the finder
    finds nothing; never the other way): the compiled driver then lets the finder decide, even under
    tests. Every other probe is its finder's exact twin (``tests/difficulty/test_twins.py``).

    By convention a finder or probe kept only for older versions is named ``<row>_until_<N>`` after the
    newest version that uses it, so retiring versions up to N deletes exactly the ``_until_<M>`` names
    with M <= N (docs/difficulty.md, "Retiring a grader version").
    """

    version: int
    order: tuple[str, ...]
    change: str
    finders: dict[str, str] = field(default_factory=dict)
    probes: dict[str, str | None] = field(default_factory=dict)
    loose: frozenset[str] = frozenset()

    def finder(self, technique: str) -> str | None:
        """The finder reference of ``technique`` under these rules (None for ``trial_and_error``)."""
        return self.finders[technique] if technique in self.finders else TECHNIQUES[technique].finder

    def probe(self, technique: str) -> str | None:
        """The compiled probe name of ``technique`` under these rules (None: not probed)."""
        return self.probes[technique] if technique in self.probes else TECHNIQUES[technique].probe


def _order(version: int) -> tuple[str, ...]:
    """The solver order of grader ``version`` (3 or later): the registry's rows of that version and before."""
    return tuple(t for t, x in TECHNIQUES.items() if x.since <= version)


#: Grader version 2's solver order: HoDoKu's default order restricted to the techniques it had, except
#: that Simple Colors came before the Unfair finned fish and that the uniqueness rows, nice loops, AICs
#: and forcing chains and nets came after the XY-chain. Kept so that a set begun under version 2 goes
#: on making the very puzzles it made (a grade decides which puzzles a difficulty target keeps).
_ORDER_2: tuple[str, ...] = (
    "naked_single", "hidden_single", "cage_combination", "innies_outies", "cage_unit_overlap",
    "cage_combination_unit", "cage_splitting", "innies_outies_multi", "locked_pair", "locked_triple", "pointing",
    "claiming", "naked_pair", "naked_triple", "hidden_pair", "hidden_triple", "naked_quad", "hidden_quad", "x_wing",
    "swordfish", "jellyfish", "remote_pair", "skyscraper", "two_string_kite", "turbot_fish", "empty_rectangle",
    "w_wing", "xy_wing", "xyz_wing", "finned_x_wing", "sashimi_x_wing", "simple_colors", "finned_swordfish",
    "sashimi_swordfish", "finned_jellyfish", "sashimi_jellyfish", "x_chain", "xy_chain", "bug_plus_1",
    "uniqueness_1", "uniqueness_2", "uniqueness_3", "uniqueness_4", "uniqueness_6", "hidden_rectangle",
    "discontinuous_nice_loop", "aic", "forcing_chain", "forcing_net", "trial_and_error",
)

# The finders (and probes) of graders up to 5: unique rectangles need every corner to hold both digits.
_FINDERS_UNTIL_5: dict[str, str] = {
    **{f"uniqueness_{k}": f"uniqueness.rectangles:uniqueness_{k}_until_5" for k in (1, 2, 3, 4, 5, 6)},
    "hidden_rectangle": "uniqueness.rectangles:hidden_rectangle_until_5",
}
_SUBSETS = ("locked_pair", "locked_triple", "naked_pair", "naked_triple")
# ... up to 4: the shortest X-/XY-chain and the first turbot fish and skyscraper found, any pair or triple
# inside a box and a line locked, HoDoKu's choice of nice loop and AIC without its tables.
_FINDERS_UNTIL_4: dict[str, str] = {
    **_FINDERS_UNTIL_5,
    **{t: f"basic.subsets:{t}_until_4" for t in _SUBSETS},
    "skyscraper": "patterns.single_digit:skyscraper_until_4",
    "turbot_fish": "patterns.single_digit:turbot_fish_until_4",
    "x_chain": "chains.simple:x_chain_until_4", "xy_chain": "chains.simple:xy_chain_until_4",
    "discontinuous_nice_loop": "chains.engine:nice_loop_until_4", "aic": "chains.engine:aic_until_4",
}
_PROBES_UNTIL_4: dict[str, str | None] = {t: f"{t}_until_4" for t in _SUBSETS}
# ... up to 3: the shortest nice loop or AIC.
_FINDERS_UNTIL_3: dict[str, str] = {
    **_FINDERS_UNTIL_4, "discontinuous_nice_loop": "chains.loops:nice_loop_until_3", "aic": "chains.loops:aic_until_3"}



def _book(version: int, order: tuple[str, ...], change: str, finders: dict[str, str] | None = None,
          probes: dict[str, str | None] | None = None, loose: frozenset[str] = frozenset()) -> Rulebook:
    """A :class:`Rulebook` with the rules of the rows of ``order`` only."""
    return Rulebook(version, order, change, {t: f for t, f in (finders or {}).items() if t in order},
                    {t: p for t, p in (probes or {}).items() if t in order}, loose & set(order))


# Since grader 5 the skyscraper is searched in HoDoKu's order, which skips a pair of conjugate lines whose
# far ends share a line (an X-Wing's shape); its probe reads every skyscraper the older search sees.
_LOOSE_5 = frozenset({"skyscraper"})


#: grader version -> its :class:`Rulebook`, for every version this code holds.
RULEBOOKS: dict[int, Rulebook] = {rb.version: rb for rb in (
    _book(2, _ORDER_2, "the killer cage techniques; the uniqueness rows, nice loops, AICs and forcing "
             "chains and nets after the XY-chain", _FINDERS_UNTIL_3, _PROBES_UNTIL_4),
    _book(3, _order(3), "HoDoKu's default solver order, with Multi-Colors, Uniqueness Test 5, the avoidable "
             "rectangles, Sue de Coq and the ALS rows", _FINDERS_UNTIL_3, _PROBES_UNTIL_4),
    _book(4, _order(4), "HoDoKu's choice among every nice loop and AIC", _FINDERS_UNTIL_4, _PROBES_UNTIL_4),
    _book(5, _order(5), "HoDoKu's choice of X-chain, XY-chain, turbot fish and skyscraper, its nice-loop "
             "tables with the continuous row, its locked-subset rule", _FINDERS_UNTIL_5, loose=_LOOSE_5),
    _book(6, _order(6), "grouped nice loops and AICs; HoDoKu's unique rectangles (missing "
             "candidates, its Test 4 rule)", loose=_LOOSE_5),
)}

#: The version of the grading rules of this code (the rules of new sets): the newest of
#: :data:`RULEBOOKS` (each says what it changed). Raised whenever any puzzle's grade can change; each
#: run records the rules it graded by in its manifest (``grader_version``), a set keeps the rules it
#: began with (:func:`held_version`), and ``numplace check`` recomputes grades by the run's own rules.
#: Version 1 (grades made before the killer cage techniques and the chains after the XY-chain) is not held.
GRADER_VERSION = max(RULEBOOKS)

#: grader version -> the order in which its solver tries the techniques (trial and error last), from
#: :data:`RULEBOOKS`. Every version this code holds; version 6's is the row order of :data:`TECHNIQUES`.
ORDERS: dict[int, tuple[str, ...]] = {v: rb.order for v, rb in RULEBOOKS.items()}

#: Technique names in the order the solver of :data:`GRADER_VERSION` tries them (the keys of :data:`TECHNIQUES`).
TECHNIQUE_ORDER: tuple[str, ...] = ORDERS[GRADER_VERSION]
#: name -> display title, in :data:`TECHNIQUE_ORDER`.
TITLES: dict[str, str] = {name: t.title for name, t in TECHNIQUES.items()}
#: name -> Japanese name, in :data:`TECHNIQUE_ORDER` (the studio's words).
JA_TITLES: dict[str, str] = {name: t.ja for name, t in TECHNIQUES.items()}


class NewerGrader(ValueError):
    """A set recorded by grading rules newer than this code's (the message names both versions)."""


def held_version(recorded: int | None) -> int:
    """The grader version whose rules grade the puzzles of a set whose first run recorded ``recorded``
    (None: a new set, which gets :data:`GRADER_VERSION`).

    A recorded version of :data:`ORDERS` is kept. Version 1 (runs before the field, or recording 1) is
    not held: such sets have been continued by version 2's rules since version 2 existed, and still
    are (version 1 differs from 2 only on puzzles that needed trial and error). A version newer than
    this code's raises :class:`NewerGrader`: older code cannot promise its puzzles."""
    if recorded is None:
        return GRADER_VERSION
    if recorded > GRADER_VERSION:
        raise NewerGrader(f"grader version {recorded}, newer than this numplace's {GRADER_VERSION}: "
                          "upgrade numplace to continue the set")
    return max(recorded, min(ORDERS))


def order_of(version: int) -> tuple[str, ...]:
    """The solver order of grader ``version`` (:func:`held_version` maps a recorded version onto one held);
    raises ValueError for a version this code does not hold."""
    try:
        return RULEBOOKS[version].order
    except KeyError:
        raise ValueError(f"grader version {version} is not held (this numplace holds "
                         f"{', '.join(map(str, sorted(ORDERS)))})") from None


def rulebook(version: int) -> Rulebook:
    """The :class:`Rulebook` of grader ``version``; raises ValueError for a version this code does not hold."""
    order_of(version)  # the one message for a version not held
    return RULEBOOKS[version]
