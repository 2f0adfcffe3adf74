"""The generate page's URL <-> config: every section key reachable, aliases, round trips, refusals."""

from __future__ import annotations

import pytest

from pipeline import config as cfgmod
from pipeline.studio import forms


def test_aliases_and_dotted_keys_build_a_valid_config() -> None:
    data = forms.config_from_params({
        "size": "9", "symmetry": "rot90", "count": "3", "seed": "11", "hints": "24-28", "levels": "hard,expert",
        "steer": "false", "method": "uniform", "board.cages.max_size": "4", "removal.max_attempts": "30",
        "difficulty.max_attempts": "99", "grid.keep_fixed": "true", "fixed": "123456789" + "." * 72,
    })
    assert data == {"name": "studio", "seed": 11, "count": 3,
                    "board": {"size": 9, "cages": {"max_size": 4}},
                    "removal": {"symmetry": "rot90", "hints": {"min": 24, "max": 28}, "max_attempts": 30},
                    "difficulty": {"levels": ["hard", "expert"], "steer": False, "max_attempts": 99},
                    "grid": {"method": "uniform", "keep_fixed": True, "fixed": "123456789" + "." * 72}}


def test_flow_values_reach_list_keys() -> None:
    data = forms.config_from_params({"grid.areas": "[{cells: 'r1c1', digits: [1], rule: only}]"})
    assert data["grid"]["areas"] == [{"cells": "r1c1", "digits": [1], "rule": "only"}]


@pytest.mark.parametrize("params", [
    {"count": "2", "seed": "11", "size": "9", "symmetry": "rot180"},
    {"hints": "24-28", "levels": "easy,medium", "fixed": "1" + "." * 80, "keep_fixed": "true"},
    {"variant": "x", "board.cages.min_size": "2", "score": "100-900", "pattern": "#.#\n...\n#.#"},
    {"hints": "30", "method": "uniform", "grid.solution_symmetry.map": "rot180"},
])
def test_params_round_trip(params: dict[str, str]) -> None:
    data = forms.config_from_params(params)
    assert forms.config_from_params(forms.params_from_config(data)) == data


def test_the_yaml_is_the_config() -> None:
    import yaml

    data = forms.config_from_params({"count": "2", "seed": "9", "hints": "26-30", "fixed": "1" + "." * 80})
    text = forms.yaml_text(data)
    assert text.startswith("# made by numplace studio")
    assert yaml.safe_load(text) == data
    cfgmod.validate(yaml.safe_load(text))


@pytest.mark.parametrize(("params", "message"), [
    ({"count": str(forms.COUNT_CAP + 1)}, f"count: {forms.COUNT_CAP + 1} is over the page's cap"),
    ({"hints": "a-b"}, "hints: 'a-b' is not N or A-B"),
    ({"score": "-"}, "score: '-' is not N or A-B"),
    ({"output.dir": "/tmp"}, "output.dir: not a key of the generate page"),
    ({"board.size": "[9"}, "board.size: '[9' is not a value"),
    ({"board.cages": "3", "board.cages.max_size": "4"}, "board.cages.max_size: cages is set as a value"),
])
def test_refusals_name_the_key(params: dict[str, str], message: str) -> None:
    with pytest.raises(forms.FormError) as err:
        forms.config_from_params(params)
    assert str(err.value).startswith(message)


def test_page_keys_and_empty_values_are_not_config() -> None:
    assert forms.config_from_params({"lang": "ja", "seed": ""}) == forms.DEFAULTS


def test_a_clue_pattern_is_a_block_scalar_that_reads_back() -> None:
    """Issue 39 item 11: the pattern comes out as the grid it is, not one quoted string."""
    import yaml

    from pipeline.studio import forms

    pattern = "\n".join(("#." * 5)[:9] for _ in range(9))
    data = {"name": "studio", "seed": 1, "count": 2, "board": {"size": 9}, "removal": {"pattern": pattern}}
    text = forms.yaml_text(data)
    assert "pattern: |-\n    #.#.#.#.#\n" in text
    assert yaml.safe_load(text) == data
