"""The table of human solving techniques: the one place that names, orders, levels and weighs them.

Every technique the logical solver (:mod:`pipeline.difficulty.logic`) can use is one row of :data:`TECHNIQUES`:
our name, display title, level, weight and HoDoKu's name for it. This module imports nothing of the
package, so light modules (e.g. :mod:`pipeline.config`) can use the level names without loading the
solver.

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
  the singles. An older grader version's order is kept in :data:`ORDERS`, so that a set begun
  under it keeps making the puzzles it made (:func:`held_version`).
  The rows of :data:`NOT_IN_SOLVER` are skipped by the solve loop, as HoDoKu's solver skips them.
* **Levels** are :data:`LEVELS`, easiest first, mapped to HoDoKu's index for index
  (:data:`HODOKU_LEVELS`: ``easy`` = Easy, ``medium`` = Medium, ``hard`` = Hard, ``expert`` = Unfair,
  ``extreme`` = Extreme). Every row's level is one of them; every weight is positive.
* **Level and weight** of each row are HoDoKu's defaults (``Options.DEFAULT_SOLVER_STEPS``: level and
  "base score" per step), so scores and levels computed by :mod:`pipeline.difficulty.grade` are HoDoKu's for any
  path that uses only these techniques. :data:`MAX_SCORE` is HoDoKu's ``DifficultyLevel`` limit per
  level (for 9x9; :func:`pipeline.difficulty.grade.max_score` scales it for 16x16 and 25x25).

Technique table (:data:`TECHNIQUES`, in solver order; HoDoKu defaults checked against its ``Options.java``)
--------------------------------------------------------------------------------------------------------
=================  ==============================  =======  ======  =====================================
name               HoDoKu SolutionType             level    weight  difference from HoDoKu
=================  ==============================  =======  ======  =====================================
naked_single       NAKED_SINGLE (+ FULL_HOUSE)     easy     4       a full house counts as a naked single
                                                                    (both weigh 4, so scores agree)
hidden_single      HIDDEN_SINGLE                   easy     14
cage_combination   (none: killer)                  easy     5       killer rows: tried only on boards
innies_outies      (none: killer)                  medium   40      with cages (:mod:`.killer`); levels
cage_unit_overlap  (none: killer)                  medium   50      and weights are ours, set beside
cage_combination_unit (none: killer)               medium   60      the classic rows they resemble
cage_splitting     (none: killer)                  hard     100     (docs/difficulty.md)
innies_outies_multi (none: killer)                 hard     120
locked_pair        LOCKED_PAIR                     medium   40
locked_triple      LOCKED_TRIPLE                   medium   60
pointing           LOCKED_CANDIDATES_1             medium   50
claiming           LOCKED_CANDIDATES_2             medium   50
naked_pair         NAKED_PAIR                      medium   60
naked_triple       NAKED_TRIPLE                    medium   80
hidden_pair        HIDDEN_PAIR                     medium   70
hidden_triple      HIDDEN_TRIPLE                   medium   100
naked_quad         NAKED_QUADRUPLE                 hard     120
hidden_quad        HIDDEN_QUADRUPLE                hard     150
x_wing             X_WING                          hard     140
swordfish          SWORDFISH                       hard     150
jellyfish          JELLYFISH                       hard     160     HoDoKu's default is Hard (not Unfair)
remote_pair        REMOTE_PAIR                     hard     110
bug_plus_1         BUG_PLUS_1                      hard     100     only for a puzzle known to be unique
skyscraper         SKYSCRAPER                      hard     130
two_string_kite    TWO_STRING_KITE                 hard     150
turbot_fish        TURBOT_FISH                     hard     120     any other 2-strong-link X-chain
empty_rectangle    EMPTY_RECTANGLE                 hard     120
w_wing             W_WING                          hard     150
xy_wing            XY_WING                         hard     160
xyz_wing           XYZ_WING                        hard     180
uniqueness_1       UNIQUENESS_1                    hard     100     the uniqueness rows: only for a
uniqueness_2       UNIQUENESS_2                    hard     100     puzzle known to be unique (see
uniqueness_3       UNIQUENESS_3                    hard     100     :mod:`pipeline.difficulty.uniqueness`)
uniqueness_4       UNIQUENESS_4                    hard     100
uniqueness_5       UNIQUENESS_5                    hard     100
uniqueness_6       UNIQUENESS_6                    hard     100
hidden_rectangle   HIDDEN_RECTANGLE                hard     100
avoidable_rect...  AVOIDABLE_RECTANGLE_1           hard     100     ``avoidable_rectangle_1`` and ``_2``:
avoidable_rect...  AVOIDABLE_RECTANGLE_2           hard     100     placed (not given) digits, see
                                                                    :mod:`pipeline.difficulty.uniqueness`
finned_x_wing      FINNED_X_WING                   hard     130
sashimi_x_wing     SASHIMI_X_WING                  hard     150
finned_swordfish   FINNED_SWORDFISH                expert   200
sashimi_swordfish  SASHIMI_SWORDFISH               expert   240
finned_jellyfish   FINNED_JELLYFISH                expert   250
sashimi_jellyfish  SASHIMI_JELLYFISH               expert   260
sue_de_coq         SUE_DE_COQ                      expert   250     :mod:`.sue_de_coq`
simple_colors      SIMPLE_COLORS                   hard     150     trap and wrap, as HoDoKu
multi_colors       MULTI_COLORS_1 / _2             hard     200     one row, both types, HoDoKu's search
                                                                    order (type 2 first for each pair)
x_chain            X_CHAIN                         expert   260
xy_chain           XY_CHAIN                        expert   260
discontinuous_...  DISCONTINUOUS_NICE_LOOP         expert   280     ``discontinuous_nice_loop``; one search
continuous_...     CONTINUOUS_NICE_LOOP            expert   280     with the AIC (:mod:`.loops`,
aic                AIC                             expert   280     :mod:`.loop_choice`); HoDoKu's one
                                                                    NICE_LOOP step; the continuous row
                                                                    from grader 5
grouped_disc...    GROUPED_DISCONTINUOUS_NICE_LOOP expert   300     the same with group nodes (a digit in
grouped_cont...    GROUPED_CONTINUOUS_NICE_LOOP    expert   300     a box-line intersection), one search
grouped_aic        GROUPED_AIC                     expert   300     (:mod:`.grouped`); HoDoKu's
                                                                    GROUPED_NICE_LOOP step; grader 6
als_xz             ALS_XZ                          expert   300     the ALS rows (:mod:`.als`), after the
als_xy_wing        ALS_XY_WING                     expert   320     loops as in HoDoKu
als_xy_chain       ALS_XY_CHAIN                    expert   340
death_blossom      DEATH_BLOSSOM                   expert   360     off in HoDoKu's default solver, so off
                                                                    here (:data:`NOT_IN_SOLVER`)
forcing_chain      FORCING_CHAIN_CONTRADICTION     extreme  500     contradiction and verity
forcing_net        FORCING_NET_CONTRADICTION       extreme  700     singles from one candidate
trial_and_error    BRUTE_FORCE                     extreme  10000   places the solution digit in the cell
                                                                    with fewest candidates (HoDoKu picks
                                                                    a middle cell)
=================  ==============================  =======  ======  =====================================

Not implemented (HoDoKu has them): Franken/mutant and kraken fish, squirmbag and
larger fish, ALS nodes in chains (off in HoDoKu's default solver too), templates. A puzzle HoDoKu solves
with one of those is finished here with the forcing chains or nets (or trial and error), so its grade
can come out *harder* than HoDoKu's; every technique we do use has HoDoKu's level and weight, and is
tried at HoDoKu's place in the order.

Grader version 5 (``ORDERS[5]``) had no grouped rows: a puzzle HoDoKu solves with a grouped nice loop
or AIC went on to the ALS rows and the forcing chains; and its unique rectangles needed every corner to
hold both digits.
Grader version 4 (``ORDERS[4]``, version 5's order without the continuous row) took the shortest X-chain and
XY-chain and the first turbot fish found where version 5 takes HoDoKu's choice among all of them (the most
candidates removed first; :mod:`pipeline.difficulty.chains`, :mod:`pipeline.difficulty.single_digit`), and
called every pair or triple inside a box and a line locked where version 5 does so only when it removes
candidates from both, as HoDoKu does (:func:`pipeline.difficulty.basic._naked_subset`), and took the first
skyscraper found where version 5 searches in HoDoKu's order
(:func:`pipeline.difficulty.single_digit._skyscraper_5`).
Grader version 3 (the same order) also took the shortest nice loop or AIC where version 4 takes HoDoKu's
choice among all of them (:mod:`pipeline.difficulty.loop_choice`).

Grader version 2 (``ORDERS[2]``, kept for the sets begun under it) had no Multi-Colors, Uniqueness
Test 5, avoidable rectangles, Sue de Coq or ALS rows, tried Simple Colors before the Unfair finned
swordfish/jellyfish, and
the rows from ``bug_plus_1`` to ``forcing_net`` after the XY-chain (so that, when they were added, only a path
that would otherwise need trial and error reached them).

Variant boards (x, hyper, jigsaw, killer) use the same table; what each technique looks at there,
and the killer :data:`UNRATED` level, are described in :mod:`pipeline.difficulty.grade`. The killer
rows (cage sums, :mod:`pipeline.difficulty.killer`) are tried only on boards with cages, so classic
and other variant paths never see them.
"""

from __future__ import annotations

from dataclasses import dataclass

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

#: The version of the grading rules of this code (the rules of new sets): 1 for grades made before
#: the killer cage techniques and the chains after the XY-chain, 2 since, 3 since the rows follow
#: HoDoKu's default solver order (:data:`ORDERS`) with Multi-Colors, Uniqueness Test 5, the avoidable
#: rectangles, Sue de Coq and the ALS rows, 4 since the nice-loop and AIC rows make HoDoKu's choice among
#: every nice loop and AIC (:mod:`pipeline.difficulty.loop_choice`; ``ORDERS[4]`` is version 3's order),
#: 5 since the X-chain, XY-chain and turbot fish rows make HoDoKu's choice among theirs, the nice
#: loops follow HoDoKu's tables, continuous ones included (a ``continuous_nice_loop`` row), and a locked
#: pair or triple is locked by HoDoKu's rule, 6 since grouped nice loops and AICs (group nodes in a
#: box-line intersection, :mod:`pipeline.difficulty.grouped`) come after the plain ones and the unique
#: rectangles are HoDoKu's (missing candidates allowed, its Test 4 rule; :mod:`pipeline.difficulty.uniqueness`).
#: Raised whenever any puzzle's grade can change; each
#: run records the rules it graded by in its manifest (``grader_version``), a set keeps the rules it
#: began with (:func:`held_version`), and ``numplace check`` recomputes grades by the run's own rules.
GRADER_VERSION = 6
#: Highest score of each level (HoDoKu's defaults); a path scoring more moves up a level.
MAX_SCORE: dict[str, float] = {"easy": 800, "medium": 1000, "hard": 1600, "expert": 1800, "extreme": float("inf")}


@dataclass(frozen=True)
class Technique:
    """One row of the technique table.

    ``name``: our identifier (stable, stored). ``title``: display title used in explanations.
    ``level``: one of :data:`LEVELS`. ``weight``: score of one step (HoDoKu's base score, > 0).
    ``hodoku``: HoDoKu's ``SolutionType`` name (empty for the killer rows: HoDoKu has no killer).
    """

    name: str
    title: str
    level: str
    weight: float
    hodoku: str


#: name -> :class:`Technique`, in the order the solver tries them (easiest first; ``trial_and_error`` last).
TECHNIQUES: dict[str, Technique] = {
    t.name: t
    for t in (
        Technique("naked_single", "Naked Single", "easy", 4, "NAKED_SINGLE"),
        Technique("hidden_single", "Hidden Single", "easy", 14, "HIDDEN_SINGLE"),
        # killer only (pipeline.difficulty.killer; HoDoKu has no killer): skipped on boards without cages
        Technique("cage_combination", "Cage Combinations", "easy", 5, ""),
        Technique("innies_outies", "Innies and Outies (45 Rule)", "medium", 40, ""),
        Technique("cage_unit_overlap", "Cage/Unit Overlap", "medium", 50, ""),
        Technique("cage_combination_unit", "Cage Combinations in a Unit", "medium", 60, ""),
        Technique("cage_splitting", "Cage Splitting", "hard", 100, ""),
        Technique("innies_outies_multi", "45 Rule over Several Units", "hard", 120, ""),
        Technique("locked_pair", "Locked Pair", "medium", 40, "LOCKED_PAIR"),
        Technique("locked_triple", "Locked Triple", "medium", 60, "LOCKED_TRIPLE"),
        Technique("pointing", "Locked Candidates (Pointing)", "medium", 50, "LOCKED_CANDIDATES_1"),
        Technique("claiming", "Locked Candidates (Claiming)", "medium", 50, "LOCKED_CANDIDATES_2"),
        Technique("naked_pair", "Naked Pair", "medium", 60, "NAKED_PAIR"),
        Technique("naked_triple", "Naked Triple", "medium", 80, "NAKED_TRIPLE"),
        Technique("hidden_pair", "Hidden Pair", "medium", 70, "HIDDEN_PAIR"),
        Technique("hidden_triple", "Hidden Triple", "medium", 100, "HIDDEN_TRIPLE"),
        Technique("naked_quad", "Naked Quad", "hard", 120, "NAKED_QUADRUPLE"),
        Technique("hidden_quad", "Hidden Quad", "hard", 150, "HIDDEN_QUADRUPLE"),
        Technique("x_wing", "X-Wing", "hard", 140, "X_WING"),
        Technique("swordfish", "Swordfish", "hard", 150, "SWORDFISH"),
        Technique("jellyfish", "Jellyfish", "hard", 160, "JELLYFISH"),
        Technique("remote_pair", "Remote Pair", "hard", 110, "REMOTE_PAIR"),
        Technique("bug_plus_1", "BUG+1", "hard", 100, "BUG_PLUS_1"),
        Technique("skyscraper", "Skyscraper", "hard", 130, "SKYSCRAPER"),
        Technique("two_string_kite", "2-String Kite", "hard", 150, "TWO_STRING_KITE"),
        Technique("turbot_fish", "Turbot Fish", "hard", 120, "TURBOT_FISH"),
        Technique("empty_rectangle", "Empty Rectangle", "hard", 120, "EMPTY_RECTANGLE"),
        Technique("w_wing", "W-Wing", "hard", 150, "W_WING"),
        Technique("xy_wing", "XY-Wing", "hard", 160, "XY_WING"),
        Technique("xyz_wing", "XYZ-Wing", "hard", 180, "XYZ_WING"),
        Technique("uniqueness_1", "Uniqueness Test 1", "hard", 100, "UNIQUENESS_1"),
        Technique("uniqueness_2", "Uniqueness Test 2", "hard", 100, "UNIQUENESS_2"),
        Technique("uniqueness_3", "Uniqueness Test 3", "hard", 100, "UNIQUENESS_3"),
        Technique("uniqueness_4", "Uniqueness Test 4", "hard", 100, "UNIQUENESS_4"),
        Technique("uniqueness_5", "Uniqueness Test 5", "hard", 100, "UNIQUENESS_5"),
        Technique("uniqueness_6", "Uniqueness Test 6", "hard", 100, "UNIQUENESS_6"),
        Technique("hidden_rectangle", "Hidden Rectangle", "hard", 100, "HIDDEN_RECTANGLE"),
        Technique("avoidable_rectangle_1", "Avoidable Rectangle Type 1", "hard", 100, "AVOIDABLE_RECTANGLE_1"),
        Technique("avoidable_rectangle_2", "Avoidable Rectangle Type 2", "hard", 100, "AVOIDABLE_RECTANGLE_2"),
        Technique("finned_x_wing", "Finned X-Wing", "hard", 130, "FINNED_X_WING"),
        Technique("sashimi_x_wing", "Sashimi X-Wing", "hard", 150, "SASHIMI_X_WING"),
        Technique("finned_swordfish", "Finned Swordfish", "expert", 200, "FINNED_SWORDFISH"),
        Technique("sashimi_swordfish", "Sashimi Swordfish", "expert", 240, "SASHIMI_SWORDFISH"),
        Technique("finned_jellyfish", "Finned Jellyfish", "expert", 250, "FINNED_JELLYFISH"),
        Technique("sashimi_jellyfish", "Sashimi Jellyfish", "expert", 260, "SASHIMI_JELLYFISH"),
        Technique("sue_de_coq", "Sue de Coq", "expert", 250, "SUE_DE_COQ"),
        Technique("simple_colors", "Simple Colors", "hard", 150, "SIMPLE_COLORS"),
        Technique("multi_colors", "Multi-Colors", "hard", 200, "MULTI_COLORS"),
        Technique("x_chain", "X-Chain", "expert", 260, "X_CHAIN"),
        Technique("xy_chain", "XY-Chain", "expert", 260, "XY_CHAIN"),
        Technique("discontinuous_nice_loop", "Discontinuous Nice Loop", "expert", 280, "DISCONTINUOUS_NICE_LOOP"),
        Technique("continuous_nice_loop", "Continuous Nice Loop", "expert", 280, "CONTINUOUS_NICE_LOOP"),
        Technique("aic", "AIC", "expert", 280, "AIC"),
        Technique("grouped_discontinuous_nice_loop", "Grouped Discontinuous Nice Loop", "expert", 300,
                  "GROUPED_DISCONTINUOUS_NICE_LOOP"),
        Technique("grouped_continuous_nice_loop", "Grouped Continuous Nice Loop", "expert", 300,
                  "GROUPED_CONTINUOUS_NICE_LOOP"),
        Technique("grouped_aic", "Grouped AIC", "expert", 300, "GROUPED_AIC"),
        Technique("als_xz", "ALS-XZ", "expert", 300, "ALS_XZ"),
        Technique("als_xy_wing", "ALS-XY-Wing", "expert", 320, "ALS_XY_WING"),
        Technique("als_xy_chain", "ALS-XY-Chain", "expert", 340, "ALS_XY_CHAIN"),
        Technique("death_blossom", "Death Blossom", "expert", 360, "DEATH_BLOSSOM"),
        Technique("forcing_chain", "Forcing Chain", "extreme", 500, "FORCING_CHAIN_CONTRADICTION"),
        Technique("forcing_net", "Forcing Net", "extreme", 700, "FORCING_NET_CONTRADICTION"),
        Technique("trial_and_error", "Trial and Error", "extreme", 10000, "BRUTE_FORCE"),
    )
}

#: The techniques valid only for a puzzle known to have one solution (see :mod:`pipeline.difficulty.uniqueness`).
UNIQUENESS: frozenset[str] = frozenset(
    {"bug_plus_1", "hidden_rectangle", "avoidable_rectangle_1", "avoidable_rectangle_2",
     *(f"uniqueness_{k}" for k in (1, 2, 3, 4, 5, 6))})

#: Rows HoDoKu's default solver leaves out (its step is switched off in ``Options.DEFAULT_SOLVER_STEPS``):
#: each has a finder (:func:`pipeline.difficulty.logic.find_step` finds it), but a solve path never uses
#: it, so grades stay HoDoKu's.
NOT_IN_SOLVER: frozenset[str] = frozenset({"death_blossom"})

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

#: grader version -> the order in which its solver tries the techniques (trial and error last). Every
#: version this code holds; version 3's is the row order of :data:`TECHNIQUES`. An older version's
#: order leaves out the rows added after it (version 2 has no Multi-Colors).
_GROUPED = ("grouped_discontinuous_nice_loop", "grouped_continuous_nice_loop", "grouped_aic")
_ORDER_5 = tuple(t for t in TECHNIQUES if t not in _GROUPED)  # no grouped rows before version 6
_ORDER_3 = tuple(t for t in _ORDER_5 if t != "continuous_nice_loop")  # no continuous row before version 5
ORDERS: dict[int, tuple[str, ...]] = {2: _ORDER_2, 3: _ORDER_3, 4: _ORDER_3, 5: _ORDER_5, 6: tuple(TECHNIQUES)}

#: Technique names in the order the solver of :data:`GRADER_VERSION` tries them (the keys of :data:`TECHNIQUES`).
TECHNIQUE_ORDER: tuple[str, ...] = ORDERS[GRADER_VERSION]
#: name -> display title, in :data:`TECHNIQUE_ORDER`.
TITLES: dict[str, str] = {name: t.title for name, t in TECHNIQUES.items()}


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
        return ORDERS[version]
    except KeyError:
        raise ValueError(f"grader version {version} is not held (this numplace holds "
                         f"{', '.join(map(str, sorted(ORDERS)))})") from None
