"""The book config: a strict pydantic model of the YAML a book is made from, its loader, and the
words it prints (its ``lang`` and ``labels``).

Every key is optional (``docs/publishing.md`` "Book config" lists them); an unknown or misplaced key
or a bad value is one :class:`~pipeline.publish.select.PublishError` line naming the field. New keys
only ever add: a config that loaded before loads the same.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from pipeline.config import ConfigError, MinMaxCfg, error_line, read_yaml
from pipeline.difficulty.techniques import LEVELS
from pipeline.publish.labels import Words, words
from pipeline.publish.layout import MM, POD_BLEED_IN, least_bottom, safe_in
from pipeline.publish.select import PublishError
from pipeline.publish.workbook_config import WorkbookCfg

#: A level name (the registry's :data:`~pipeline.difficulty.techniques.LEVELS`, written there once).
Level = Literal[LEVELS]  # type: ignore[valid-type]
#: The variant kinds a section may name (``classic``: none); kinds combine with ``+`` (``killer+x``).
VARIANT_KINDS = ("x", "hyper", "jigsaw", "killer")
VariantName = Annotated[str, Field(pattern=r"^(classic|(x|hyper|jigsaw|killer)(\+(x|hyper|jigsaw|killer))*)$")]


def variant_key(kinds: Any) -> str:
    """A variant's name from its kinds: sorted and joined by ``+``; ``classic`` for none."""
    return "+".join(sorted(k for k in kinds if k and k != "classic")) or "classic"
#: The trim sizes a book can have (their millimetres: :data:`pipeline.publish.layout.PAGE_MM`).
PageSize = Literal["A4", "B5", "A5", "B6", "Letter", "5x8in", "5.5x8.5in", "6x9in", "7x10in", "8x10in",
                   "8.25x11in", "8.5x11in"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Margins(_Strict):
    """Page margins in millimetres; ``inside`` is the binding side (left on odd pages)."""

    top: float = Field(default=15.0, ge=0, le=80)
    bottom: float = Field(default=15.0, ge=0, le=80)
    inside: float = Field(default=15.0, ge=0, le=80)
    outside: float = Field(default=15.0, ge=0, le=80)


class PageCfg(_Strict):
    size: PageSize = "A4"
    margins: Margins = Margins()
    bleed: float = Field(default=0.0, ge=0, le=10)  # mm added around the trim (print-on-demand: 3.175, 3 sides)
    marks: bool | Literal["tombo"] = False  # crop marks outside the trim (and the bleed); tombo: Japanese トンボ


class RangeCfg(MinMaxCfg):
    """``score`` or ``hints`` of a section: ``min`` and/or ``max``."""

    number_format = "g"


class SectionCfg(_Strict):
    """One section: a title and a selection (every condition given must hold)."""

    title: str | None = None
    levels: list[Level] | None = None
    score: RangeCfg | None = None
    hints: RangeCfg | None = None
    size: Literal[4, 6, 9, 16] | None = None
    count: int | None = Field(default=None, ge=1, le=100_000, strict=True)
    logic_only: bool = Field(default=False, strict=True)  # only puzzles whose grade needs no trial and error
    variant: VariantName | list[VariantName] | None = None  # only this variant (or these), e.g. killer, x+hyper

    def variants(self) -> tuple[str, ...] | None:
        """The section's variants as names (``classic``, ``killer``, ``killer+x``: kinds sorted, joined by
        ``+``), or None for any."""
        if self.variant is None:
            return None
        names = [self.variant] if isinstance(self.variant, str) else self.variant
        return tuple(variant_key(n.split("+")) for n in names)


class NumberingCfg(_Strict):
    """``start``: the first puzzle's number, or ``continue``: one after the last number of the books
    given with ``--exclude`` (a series: book 2 starts where book 1 ended)."""

    start: Annotated[int, Field(ge=0, strict=True)] | Literal["continue"] = 1
    prefix: str | None = None  # before each number; None: the lang's ("No. ", "問題")


class AnswersCfg(_Strict):
    include: bool = True
    per_page: Literal[4, 6, 9, 12, 16, 20] = 12


class LabelsCfg(_Strict):
    """Words that replace the ``lang``'s own (None: the language's word)."""

    contents: str | None = None
    answers: str | None = None
    hints: str | None = None
    puzzles: str | None = None
    rules: str | None = None
    blank: str | None = None
    levels: dict[Level, str] = Field(default_factory=dict)  # e.g. {easy: 初級}; unnamed levels keep the lang's


class BookConfig(_Strict):
    """The book config (YAML). Every key is optional; see ``docs/publishing.md`` "Book config"."""

    title: str = Field(default="ナンプレ", min_length=1)
    subtitle: str | None = None
    author: str | None = None
    lang: Literal["en", "ja"] = "en"
    colour: Literal["gray", "rgb"] = "gray"
    preset: Literal["none", "print-on-demand"] = "none"
    page: PageCfg = PageCfg()
    per_page: Literal[1, 2, 4, 6] = 4
    sections: list[SectionCfg] | None = Field(default=None, min_length=1)
    numbering: NumberingCfg = NumberingCfg()
    answers: AnswersCfg = AnswersCfg()
    labels: LabelsCfg = LabelsCfg()
    stars: bool = True
    title_page: bool = True
    contents: bool = True
    rules_page: bool = True
    show_ids: bool = True
    footer: bool = True
    signatures: bool = False
    max_pages: int | None = Field(default=None, ge=4, strict=True)
    split: bool = False
    levels: list[Level] | None = Field(default=None, min_length=1)  # a book without sections: only these levels
    count: int | None = Field(default=None, ge=1, le=100_000, strict=True)  # ... and this many puzzles
    group: Literal["level", "variant", "variant-level"] = "level"  # a book without sections: its sections
    binding: Literal["left", "right"] = "left"  # right: 右綴じ, a book read right to left
    pdfx: Literal["none", "x-1a"] = "none"  # PDF/X-1a:2001 for an offset printer (OutputIntent, GTS_PDFXVersion)
    output_condition: Literal["JC200103", "FOGRA39", "CGATS TR 001", "FOGRA51"] = "JC200103"  # its printing condition
    workbook: WorkbookCfg | None = None  # a technique workbook (pipeline.publish.workbook), not a book of sections

    @model_validator(mode="after")
    def _preset_rules(self) -> BookConfig:
        if self.workbook is not None and (self.sections is not None or self.levels is not None
                                          or self.count is not None):
            key = "sections" if self.sections is not None else "levels" if self.levels is not None else "count"
            raise ValueError(f"{key}: a workbook has a chapter per technique (workbook.techniques, "
                             "workbook.per_technique); leave it out")
        if self.sections is not None and (self.levels is not None or self.count is not None):
            key = "levels" if self.levels is not None else "count"
            raise ValueError(f"{key}: narrows a book without sections; with sections, give each its levels "
                             "and count")
        if self.sections is not None and self.group != "level":
            raise ValueError("group: makes the sections of a book without sections; with sections, give each "
                             "its variant and levels")
        if self.preset == "print-on-demand" and self.page.marks:
            raise ValueError("page.marks: the print-on-demand preset sends files without printer's marks "
                             "(set marks only for an offset printer that asks for them)")
        pod_bleed = POD_BLEED_IN * 25.4
        if self.preset == "print-on-demand" and self.page.bleed and abs(self.page.bleed - pod_bleed) > 0.01:
            raise ValueError(f"page.bleed: print-on-demand interiors bleed {pod_bleed:g} mm (0.125 in) on the top, "
                             f"bottom and outside edge; give {pod_bleed:g} or 0, not {self.page.bleed:g}")
        safe = safe_in(self.preset, self.page.bleed)
        who = ("the print-on-demand services' minimum" if self.preset == "print-on-demand"
               else "the safe distance of a trimmed page")
        need = least_bottom(self.preset, self.page.bleed) / MM
        if self.page.margins.bottom < need - 1e-9:
            raise ValueError(f"page.margins.bottom: {self.page.margins.bottom:g} mm cannot hold the page number "
                             f"{safe * 25.4:.3g} mm ({safe:.3g} in) from the trim ({who}): give at least "
                             f"{math.ceil(need * 10) / 10:g} mm")
        if self.preset != "print-on-demand":  # the preset raises the other margins to its own minimum
            for side in ("top", "inside", "outside"):
                if getattr(self.page.margins, side) < safe * 25.4 - 1e-9:
                    raise ValueError(f"page.margins.{side}: {getattr(self.page.margins, side):g} mm is closer to "
                                     f"the trim than the safe distance of {safe * 25.4:g} mm: give at least that")
        if self.pdfx != "none" and self.colour != "gray":
            raise ValueError(f"pdfx: {self.pdfx} prints K only: colour must be gray")
        return self

    @property
    def words(self) -> Words:
        """The words of the book's ``lang``, with the ``labels`` given in the config in their place."""
        base = words(self.lang)
        lab = self.labels
        fixed = {k: getattr(lab, k) for k in ("contents", "answers", "puzzles", "rules", "blank")
                 if getattr(lab, k) is not None}
        levels: dict[str, str] = {**base.levels, **{str(k): v for k, v in lab.levels.items()}}
        return base.__class__(**{**base.__dict__, **fixed, "levels": levels})

    def level_name(self, level: str | None) -> str:
        return self.words.level_name(level)

    def variant_title(self, name: str) -> str:
        """A section title for a variant name (``classic``, ``killer``, ``killer+x``)."""
        return self.words.variant_name(tuple(k for k in name.split("+") if k != "classic")) or self.words.classic

    @property
    def prefix(self) -> str:
        """What goes before a puzzle's number: ``numbering.prefix`` or the language's."""
        return self.numbering.prefix if self.numbering.prefix is not None else self.words.number_prefix

    def counted(self, n: int, noun: str) -> str:
        """``n`` puzzles or hints in the book's words (a ``labels.puzzles`` / ``labels.hints`` given in
        the config follows the number as it is)."""
        own = {"puzzle": self.labels.puzzles, "hint": self.labels.hints}.get(noun)
        return f"{n} {own}" if own is not None else self.words.count(n, noun)

    def page_limit(self) -> tuple[int, int | None]:
        """``(fewest, most)`` pages a book may have: the preset's (24 to 828 for print-on-demand) or
        ``max_pages``."""
        if self.preset == "print-on-demand":
            return 24, min(828, self.max_pages or 828)
        return 0, self.max_pages


def validate_config(data: Any) -> BookConfig:
    """Validate a parsed book config; raises :class:`PublishError` with one line naming the field."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise PublishError("book config must be a mapping of keys (title, page, sections, ...)")
    try:
        return BookConfig.model_validate(data)
    except ValidationError as err:
        line = error_line(err, BookConfig, items=True, show=repr)
        raise PublishError(line.removeprefix("Value error, ").replace(": Value error, ", ": ")) from None


def load_config(path: Path | None, overrides: dict[str, Any] | None = None) -> BookConfig:
    """The book config at ``path`` (None: the defaults) with top-level ``overrides`` applied (a None
    value is ignored), validated. Errors name the file (unreadable, bad YAML) or the field."""
    data: Any = {}
    if path is not None:
        try:
            data = read_yaml(path, "book config")  # the run config's reader: no aliases, no repeated keys
        except ConfigError as exc:
            raise PublishError(str(exc)) from None
    if isinstance(data, dict):
        data = {**data, **{k: v for k, v in (overrides or {}).items() if v is not None}}
    elif data is None:
        data = {k: v for k, v in (overrides or {}).items() if v is not None}
    return validate_config(data)
