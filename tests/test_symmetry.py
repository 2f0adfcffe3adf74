"""The ten symmetry tags: a layout with exactly each group is tagged so, by both implementations."""

from __future__ import annotations

import pytest

from pipeline import symmetry, verify


def layout(tag: str, n: int, seeds: tuple[int, ...] = (1, 11, 23)) -> set[int]:
    """Union of the orbits (under group ``tag``) of a few cells in general position."""
    return {c for orb in symmetry.orbits(tag, n) if set(orb) & set(seeds) for c in orb}


@pytest.mark.parametrize("n", [6, 9, 16])
@pytest.mark.parametrize("tag", symmetry.TAGS)
def test_each_tag_has_exactly_its_group(tag: str, n: int) -> None:
    cells = layout(tag, n)
    assert symmetry.symmetry_tag(cells, n) == tag
    puzzle = tuple(1 if i in cells else 0 for i in range(n * n))
    assert verify.layout_tag(puzzle, n) == tag


def test_orbits_partition_the_cells() -> None:
    for n in (4, 6, 9, 16):
        for tag in symmetry.TAGS:
            cells = [c for orb in symmetry.orbits(tag, n) for c in orb]
            assert sorted(cells) == list(range(n * n))


def test_orbit_counts_9x9() -> None:
    # rot180 pairs every cell with its mirror through the centre, which is alone: 40 pairs + 1
    assert len(symmetry.orbits("rot180", 9)) == 41
    assert len(symmetry.orbits("none", 9)) == 81
    assert max(len(o) for o in symmetry.orbits("full", 9)) == 8


def test_containment() -> None:
    assert symmetry.contains("full", "rot90")
    assert symmetry.contains("orthogonal", "rot180")
    assert not symmetry.contains("mirror-h", "rot180")
    # the empty and the full layout have every symmetry
    assert symmetry.symmetry_tag([], 9) == "full"
    assert symmetry.symmetry_tag(range(81), 9) == "full"
