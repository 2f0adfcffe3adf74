"""Bad configs: one line naming the field, exit code 2, no output folder, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pipeline import config

from .conftest import ROOT, numplace, tiny


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"removel": {"minimal": True}}, "removel: unknown key (did you mean removal?)"),
        ({"board": {"size": 7}}, "board.size: 7 is not allowed"),
        ({"count": "many"}, "count: Input should be a valid integer"),
        ({"count": 0}, "count: Input should be greater than or equal to 1"),
        ({"removal": {"symmetry": "rot45"}}, "removal.symmetry: 'rot45' is not allowed"),
        ({"removal": {"hints": {"target": 16}}}, "fewer than 17 givens"),
        ({"removal": {"hints": {"taget": 20}}}, "removal.hints.taget: unknown key (did you mean target?)"),
        ({"removal": {"minimal": True, "hints": {"target": 30}}}, "choose one stop rule"),
        ({"grid": {"fixed": "11" + "." * 79}}, "grid.fixed: row 1 has two 1s (columns 1 and 2)"),
        ({"grid": {"fixed": "12345678." + "." * 8 + "9" + "." * 63}},
         "grid.fixed: no complete grid contains these fixed cells"),
        ({"grid": {"fixed": "1" * 80}}, "grid.fixed: puzzle has 80 cells"),
        ({"workers": 0}, "workers: 0 is not 'auto'"),
    ],
)
def test_bad_config(tmp_path: Path, write_config, change: dict, message: str) -> None:
    out = tmp_path / "out"
    cfg = write_config(tiny(out) | change)
    res = numplace("run", str(cfg))
    assert res.returncode == 2, res.stderr
    assert message in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr
    assert not out.exists()


def test_yaml_syntax_error_names_the_line(tmp_path: Path, write_config) -> None:
    cfg = write_config("name: x\nseed: [1, 2\ncount: 3\n")
    res = numplace("run", str(cfg))
    assert res.returncode == 2 and ".yaml: line" in res.stderr and "Traceback" not in res.stderr


def test_shipped_configs_are_valid() -> None:
    for path in sorted((ROOT / "configs").glob("*.yaml")):
        cfg = config.load(path)
        assert cfg.output.dir == "outputs", path
    assert config.load(ROOT / "configs" / "default.yaml").name == "default-classic"


def test_hash_ignores_workers_and_dir_only() -> None:
    base = config.validate(yaml.safe_load("{name: a, seed: 1, count: 2}"))
    other = config.validate({"name": "a", "seed": 1, "count": 2, "workers": 2, "output": {"dir": "/x"}})
    assert config.config_hash(base) == config.config_hash(other)
    assert config.config_hash(base) != config.config_hash(config.validate({"name": "a", "seed": 2, "count": 2}))
