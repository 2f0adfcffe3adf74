"""Pictures of variant puzzles (x, hyper, jigsaw, killer) in the three back ends of
:mod:`pipeline.publish.render`: SVG elements (dashed cage paths, cage sums, thick rules exactly on the
region borders), PNG pixels (thick borders darker than thin rules, grey shading, sums clear of the
givens), PDF books of variant rows; and classic grids drawn as before.

The rows are built here: a solution filled by a small backtracking search under the variant's units
(so every row is a valid grid of its variant), givens chosen by a seeded generator, cages grown from
the solution (distinct digits, the sum of their digits)."""

from __future__ import annotations

import itertools
import json
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import polars as pl
import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pytest
from PIL import Image

from pipeline.board import HYPER_WINDOWS_9, SYMBOLS, Variant, board, make_variant, variant_columns
from pipeline.publish import book, render
from pipeline.publish.export import export, png_side
from pipeline.publish.render import SVG_CELL
from pipeline.run.rows import SCHEMA
from tests.publish.test_select import fake_row, write_set

SVG = "{http://www.w3.org/2000/svg}"
#: A jigsaw layout of 9x9 (nine connected regions of nine cells), one line a row.
JIGSAW = ("111122223"
          "412123333"
          "412223333"
          "415555666"
          "414455666"
          "444555666"
          "777779999"
          "778878899"
          "788888999")
#: A few hand-made cages (cells are r*9+c); their sums are filled in from the solution.
CAGES = ((0, 1, 9), (2, 3), (40, 41, 49, 50), (70, 71, 80), (36,))
VARIANT_TYPES: dict[str, pl.DataType] = {
    "variant": pl.List(pl.String()), "regions": pl.String(),
    "cages": pl.List(pl.Struct({"cells": pl.List(pl.Int64()), "sum": pl.Int64()})),
}


# ---------------------------------------------------------------------------------------------
# Building rows
# ---------------------------------------------------------------------------------------------


@cache
def fill(variant: Variant, seed: int) -> str:
    """A random complete 9x9 grid obeying ``variant``'s units: naked and hidden singles, then a guess
    at a cell with the fewest candidates; a search that wanders too long restarts (seeded)."""
    b = board(9, variant)
    rng = random.Random(seed)
    full = 0b1111111110

    def propagate(cands: list[int], grid: list[int]) -> bool:
        changed = True
        while changed:
            changed = False
            for i in range(81):
                if not grid[i] and cands[i].bit_count() == 1:
                    d = cands[i].bit_length() - 1
                    grid[i] = d
                    for j in b.peers[i]:
                        cands[j] &= ~(1 << d)
                    changed = True
            for i in range(81):
                if not grid[i] and not cands[i]:
                    return False
            for unit in b.units:
                seen = 0
                for i in unit:
                    seen |= (1 << grid[i]) if grid[i] else cands[i]
                if seen != full:
                    return False  # a digit with no place left in this unit
                for d in range(1, 10):
                    spots = [i for i in unit if not grid[i] and cands[i] >> d & 1]
                    if len(spots) == 1 and not any(grid[i] == d for i in unit):
                        cands[spots[0]] = 1 << d
                        changed = True
        return True

    def search(cands: list[int], grid: list[int], budget: list[int]) -> list[int] | None:
        budget[0] -= 1
        if budget[0] < 0 or not propagate(cands, grid):
            return None
        free = [i for i in range(81) if not grid[i]]
        if not free:
            return grid
        i = min(free, key=lambda k: (cands[k].bit_count(), k))
        digits = [d for d in range(1, 10) if cands[i] >> d & 1]
        rng.shuffle(digits)
        for d in digits:
            c = cands[:]
            c[i] = 1 << d
            if (done := search(c, grid[:], budget)) is not None:
                return done
        return None

    while True:
        found = search([full] * 81, [0] * 81, [200])
        if found is not None:
            return "".join(SYMBOLS[d - 1] for d in found)


def grow_cages(solution: str, seed: int) -> list[tuple[tuple[int, ...], int]]:
    """Cages covering every cell: grown from the first free cell through orthogonal neighbours whose
    digits the cage does not hold yet, 1-4 cells each."""
    rng = random.Random(seed)
    free = set(range(81))
    cages = []
    while free:
        cells = [min(free)]
        free.discard(cells[0])
        want = rng.choice((2, 2, 3, 3, 3, 4))
        while len(cells) < want:
            near = sorted({j for i in cells for j in _neighbours(i) if j in free
                           and solution[j] not in {solution[k] for k in cells}})
            if not near:
                break
            cells.append(rng.choice(near))
            free.discard(cells[-1])
        cages.append((tuple(sorted(cells)), sum(int(solution[i]) for i in cells)))
    return cages


def _neighbours(i: int) -> list[int]:
    r, c = divmod(i, 9)
    return [j for j, ok in ((i - 9, r > 0), (i + 9, r < 8), (i - 1, c > 0), (i + 1, c < 8)) if ok]


def variant_row(kind: str, index: int = 0, *, hints: int = 26, cages: Any = None, seed: int = 1) -> dict[str, Any]:
    """A 9x9 set row of ``kind`` (x, hyper, jigsaw, killer, classic or a ``+`` mix) with its variant
    columns; killer cages are :data:`CAGES` unless ``cages`` (``"grown"`` covers the grid)."""
    kinds = [] if kind == "classic" else kind.split("+")
    rules = make_variant(kinds, JIGSAW if "jigsaw" in kinds else None)
    solution = fill(rules, seed + index)
    if "killer" in kinds:
        chosen = grow_cages(solution, seed) if cages == "grown" else cages if cages is not None else [
            (cells, sum(int(solution[i]) for i in cells)) for cells in CAGES]
        rules = make_variant(kinds, rules.regions, chosen)
    row = fake_row(kind.replace("+", "-"), index, "medium")
    keep = set(random.Random(seed * 100 + index).sample(range(81), hints))
    row.update({"puzzle": "".join(ch if i in keep else "." for i, ch in enumerate(solution)),
                "solution": solution, "hints": hints, **variant_columns(rules)})
    return row


def write_variant_set(root: Path, name: str, rows: list[dict[str, Any]]) -> Path:
    """A run folder holding ``rows`` (with the variant columns) as one part and a manifest."""
    run_dir = root / name / "20261122T000000Z-01234567"
    run_dir.mkdir(parents=True)
    schema = {**SCHEMA, **{k: v for k, v in VARIANT_TYPES.items() if k not in SCHEMA}}
    pl.DataFrame([{k: r.get(k) for k in schema} for r in rows], schema=schema).write_parquet(
        run_dir / "part-00000.parquet")
    manifest = {"config": {"name": name}, "status": "complete", "count": len(rows), "start": 0,
                "created_at": "2026-11-22T04:28:15+00:00", "totals": {"requested": len(rows), "puzzles": len(rows)},
                "shards": {}}
    (run_dir / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return run_dir


def _svg(art: render.GridArt) -> ET.Element:
    return ET.fromstring(render.to_svg(art, "t"))


def _pad(root: ET.Element) -> float:
    frame = root.find(f"{SVG}g/{SVG}rect")
    assert frame is not None
    return float(frame.get("x", "nan"))


def _unit_edges(x0: float, y0: float, x1: float, y1: float) -> set[tuple[str, int, int]]:
    """The cell edges a rule covers: ``("v", k, r)`` is the edge between columns k-1 and k in row r,
    ``("h", k, c)`` the edge between rows k-1 and k in column c."""
    if x0 == x1:
        return {("v", round(x0), r) for r in range(round(min(y0, y1)), round(max(y0, y1)))}
    assert y0 == y1
    return {("h", round(y0), c) for c in range(round(min(x0, x1)), round(max(x0, x1)))}


def _region_borders(labels: str) -> set[tuple[str, int, int]]:
    out = {("v", k, r) for k in range(1, 9) for r in range(9) if labels[r * 9 + k - 1] != labels[r * 9 + k]}
    return out | {("h", k, c) for k in range(1, 9) for c in range(9) if labels[(k - 1) * 9 + c] != labels[k * 9 + c]}


def _lum(img: Image.Image) -> Callable[[float, float], int]:
    """The grey level (0 black .. 255 white) of ``img`` at a point, as a function."""
    grey = img.convert("L")
    data, width = grey.tobytes(), grey.width
    return lambda x, y: data[round(y) * width + round(x)]


# ---------------------------------------------------------------------------------------------
# The rows themselves
# ---------------------------------------------------------------------------------------------


@pytest.mark.heavy
@pytest.mark.parametrize("kind", ["x", "hyper", "jigsaw", "killer", "x+killer", "hyper+jigsaw"])
def test_rows_are_valid_grids_of_their_variant(kind: str) -> None:
    row = variant_row(kind)
    v = render.variant_of_row(row)
    assert list(v.kinds) == sorted(kind.split("+"))
    b = board(9, v)
    sol = row["solution"]
    assert bool(v.cages) == ("killer" in kind)  # the cage loop below runs for the killer rows
    for unit in b.units:
        assert sorted(sol[i] for i in unit) == list("123456789")
    for cage in v.cages:
        assert sum(int(sol[i]) for i in cage.cells) == cage.total
        assert len({sol[i] for i in cage.cells}) == len(cage.cells)


def test_a_row_without_variant_columns_is_classic() -> None:
    row = fake_row("s", 0, "easy")
    for key in ("variant", "regions", "cages"):
        row.pop(key, None)
    assert render.art_of(row).variant.classic
    assert render.art_of({**row, "variant": None, "regions": None, "cages": None}).variant.classic
    assert render.art_of({**row, "variant": [], "regions": None, "cages": None}).variant.classic


def test_a_bad_variant_is_a_value_error() -> None:
    row = variant_row("jigsaw")
    with pytest.raises(ValueError, match=r"board\.regions"):
        render.art_of({**row, "regions": JIGSAW[:-1]})
    with pytest.raises(ValueError, match="hyper is defined for 9x9 only"):
        render.grid_art("." * 16, 2, 2, variant=make_variant("hyper"))


# ---------------------------------------------------------------------------------------------
# Classic stays as it was
# ---------------------------------------------------------------------------------------------


def test_classic_drawing_is_unchanged_by_empty_variant_columns(tmp_path: Path) -> None:
    row = fake_row("s", 3, "easy")
    bare = {k: v for k, v in row.items() if k not in VARIANT_TYPES}
    with_cols = {**bare, "variant": [], "regions": None, "cages": None}
    for answer in (False, True):
        a, b = render.art_of(bare, answer), render.art_of(with_cols, answer)
        assert render.to_svg(a, "t") == render.to_svg(b, "t")
        assert render.to_image(a).tobytes() == render.to_image(b).tobytes()
        assert not a.shading() and not a.cage_outlines() and not a.cage_sums()
    svg = render.to_svg(render.art_of(bare), "t")  # no variant element at all in a classic picture
    assert "stroke-dasharray" not in svg and 'class="' not in svg
    rules = list(render.art_of(bare).rules())
    assert [r for r in rules if r[0] == "box"] == [("box", 3.0, 0.0, 3.0, 9.0), ("box", 0.0, 3.0, 9.0, 3.0),
                                                   ("box", 6.0, 0.0, 6.0, 9.0), ("box", 0.0, 6.0, 9.0, 6.0)]
    assert len(rules) == 16


# ---------------------------------------------------------------------------------------------
# Jigsaw
# ---------------------------------------------------------------------------------------------


def test_jigsaw_thick_rules_are_exactly_the_region_borders() -> None:
    art = render.art_of(variant_row("jigsaw"))
    borders = _region_borders(JIGSAW)
    thick: set[tuple[str, int, int]] = set()
    thin: set[tuple[str, int, int]] = set()
    for kind, *xy in art.rules():
        target = thick if kind == "box" else thin
        edges = _unit_edges(*xy)
        assert not edges & target  # no edge drawn twice
        target |= edges
    assert thick == borders and len(borders) == 59  # JIGSAW has 26 vertical and 33 horizontal border edges
    assert not thick & thin and len(thick) + len(thin) == 2 * 8 * 9  # every inner edge once

    root = _svg(art)  # the SVG: thick lines at the borders, thin lines elsewhere
    pad = _pad(root)
    widths: dict[float, set[tuple[str, int, int]]] = {}
    for line in root.iter(f"{SVG}line"):
        x0, y0, x1, y1 = ((float(line.get(k, "nan")) - pad) / SVG_CELL for k in ("x1", "y1", "x2", "y2"))
        widths.setdefault(float(line.get("stroke-width", "nan")), set()).update(_unit_edges(x0, y0, x1, y1))
    assert len(widths) == 2
    assert widths[max(widths)] == borders and widths[min(widths)] == thin


def test_jigsaw_png_borders_are_thick() -> None:
    """Across every vertical inner edge (mid-cell, no digits): 3 dark pixels on a region border, 1 elsewhere."""
    art = render.art_of(variant_row("jigsaw", hints=0))
    img = render.to_image(art)
    at = _lum(img)
    cell = render.png_cell(9)
    pad = (img.width - 9 * cell) // 2
    borders = _region_borders(JIGSAW)
    ink: dict[bool, list[int]] = {True: [], False: []}
    for k in range(1, 9):
        for r in range(9):
            x, y = pad + k * cell, pad + (r + 0.5) * cell
            across = [at(x + dx, y) for dx in range(-4, 5)]
            ink[("v", k, r) in borders].append(sum(255 - v for v in across))
            assert sum(v < 64 for v in across) == (3 if ("v", k, r) in borders else 1), (k, r, across)
    assert len(ink[True]) == 26 and len(ink[False]) == 8 * 9 - 26
    assert min(ink[True]) > max(ink[False]) * 2  # a border is darker than any thin rule
    # classic box lines are not drawn where no region border is: (2,3)|(2,4) share region 2, but x=3 is a box line
    assert JIGSAW[2 * 9 + 2] == JIGSAW[2 * 9 + 3] == "2"
    assert at(pad + 3 * cell + 1, pad + 2.5 * cell) > 200


# ---------------------------------------------------------------------------------------------
# Killer
# ---------------------------------------------------------------------------------------------


def test_killer_svg_has_a_dashed_path_and_a_sum_per_cage() -> None:
    row = variant_row("killer", hints=10)
    art = render.art_of(row)
    cages = art.variant.cages
    assert len(cages) == len(CAGES)
    root = _svg(art)
    pad = _pad(root)
    paths = [p for p in root.iter(f"{SVG}path") if p.get("class") == "cage"]
    assert len(paths) == len(cages)
    for path, cage in zip(paths, cages, strict=True):
        group = next(g for g in root.iter(f"{SVG}g") if path in list(g))
        assert group.get("fill") == "none" and "stroke-dasharray" not in group.attrib  # the dashes are laid out
        assert group.get("stroke-linejoin") == "miter" and group.get("stroke-linecap") == "butt"
        d = path.get("d", "")
        assert d.count("M") > 8 and "Z" not in d  # one subpath per dash
        points = [tuple((float(v) - pad) / SVG_CELL for v in xy.split(","))
                  for xy in re.findall(r"[\d.]+,[\d.]+", d)]
        for px, py in points:  # every point inside one of the cage's cells
            assert int(py) * 9 + int(px) in cage.cells, (cage, px, py)
        corners = [((x - pad) / SVG_CELL, (y - pad) / SVG_CELL) for subpath in d.split("M")[1:]
                   if subpath.count("L") == 2  # an L dash through a corner
                   for x, y in [tuple(float(v) for v in re.findall(r"[\d.]+,[\d.]+", subpath)[1].split(","))]]
        assert len(corners) >= 4  # every corner of the outline is the middle of one dash
        for px, py in corners:  # inset from the cell's edges, and from the rules' ink
            assert min(px % 1, py % 1, 1 - px % 1, 1 - py % 1) >= render.CAGE_INSET - 1e-6
    sums = [t for t in root.iter(f"{SVG}text") if t.get("class") == "cage-sum"]
    assert sorted(int(t.text or "") for t in sums) == sorted(c.total for c in cages)
    for t, cage in zip(sums, cages, strict=True):  # each at the top-left of the cage's first cell
        col = int((float(t.get("x", "nan")) - pad) // SVG_CELL)
        r = int((float(t.get("y", "nan")) - pad) // SVG_CELL)
        assert r * 9 + col == min(cage.cells) and t.text == str(cage.total)
        assert (float(t.get("x", "nan")) - pad) / SVG_CELL - col < 0.15  # in the corner, not the centre
        assert (float(t.get("y", "nan")) - pad) / SVG_CELL - r < 0.35
    givens = [t for t in root.iter(f"{SVG}text") if t.get("class") is None]
    assert len(givens) == 10


def test_cage_outlines_follow_the_cage_shape() -> None:
    d = render.CAGE_INSET
    cages = [((0, 1, 10), 10), ((20, 30, 29), 12), ((60, 69), 9), ((44,), 5)]  # an L, a turned L, a pair, one cell
    art = render.grid_art("." * 81, 3, 3, variant=make_variant("killer", None, cages))
    loops = {c.cells: loops for c, loops in art.cage_outlines()}
    assert loops[(0, 1, 10)] == (((d, d), (2 - d, d), (2 - d, 2 - d), (1 + d, 2 - d), (1 + d, 1 - d), (d, 1 - d)),)
    assert loops[(20, 29, 30)] == (((2 + d, 2 + d), (3 - d, 2 + d), (3 - d, 3 + d), (4 - d, 3 + d), (4 - d, 4 - d),
                                    (2 + d, 4 - d)),)
    assert loops[(60, 69)] == (((6 + d, 6 + d), (7 - d, 6 + d), (7 - d, 8 - d), (6 + d, 8 - d)),)
    assert loops[(44,)] == (((8 + d, 4 + d), (9 - d, 4 + d), (9 - d, 5 - d), (8 + d, 5 - d)),)
    assert art.cage_sums() == ((0, 0, "10"), (2, 2, "12"), (4, 8, "5"), (6, 6, "9"))
    ring = render.grid_art("." * 81, 3, 3, variant=make_variant("killer", None, [((0, 1, 2, 9, 11, 18, 19, 20), 36)]))
    (_, (outer, inner)), = ring.cage_outlines()  # a cage round a cell: its outline and the hole's
    assert outer[0] == (d, d) and inner == ((1 - d, 1 - d), (1 - d, 2 + d), (2 + d, 2 + d), (2 + d, 1 - d))
    corner = render.grid_art("." * 81, 3, 3, variant=make_variant("killer", None, [((0, 10), 3)]))
    (_, pinched), = corner.cage_outlines()  # cells touching at a corner: two separate squares
    assert len(pinched) == 2 and all(len(loop) == 4 for loop in pinched)


def test_killer_png_sum_clear_of_the_given_and_outline_dashed() -> None:
    """In the cage's first cell, the sum's ink and the given's ink do not touch; the outline is dashed."""
    cages = [((0, 1, 9), 15), ((40, 41), 17)]
    solution = variant_row("classic")["solution"]
    v = make_variant("killer", None, cages)
    cell = render.png_cell(9)

    def ink(puzzle: str, variant: Variant) -> set[tuple[int, int]]:
        img = render.to_image(render.grid_art(puzzle, 3, 3, variant=variant))
        at, pad = _lum(img), (img.width - 9 * cell) // 2
        box = (pad + 4 * cell + 4, pad + 4 * cell + 4, pad + 5 * cell - 4, pad + 5 * cell - 4)  # inside r5c5
        return {(x, y) for x in range(box[0], box[2]) for y in range(box[1], box[3]) if at(x, y) < 128}

    given = "." * 40 + solution[40] + "." * 40
    digit = ink(given, make_variant("killer", None, []))
    both = ink(given, v)
    small = ink("." * 81, v) - ink("." * 81, make_variant("killer", None, []))
    assert digit and small and (both - digit)  # the sum (and some dashes) are there besides the digit
    top_left = {(x, y) for x, y in small if y < min(y for _, y in digit)}
    assert top_left, "the sum sits above the given"
    halo = {(x + dx, y + dy) for x, y in digit for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    assert not halo & small  # not even touching

    img = render.to_image(render.grid_art("." * 81, 3, 3, variant=v))
    at, pad = _lum(img), (img.width - 9 * cell) // 2
    y0 = pad + 5 * cell - round(render.CAGE_INSET * cell)  # the bottom edge of cage (40, 41), inset (and the
    rows = [[at(x, y) for x in range(pad + 4 * cell + 8, pad + 6 * cell - 8)]  # rule's half width): the inkiest row
            for y in range(y0 - 2, y0 + 1)]
    row = min(rows, key=sum)
    dark = [v < 128 for v in row]
    assert 0.35 < sum(dark) / len(dark) < 0.8  # dashed: part ink, part paper
    assert sum(1 for a, b in itertools.pairwise(dark) if a and not b) >= 5  # several dashes


# ---------------------------------------------------------------------------------------------
# X and hyper: shading
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["x", "hyper", "x+hyper"])
def test_shading_is_light_grey_where_the_extra_units_are(kind: str) -> None:
    art = render.art_of(variant_row(kind, hints=0))
    want: set[int] = set()
    if "x" in kind:
        want |= {k * 10 for k in range(9)} | {k * 8 + 8 for k in range(9)}
    if "hyper" in kind:
        want |= {i for w in HYPER_WINDOWS_9 for i in w}
    assert {r * 9 + c for r, c, _ in art.shading()} == want
    img = render.to_image(art)
    cell = render.png_cell(9)
    pad = (img.width - 9 * cell) // 2
    for i in range(81):
        r, c = divmod(i, 9)
        px = img.getpixel((pad + c * cell + cell // 2, pad + r * cell + cell // 2))
        assert isinstance(px, tuple) and px[0] == px[1] == px[2]  # grey, not a colour
        if i in want:
            assert 170 <= px[0] <= 230, (i, px)  # light grey: visible in print, digits still read
        else:
            assert px[0] == 255, (i, px)
    root = _svg(art)
    shades = [e for e in root.iter(f"{SVG}rect") if e.get("class") == "shade"]
    assert len(shades) == len(want)
    if kind == "x+hyper":  # a cell on a diagonal and in a window is darker than either alone
        greys = {r * 9 + c: g for r, c, g in art.shading()}
        assert greys[10] < greys[0] and greys[11] == greys[0]


def test_answers_of_variants_keep_the_variant() -> None:
    row = variant_row("killer+x", hints=20)
    answer = render.art_of(row, answer=True)
    assert answer.variant == render.art_of(row).variant and len(answer.marks) == 81
    root = _svg(answer)
    assert len([t for t in root.iter(f"{SVG}text") if t.get("class") == "cage-sum"]) == len(CAGES)
    assert len([t for t in root.iter(f"{SVG}text") if t.get("class") is None]) == 81


# ---------------------------------------------------------------------------------------------
# Exports and books
# ---------------------------------------------------------------------------------------------


@pytest.mark.heavy
def test_export_svg_and_png_of_variant_rows(tmp_path: Path) -> None:
    rows = [variant_row(k, i) for i, k in enumerate(("x", "hyper", "jigsaw", "killer"))]
    frame = pl.DataFrame(rows, schema={**SCHEMA, **VARIANT_TYPES}, strict=False)
    export(frame, "svg", tmp_path / "svg")
    export(frame, "png", tmp_path / "png")
    for row in rows:
        svg = (tmp_path / "svg" / f"{row['puzzle_id']}.svg").read_text(encoding="utf-8")
        side = png_side(9)  # an unsized SVG has the default PNG's size (CSS px)
        drawn = render.to_svg(render.art_of(row), row["puzzle_id"])
        assert svg == re.sub(r'width="[^"]*" height="[^"]*"', f'width="{side}" height="{side}"', drawn, count=1)
        with Image.open(tmp_path / "png" / f"{row['puzzle_id']}.png") as img:
            assert img.mode == "L" and img.tobytes() == render.to_image(render.art_of(row)).convert("L").tobytes()
    killer = (tmp_path / "svg" / f"{rows[3]['puzzle_id']}.svg").read_text(encoding="utf-8")
    assert killer.count('class="cage"') == len(CAGES)


def test_a_book_of_variant_puzzles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764115200")
    rows = [variant_row(k, i, hints=24, cages="grown" if k == "killer" else None)
            for i, k in enumerate(("x", "hyper", "jigsaw", "killer", "killer+x"))]
    run_dir = write_variant_set(tmp_path / "out", "variants", rows)
    classic = write_set(tmp_path / "out", "classic", ["easy", "hard"])
    cfg = book.validate_config({"per_page": 1, "title_page": False, "contents": False,
                                "answers": {"per_page": 4}})
    sections = book.plan([run_dir, classic], cfg)
    out = tmp_path / "variants.pdf"
    pages = book.write_book(sections, cfg, out)
    assert [p.kind for p in pages] == ["rules"] + ["puzzles"] * 7 + ["answers"] * 2
    pdf = pdfium.PdfDocument(out)
    geo = book.Geometry.of(cfg.page)
    sums = shades = 0
    for page in pages[1:8]:
        row, _ = page.items[0]
        art = render.art_of(row)
        slot = book.slots(geo, page.number, 1, book.CAPTION)[0]
        cell = slot.side / 9
        pdf_page = pdf[page.number - 1]
        texts = pdf_page.get_textpage()
        for r, c, text in art.cage_sums():  # each sum in the top-left corner of its cell
            left, top = slot.x + c * cell, slot.y_top - r * cell
            found = texts.get_text_bounded(left, top - cell * 0.27, left + cell * 0.45, top).strip()
            assert found == text, (row["puzzle_id"], r, c, found)
            sums += 1
        scale = 1.0
        at = _lum(pdf_page.render(scale=scale).to_pil())
        height = pdf_page.get_height()
        for r, c, grey in art.shading():  # shaded cells are grey on the page (a corner, clear of digits)
            x, y = slot.x + (c + 0.2) * cell, height - (slot.y_top - (r + 0.8) * cell)
            assert abs(at(x * scale, y * scale) - 255 * grey) < 8
            shades += 1
        if not art.variant.kinds:
            assert not art.shading() and not art.cage_sums()
    assert sums > 0 and shades > 0  # the page checks ran for the killer and the shaded rows
    again = tmp_path / "again.pdf"
    book.write_book(sections, cfg, again)
    assert again.read_bytes() == out.read_bytes()
