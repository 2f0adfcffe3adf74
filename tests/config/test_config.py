"""Bad configs: one line naming the field, exit code 2, no output folder, no traceback."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml

from pipeline import config
from pipeline.config import strict_yaml
from tests.conftest import ROOT, error_line, numplace, tiny


@pytest.mark.heavy
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
        ({"grid": {"solution_symmetry": {"map": "mirror-h"}}},
         "grid.solution_symmetry: mirror-h cannot hold on a 9x9 board with any digit map"),
        ({"removal": {"pattern": "#" * 16 + "." * 65}},
         "removal.pattern: 16 givens; no 9x9 puzzle with fewer than 17 givens has a unique solution"),
        ({"difficulty": {"levels": ["expert"], "steer": True}, "removal": {"hints": {"min": 24, "max": 30}}},
         "difficulty.steer: works on orbit-minimal puzzles; remove removal.hints"),
        ({"board": {"size": 9, "variant": "killer"}, "difficulty": {"quota": {"easy": 8}, "steer": True}},
         "difficulty.steer: steering moves givens, and a killer puzzle's grade lies in its cages"),
        ({"difficulty": {"levels": ["expert"], "steer": "yes"}}, "difficulty.steer: Input should be a valid boolean"),
        # unknown keys spelled like pydantic's markers (int..., str...) are named, not a traceback
        ({"strict": 1}, "strict: unknown key (known keys: name, seed, count, board"),
        ({"int": 1}, "int: unknown key (known keys: name, seed"),
        ({"board": {"size": 9, "strict": 1}}, "board.strict: unknown key (known keys: size, variant"),
    ],
)
def test_bad_config(tmp_path: Path, write_config, change: dict, message: str) -> None:
    out = tmp_path / "out"
    cfg = write_config(tiny(out) | change)
    res = numplace("run", str(cfg))
    assert res.returncode == 2, res.stderr
    assert message in error_line(res.stderr)
    assert len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"nmae": "x", "seed": 1, "count": 1}, "nmae: unknown key (did you mean name?)"),
        ({"name": "x", "sede": 1, "count": 1}, "sede: unknown key (did you mean seed?)"),
        ({"name": "x", "seed": 1, "count": 1, "grid": {"solution_symmetry": {"mpa": "transpose"}}},
         "grid.solution_symmetry.mpa: unknown key (did you mean map?)"),
        # an unknown key like no missing one: the missing key is what is wrong
        ({"seed": 1, "count": 1, "colour": "red"}, "name: required key is missing"),
    ],
)
def test_a_misspelt_required_key_is_named_with_the_right_one(data: dict, message: str) -> None:
    with pytest.raises(config.ConfigError) as err:
        config.validate(data)
    assert str(err.value) == message


@pytest.mark.heavy
def test_a_misspelt_required_key_is_refused_in_one_line(tmp_path: Path, write_config) -> None:
    out = tmp_path / "out"
    cfg = tiny(out)
    cfg["nmae"] = cfg.pop("name")
    res = numplace("run", str(write_config(cfg)))
    assert res.returncode == 2, res.stderr
    assert error_line(res.stderr) == "numplace: error: nmae: unknown key (did you mean name?)"
    assert not out.exists()


@pytest.mark.heavy
def test_yaml_syntax_error_names_the_line(tmp_path: Path, write_config) -> None:
    cfg = write_config("name: x\nseed: [1, 2\ncount: 3\n")
    res = numplace("run", str(cfg))
    assert res.returncode == 2 and ".yaml: line" in res.stderr and "Traceback" not in res.stderr


def test_shipped_configs_are_valid() -> None:
    shipped = sorted((ROOT / "configs").glob("*.yaml"))
    assert len(shipped) > 1  # the loop below checks every shipped config, not none
    for path in shipped:
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


@pytest.mark.heavy
def test_duplicate_key_is_refused_with_its_line(tmp_path: Path, write_config) -> None:
    """Regression: a repeated key was taken silently (the last one won)."""
    out = tmp_path / "out"
    text = f"name: tiny\ncount: 3\nseed: 1\ncount: 5\nworkers: 1\noutput: {{dir: {out}}}\n"
    cfg = write_config(text)
    res = numplace("run", str(cfg))
    assert res.returncode == 2, res.stderr
    assert error_line(res.stderr) == f"numplace: error: {cfg}:line 4: duplicate key 'count'"
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
    assert config.load(merged).output.shard_size == 3  # a lone anchor is harmless
    assert yaml.load("dedup: {<<: {catalog: true, max_redraws: 5}, max_redraws: 7}\n",
                     Loader=strict_yaml._UniqueKeyLoader)["dedup"] == {"catalog": True, "max_redraws": 7}
    evil = tmp_path / "evil.yaml"
    evil.write_text("name: !!python/object/apply:os.system ['echo owned']\nseed: 1\ncount: 2\n", encoding="utf-8")
    with pytest.raises(config.ConfigError, match=r"evil\.yaml: line 1"):
        config.load(evil)


def _one_line_exit_2(res: subprocess.CompletedProcess[str], out: Path) -> str:
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr and len(res.stderr.strip().splitlines()) == 1, res.stderr[:500]
    assert not out.exists()
    return error_line(res.stderr)


@pytest.mark.heavy
def test_alias_bomb_is_refused_naming_the_line(tmp_path: Path, write_config) -> None:
    """Regression (issue 12, item 9): an invalid value made of aliases was echoed whole (a 325-byte
    config gave a 4.3 MB error line). Aliases are refused before anything expands."""
    out = tmp_path / "out"
    levels = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    levels += [f"{c}: &{c} [{', '.join([f'*{p}'] * 9)}]" for p, c in zip("abcdefgh", "bcdefghi", strict=True)]
    cfg = write_config("\n".join(levels) + f"\nname: *i\nseed: 1\ncount: 2\noutput: {{dir: {out}}}\n")
    line = _one_line_exit_2(numplace("run", str(cfg)), out)
    assert line == f"numplace: error: {cfg}:line 2: alias *a: aliases are not allowed in a config (write the value out)"
    merge = write_config(f"d: &d {{dir: {out}}}\nname: a\nseed: 1\ncount: 2\noutput: {{<<: *d}}\n", "merge")
    with pytest.raises(config.ConfigError, match=r"merge\.yaml:line 5: alias \*d: aliases are not allowed"):
        config.load(merge)


@pytest.mark.heavy
def test_config_file_size_is_capped(tmp_path: Path, write_config) -> None:
    out = tmp_path / "out"
    cfg = write_config(f"name: a\nseed: 1\ncount: 2\noutput: {{dir: {out}}}\n# {'x' * config.MAX_BYTES}\n")
    line = _one_line_exit_2(numplace("run", str(cfg)), out)
    size = cfg.stat().st_size
    assert line == f"numplace: error: {cfg}: config file is too large ({size:,} bytes; at most 1,000,000)"


def test_error_messages_echo_at_most_80_characters_of_a_value(tmp_path: Path) -> None:
    for change, field in (({"workers": "w" * 5000}, "workers"), ({"engine": "e" * 5000}, "engine"),
                          ({"name": "n" * 5000}, "name")):
        with pytest.raises(config.ConfigError) as err:
            config.validate(tiny(tmp_path / "out") | change)
        msg = str(err.value)
        assert msg.startswith(f"{field}: ") and "…" in msg and len(msg) < 80 + 120, msg
        assert f"'{change[field][:79]}…" in msg
    assert config.echo("x" * 10) == "'xxxxxxxxxx'" and len(config.echo("x" * 100)) == 81


@pytest.mark.deep
@pytest.mark.heavy
def test_symlink_loop_and_deep_nesting_are_one_line(tmp_path: Path, write_config) -> None:
    """Regression (issue 12, item 10): both were tracebacks (OSError ELOOP, RecursionError)."""
    out = tmp_path / "out"
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(tmp_path / "loop2.yaml")
    (tmp_path / "loop2.yaml").symlink_to(loop)
    line = _one_line_exit_2(numplace("run", str(loop)), out)
    assert line == f"numplace: error: {loop}: cannot read config (Too many levels of symbolic links)"
    deep = write_config("name: a\nseed: 1\ncount: 2\nx: " + "[" * 3000 + "]" * 3000 + "\n", "deep")
    line = _one_line_exit_2(numplace("run", str(deep)), out)
    assert line == f"numplace: error: {deep}:line 4: nested more than {config.MAX_DEPTH} levels deep"
    mapping = write_config("name: a\nseed: 1\ncount: 2\nx: " + "{a: " * 3000 + "1" + "}" * 3000 + "\n", "map")
    with pytest.raises(config.ConfigError, match=r"map\.yaml:line 4: nested more than 32 levels deep$"):
        config.load(mapping)


@pytest.mark.deep
@pytest.mark.heavy
def test_empty_output_dir_is_refused(tmp_path: Path, write_config) -> None:
    """Regression (issue 12, item 11): ``output: {dir: ""}`` wrote into the working folder."""
    before = sorted(p.name for p in ROOT.iterdir())
    for blank in ("", "  "):
        cfg = write_config(tiny(tmp_path / "out") | {"output": {"dir": blank}})
        line = _one_line_exit_2(numplace("run", str(cfg)), tmp_path / "out")
        assert line.startswith("numplace: error: output.dir: empty; name the output root folder")
    assert sorted(p.name for p in ROOT.iterdir()) == before


@pytest.mark.deep
@pytest.mark.heavy
def test_kept_fixed_cells_above_the_hint_maximum_are_refused(tmp_path: Path, write_config) -> None:
    """Regression (issue 12, item 11): accepted, then every index failed."""
    solution = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    fixed = solution[:27] + "." * 54  # 27 cells: rows 1-3 (rot180 locks rows 7-9 too: 54)
    over = {"grid": {"fixed": fixed, "keep_fixed": True}}
    for symmetry, hints, message in (
            ("none", {"min": 20, "max": 25}, "the 27 fixed cells of grid.fixed stay givens, more than removal.hints "
                                             "allows (25)"),
            ("rot180", {"target": 40}, "the 27 fixed cells of grid.fixed (54 with their rot180 orbits) stay givens, "
                                       "more than removal.hints allows (40)")):
        cfg = write_config(tiny(tmp_path / "out") | over | {"removal": {"symmetry": symmetry, "hints": hints}})
        line = _one_line_exit_2(numplace("run", str(cfg)), tmp_path / "out")
        assert line == f"numplace: error: grid.keep_fixed: {message}"
    ok = tiny(tmp_path / "out") | over | {"removal": {"symmetry": "none", "hints": {"target": 27}}}
    assert config.validate(ok).grid.keep_fixed


# --- executor (issue 14) --------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("executor", "message"),
    [
        ({"kindd": "dask"}, "executor.kindd: unknown key (did you mean kind?)"),
        ({"kind": "spark"}, "executor.kind: 'spark' is not allowed"),
        ("dask", "executor: Input should be a valid dictionary"),
        ({"kind": "local", "scheduler": "tcp://10.0.0.5:8786"}, "executor.scheduler: only with kind: dask"),
        ({"scheduler": "tcp://10.0.0.5:8786"}, "executor.scheduler: only with kind: dask"),
        ({"kind": "local", "local_workers": 2}, "executor.local_workers: only with kind: dask"),
        ({"kind": "dask", "scheduler": "tcp://h:8786", "local_workers": 2},
         "executor.local_workers: give scheduler (a running cluster) or local_workers"),
        ({"kind": "dask", "scheduler": "10.0.0.5:8786"},
         "executor.scheduler: '10.0.0.5:8786' is not a scheduler address like tcp://host:8786"),
        ({"kind": "dask", "scheduler": "tcp://host"}, "executor.scheduler: 'tcp://host' is not a scheduler address"),
        ({"kind": "dask", "scheduler": "tcp://host:0"}, "executor.scheduler: 'tcp://host:0' is not a scheduler"),
        ({"kind": "dask", "scheduler": "tcp://host:65536"}, "is not a scheduler address"),
        ({"kind": "dask", "scheduler": "http://host:8786"}, "is not a scheduler address"),
        ({"kind": "dask", "scheduler": "tcp://a b:8786"}, "is not a scheduler address"),
        ({"kind": "dask", "scheduler": 8786}, "executor.scheduler: Input should be a valid string"),
        ({"kind": "dask", "local_workers": 0}, "executor.local_workers: Input should be greater than or equal to 1"),
        ({"kind": "dask", "local_workers": "2"}, "executor.local_workers: Input should be a valid integer"),
        ({"kind": "dask", "local_workers": True}, "executor.local_workers: Input should be a valid integer"),
    ],
)
def test_bad_executor_section_is_one_line_naming_the_field(tmp_path: Path, executor: object, message: str) -> None:
    with pytest.raises(config.ConfigError) as err:
        config.validate(tiny(tmp_path / "out", executor=executor))
    assert message in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("executor", [
    {}, {"kind": "local"}, {"kind": "dask"}, {"kind": "dask", "local_workers": 3},
    {"kind": "dask", "scheduler": "tcp://10.0.0.5:8786"}, {"kind": "dask", "scheduler": "tcp://sched.example.org:1"},
    {"kind": "dask", "scheduler": "tcp://[fe80::1]:8786"},
])
def test_executor_never_changes_the_config_hash(tmp_path: Path, executor: dict) -> None:
    """The same set can be continued on another executor: the hash (and so the rows' config_hash
    and ``--resume``'s check) leaves ``executor`` out."""
    base = config.validate(tiny(tmp_path / "out"))
    cfg = config.validate(tiny(tmp_path / "out", executor=executor))
    assert cfg.executor.kind == executor.get("kind", "local")
    assert config.config_hash(cfg) == config.config_hash(base)


@pytest.mark.parametrize(
    ("section", "kind", "scheduler", "expected"),
    [
        ({"kind": "dask", "scheduler": "tcp://a:1"}, "local", None, {"kind": "local"}),
        ({"kind": "dask", "local_workers": 3}, "dask", None, {"kind": "dask", "local_workers": 3}),
        ({"kind": "dask", "scheduler": "tcp://a:1"}, "dask", None, {"kind": "dask", "scheduler": "tcp://a:1"}),
        ({"kind": "dask", "local_workers": 3}, None, "tcp://b:2", {"kind": "dask", "scheduler": "tcp://b:2"}),
        (None, "dask", "tcp://b:2", {"kind": "dask", "scheduler": "tcp://b:2"}),
        (None, "dask", None, {"kind": "dask"}),
        ({"kind": "dask", "local_workers": 3}, None, None, {"kind": "dask", "local_workers": 3}),
    ],
)
def test_executor_flags_override_the_section(tmp_path: Path, write_config, section: dict | None, kind: str | None,
                                             scheduler: str | None, expected: dict) -> None:
    data = tiny(tmp_path / "out") | ({"executor": section} if section is not None else {})
    cfg = config.load(write_config(data), config.executor_overrides(kind, scheduler))
    got = cfg.executor.model_dump(exclude_none=True)
    assert got == {"kind": "local"} | expected


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--executor", "spark"), "--executor: 'spark' is not one of local, dask"),
        (("--executor", "local", "--scheduler", "tcp://a:1"), "--scheduler: only with --executor dask"),
        (("--scheduler", "a:8786"), "--scheduler: 'a:8786' is not a scheduler address like tcp://host:8786"),
    ],
)
def test_bad_executor_flags_are_one_line(tmp_path: Path, write_config, args: tuple[str, ...], message: str) -> None:
    from typer.testing import CliRunner

    from pipeline import cli

    out = tmp_path / "out"
    res = CliRunner().invoke(cli.app, ["run", str(write_config(tiny(out))), *args])
    assert res.exit_code == 2 and error_line(res.stderr).startswith(f"numplace: error: {message}"), res.stderr
    assert len(res.stderr.splitlines()) == 1
    assert not out.exists()


def test_a_key_added_later_at_its_default_leaves_the_hash_as_before(tmp_path: Path, monkeypatch) -> None:
    """``config.ADDED_KEYS``: a run saved before a key existed keeps its hash (it still resumes),
    and the key changes the hash only when it is used; the audit hashes a saved dict the same way."""
    cfg = config.validate(tiny(tmp_path))
    data = cfg.model_dump(mode="json")
    assert config.hash_of(data) == config.config_hash(cfg)
    before = dict(data, dedup={k: v for k, v in data["dedup"].items() if k != "catalog"})  # as if it were new
    assert config.hash_of(before) != config.config_hash(cfg)
    monkeypatch.setitem(config.ADDED_KEYS, ("dedup", "catalog"), True)
    assert config.hash_of(before) == config.config_hash(cfg) == config.hash_of(data)
    off = config.validate(tiny(tmp_path, dedup={"catalog": False}))
    assert config.config_hash(off) != config.config_hash(cfg)


def test_steer_key_leaves_old_hashes_alone(tmp_path: Path) -> None:
    """Issue 15's ``difficulty.steer`` is an ADDED_KEY: off (given or not) a config hashes as before."""
    plain = config.validate(tiny(tmp_path, difficulty={"levels": ["expert"]}))
    data = plain.model_dump(mode="json")
    assert data["difficulty"]["steer"] is False
    del data["difficulty"]["steer"]
    assert config.hash_of(data) == config.config_hash(plain)
    off = config.validate(tiny(tmp_path, difficulty={"levels": ["expert"], "steer": False}))
    on = config.validate(tiny(tmp_path, difficulty={"levels": ["expert"], "steer": True}))
    assert config.config_hash(off) == config.config_hash(plain) != config.config_hash(on)


def test_designed_grid_and_pattern_keys_leave_old_hashes_alone(tmp_path: Path) -> None:
    """Issue 16's keys (grid.solution_symmetry, grid.areas, removal.pattern) are ADDED_KEYS: at their
    defaults, given or not, a config hashes as it did before they existed; used, they change it."""
    cfg = config.validate(tiny(tmp_path))
    data = cfg.model_dump(mode="json")
    assert (data["grid"]["solution_symmetry"], data["grid"]["areas"], data["removal"]["pattern"]) == (None, [], None)
    del data["grid"]["solution_symmetry"], data["grid"]["areas"], data["removal"]["pattern"]
    assert config.hash_of(data) == config.config_hash(cfg)
    spelled = config.validate(tiny(tmp_path, grid={"solution_symmetry": None, "areas": []}))
    assert config.config_hash(spelled) == config.config_hash(cfg)
    used = tiny(tmp_path, grid={"areas": [{"cells": "r1c1-r3c3", "digits": [1], "rule": "somewhere"}]})
    assert config.config_hash(config.validate(used)) != config.config_hash(cfg)
