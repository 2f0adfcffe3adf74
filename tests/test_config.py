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
        ({"count": "5"}, "count: Input should be a valid integer"),
        ({"count": True}, "count: Input should be a valid integer"),
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


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"count": "5"}, "count: Input should be a valid integer"),
        ({"count": True}, "count: Input should be a valid integer"),
        ({"count": 5.0}, "count: Input should be a valid integer"),
        ({"seed": "3"}, "seed: Input should be a valid integer"),
        ({"seed": False}, "seed: Input should be a valid integer"),
        ({"workers": "2"}, "workers: '2' is not 'auto'"),
        ({"workers": True}, "workers: True is not 'auto'"),
        ({"board": {"size": "9"}}, "board.size: '9' is not allowed"),
        ({"removal": {"max_attempts": "3"}}, "removal.max_attempts: Input should be a valid integer"),
        ({"removal": {"hints": {"target": "30"}}}, "removal.hints.target: Input should be a valid integer"),
        ({"removal": {"hints": {"min": 25, "max": True}}}, "removal.hints.max: Input should be a valid integer"),
        ({"difficulty": {"levels": ["hard"], "max_attempts": "9"}},
         "difficulty.max_attempts: Input should be a valid integer"),
        ({"dedup": {"max_redraws": True}}, "dedup.max_redraws: Input should be a valid integer"),
        ({"output": {"shard_size": "100"}}, "output.shard_size: Input should be a valid integer"),
    ],
)
def test_int_fields_refuse_strings_bools_and_floats(tmp_path: Path, change: dict, message: str) -> None:
    """Regression: ``count: '5'`` and ``count: true`` were taken as 5 and 1."""
    data = tiny(tmp_path / "out") | change
    with pytest.raises(config.ConfigError) as err:
        config.validate(data)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_int_fields_still_take_ints_and_workers_auto(tmp_path: Path) -> None:
    data = tiny(tmp_path / "out", count=3, seed=0, workers="auto",
                removal={"symmetry": "rot180", "hints": {"min": 25, "max": 30}, "max_attempts": 4},
                dedup={"max_redraws": 2}, output={"dir": "x", "shard_size": 2},
                difficulty={"levels": ["easy"], "max_attempts": 5})
    cfg = config.validate(data)
    assert (cfg.count, cfg.seed, cfg.workers, cfg.removal.hints.bounds if cfg.removal.hints else None) == \
        (3, 0, "auto", (25, 30))
    assert config.validate(tiny(tmp_path / "out", workers=2)).workers == 2


def test_duplicate_key_is_refused_with_its_line(tmp_path: Path, write_config) -> None:
    """Regression: a repeated key was taken silently (the last one won)."""
    out = tmp_path / "out"
    text = f"name: tiny\ncount: 3\nseed: 1\ncount: 5\nworkers: 1\noutput: {{dir: {out}}}\n"
    cfg = write_config(text)
    res = numplace("run", str(cfg))
    assert res.returncode == 2, res.stderr
    assert res.stderr.strip() == f"numplace: error: {cfg}:line 4: duplicate key 'count'"
    assert not out.exists()


def test_duplicate_key_in_a_nested_or_flow_mapping(tmp_path: Path) -> None:
    nested = tmp_path / "nested.yaml"
    nested.write_text("name: a\nseed: 1\ncount: 2\nremoval:\n  symmetry: rot180\n  minimal: true\n"
                      "  symmetry: none\n", encoding="utf-8")
    with pytest.raises(config.ConfigError, match=r"nested\.yaml:line 7: duplicate key 'symmetry'$"):
        config.load(nested)
    flow = tmp_path / "flow.yaml"
    flow.write_text("name: a\nseed: 1\ncount: 2\noutput: {dir: x, shard_size: 3, dir: y}\n", encoding="utf-8")
    with pytest.raises(config.ConfigError, match=r"flow\.yaml:line 4: duplicate key 'dir'$"):
        config.load(flow)


def test_loader_keeps_safe_load_rules(tmp_path: Path) -> None:
    """Merge keys may still be overridden (not a duplicate); python tags are still refused."""
    merged = tmp_path / "merged.yaml"
    merged.write_text("output: &o {dir: x, shard_size: 3}\nname: a\nseed: 1\ncount: 2\n"
                      "dedup: {catalog: false}\n", encoding="utf-8")
    assert config.load(merged).output.shard_size == 3
    anchors = "defaults: &d {catalog: true, max_redraws: 5}\n"
    assert yaml.load(anchors + "dedup: {<<: *d, max_redraws: 7}\n",
                     Loader=config._UniqueKeyLoader)["dedup"] == {"catalog": True, "max_redraws": 7}
    evil = tmp_path / "evil.yaml"
    evil.write_text("name: !!python/object/apply:os.system ['echo owned']\nseed: 1\ncount: 2\n", encoding="utf-8")
    with pytest.raises(config.ConfigError, match=r"evil\.yaml: line 1"):
        config.load(evil)
