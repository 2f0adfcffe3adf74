"""The run config (YAML): what a set of puzzles is, checked before anything runs.

The package, one concept a module:

* :mod:`.sections` and :mod:`.model`: the pydantic models, strict (``extra="forbid"``) and frozen:
  the sections (``board``, ``grid``, ``removal``, ``difficulty``, ``output``, ``dedup``,
  ``executor``) and the whole :class:`Config` with the checks that span sections;
* :mod:`.design`: designed grids and clue patterns, read and refused with a reason
  (:func:`image_problem`, :func:`area_problem`, :func:`pattern_problem`);
* :mod:`.strict_yaml`: :func:`read_yaml`, the one way every numplace YAML file is read (no repeated
  key, no alias, no deep nest, at most :data:`MAX_BYTES`);
* :mod:`.loading`: :func:`load` and :func:`validate`, every user mistake one :class:`ConfigError`
  line naming the field;
* :mod:`.messages`: :class:`ConfigError`, :func:`echo` and the one formatter of pydantic errors
  (the book config uses it too);
* :mod:`.hashing`: :func:`config_hash`, which identifies the set a config describes.

The names below are the package's public interface (``from pipeline.config import Config, load``).
The keys and their meaning: ``docs/config.md``.
"""

from pipeline.config.design import (
    MASK_IN,
    MASK_OUT,
    MIN_HINTS,
    area_problem,
    digit_map,
    image_problem,
    parse_cells,
    parse_mask,
    pattern_problem,
)
from pipeline.config.hashing import ADDED_KEYS, config_hash, hash_of
from pipeline.config.loading import DROP, executor_overrides, load, validate
from pipeline.config.messages import ECHO_CHARS, ConfigError, echo, error_line
from pipeline.config.model import Config
from pipeline.config.sections import (
    IMAGE_MAPS,
    AreaCfg,
    BoardCfg,
    CagesCfg,
    DedupCfg,
    DifficultyCfg,
    ExecutorCfg,
    GridCfg,
    HintsCfg,
    MinMaxCfg,
    OutputCfg,
    RemovalCfg,
    ScoreCfg,
    SolutionSymmetryCfg,
    address_problem,
)
from pipeline.config.strict_yaml import MAX_BYTES, MAX_DEPTH, read_yaml

__all__ = [
    "ADDED_KEYS", "DROP", "ECHO_CHARS", "IMAGE_MAPS", "MASK_IN", "MASK_OUT", "MAX_BYTES", "MAX_DEPTH", "MIN_HINTS",
    "AreaCfg", "BoardCfg", "CagesCfg", "Config", "ConfigError", "DedupCfg", "DifficultyCfg", "ExecutorCfg",
    "GridCfg", "HintsCfg", "MinMaxCfg", "OutputCfg", "RemovalCfg", "ScoreCfg", "SolutionSymmetryCfg", "address_problem",
    "area_problem", "config_hash", "digit_map", "echo", "error_line", "executor_overrides", "hash_of",
    "image_problem", "load", "parse_cells", "parse_mask", "pattern_problem", "read_yaml", "validate",
]
