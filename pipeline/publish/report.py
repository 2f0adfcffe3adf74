"""A report of a set or run for an editor: one self-contained HTML page, or one summary PNG.

The page holds what an editor looks at before a set goes to print: counts (puzzles, runs, sizes,
hints, minimality); the hints histogram; the difficulty mix and the score distribution by level;
the symmetry mix; the techniques (how often each is the hardest one a puzzle needs, and how often
it is used at all); generation time per puzzle and per level; failures, redraws and rejections from
the run manifests; and, when a set folder holds several runs (nights), the runs side by side.

Contracts
---------
* **Self-contained**: plots are matplotlib PNGs inlined as ``data:image/png;base64`` URIs, the style
  is one inline ``<style>``; no script, no external file, no network. Every text from the data is
  HTML-escaped.
* **Every row counts**: the report reads rows without dropping repeats (two old runs of a set that
  both start at index 0 are both reported, run by run).
* Missing manifests (a lone part file) only leave out the manifest sections.
* The PNG is one figure with six panels: hints, difficulty mix, score by level, symmetry, hardest
  techniques, generation time by level.
* **The format is the suffix's**: ``--out`` ends in ``.html`` (or ``.htm``) or ``.png``; any other
  suffix, or a ``--format`` that disagrees with it, is refused before anything is read or written.
* **Several sets are shown apart**: when the rows come from more than one set, the page has a table
  with one column per set and a chart of each set's level mix, and runs are named ``<set>/<run>``.
* **Stock left**: per set and level, the distinct puzzles read, those whose ids are in the books
  given by ``--exclude`` (``*.used.json``), and those left for the next book.
"""

from __future__ import annotations

import base64
import datetime as dt
import html
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from pipeline import __version__
from pipeline.publish.export import write_file
from pipeline.publish.select import LEVELS, PublishError, read_sets
from pipeline.run import store
from pipeline.run.manifest import read_manifest

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

LEVEL_COLORS = {"easy": "#4daf4a", "medium": "#377eb8", "hard": "#ff7f00", "expert": "#e41a1c",
                "extreme": "#984ea3", "unrated": "#bbbbbb", "ungraded": "#999999"}
FORMATS = ("html", "png")
#: The suffix of ``--out`` that names each format.
SUFFIXES = {".html": "html", ".htm": "html", ".png": "png"}


@dataclass(frozen=True)
class Data:
    """What a report is made of: every row (with ``run_dir``), and each run's manifest (None if absent)."""

    frame: pl.DataFrame
    runs: tuple[tuple[Path, dict[str, Any] | None], ...]
    sources: tuple[Path, ...]
    used: frozenset[str] = frozenset()

    @property
    def sets(self) -> list[str]:
        """The names of the sets read, sorted."""
        return sorted(set(self.frame["set_name"].drop_nulls().to_list()))

    def run_label(self, run_dir: Path) -> str:
        """A run's name in the report: its folder, ``<set>/<run>`` when several sets are shown."""
        return f"{run_dir.parent.name}/{run_dir.name}" if len(self.sets) > 1 else run_dir.name


def load(paths: Sequence[Path], used: Iterable[str] = ()) -> Data:
    """Read the rows and manifests of ``paths`` (set folders, run folders or part files); ``used``
    are the puzzle ids already in books (the stock section leaves them out)."""
    rows = read_sets(paths, unique=False, with_run=True)
    runs: list[tuple[Path, dict[str, Any] | None]] = []
    for run_dir in rows.run_dirs:
        try:
            runs.append((run_dir, read_manifest(run_dir)))
        except store.StoreError:
            runs.append((run_dir, None))
    frame = rows.frame.with_columns(pl.col("difficulty").fill_null("ungraded"))
    return Data(frame, tuple(runs), tuple(paths), frozenset(used))


def _levels(frame: pl.DataFrame) -> list[str]:
    present = set(frame["difficulty"].unique().to_list())
    return [lv for lv in (*LEVELS, "unrated", "ungraded") if lv in present]  # unrated: killer (no cage techniques)


# ---------------------------------------------------------------------------------------------
# Plots (matplotlib's object API on an Agg canvas: no pyplot, no global state)
# ---------------------------------------------------------------------------------------------


def _figure(w: float = 6.4, h: float = 3.4) -> Figure:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(w, h), dpi=110, layout="constrained")
    return fig


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def plot_hints(ax: Axes, frame: pl.DataFrame) -> None:
    """Histogram of givens, stacked by level."""
    lo, hi = int(_num(frame["hints"].min())), int(_num(frame["hints"].max()))
    bins = [x - 0.5 for x in range(lo, hi + 2)]
    levels = _levels(frame)
    data = [frame.filter(pl.col("difficulty") == lv)["hints"].to_list() for lv in levels]
    ax.hist(data, bins=bins, stacked=True, color=[LEVEL_COLORS[lv] for lv in levels], label=levels)
    ax.set_xlabel("givens (hints)")
    ax.set_ylabel("puzzles")
    ax.set_title("Hints")
    ax.legend(fontsize=7)


def plot_levels(ax: Axes, frame: pl.DataFrame) -> None:
    """Puzzles per level, easy -> extreme."""
    levels = _levels(frame)
    counts = [frame.filter(pl.col("difficulty") == lv).height for lv in levels]
    bars = ax.bar(levels, counts, color=[LEVEL_COLORS[lv] for lv in levels])
    ax.bar_label(bars, labels=[f"{c} ({100 * c / max(1, frame.height):.0f}%)" for c in counts], fontsize=7)
    ax.set_ylabel("puzzles")
    ax.set_title("Difficulty mix")
    ax.margins(y=0.15)


def plot_scores(ax: Axes, frame: pl.DataFrame) -> None:
    """Score distribution per level (box plots, log scale)."""
    levels = [lv for lv in _levels(frame) if lv not in ("ungraded", "unrated")]  # unrated: a partial score
    _boxes_by_level(ax, frame, levels, "difficulty_score", "score", "Score by level")


def _boxes_by_level(ax: Axes, frame: pl.DataFrame, levels: list[str], column: str, ylabel: str, title: str) -> None:
    """One box plot of ``column`` per level (levels without values left out), log scale."""
    data = [frame.filter(pl.col("difficulty") == lv)[column].drop_nulls().to_list() for lv in levels]
    keep = [(lv, d) for lv, d in zip(levels, data, strict=True) if d]
    if keep:
        box = ax.boxplot([d for _, d in keep], patch_artist=True)
        ax.set_xticks(range(1, len(keep) + 1), [lv for lv, _ in keep])
        for patch, (lv, _) in zip(box["boxes"], keep, strict=True):
            patch.set_facecolor(LEVEL_COLORS[lv])
        ax.set_yscale("log")
    ax.set_ylabel(ylabel)
    ax.set_title(title)


def plot_symmetry(ax: Axes, frame: pl.DataFrame) -> None:
    """Puzzles per symmetry tag of the layout of givens."""
    counts = frame.group_by("symmetry").len().sort("len", descending=True)
    ax.bar(counts["symmetry"].cast(pl.String).fill_null("?").to_list(), counts["len"].to_list(), color="#555",
           width=0.6)
    ax.set_xlim(-0.8, max(3, counts.height) - 0.2)  # one tag does not fill the panel
    ax.set_ylabel("puzzles")
    ax.set_title("Symmetry")
    ax.tick_params(axis="x", labelrotation=30, labelsize=7)


def technique_counts(frame: pl.DataFrame) -> pl.DataFrame:
    """Per technique: ``hardest`` (puzzles whose last, hardest technique it is) and ``used``
    (puzzles that use it at all), most frequent hardest first."""
    if frame["techniques"].null_count() == frame.height:
        return pl.DataFrame(schema={"technique": pl.String, "hardest": pl.UInt32, "used": pl.UInt32})
    t = frame.filter(pl.col("techniques").is_not_null())
    hardest = t.select(pl.col("techniques").list.last().alias("technique")).group_by("technique").len("hardest")
    used = t.select(pl.col("techniques").alias("technique")).explode("technique").group_by("technique").len("used")
    both = used.join(hardest, on="technique", how="left").with_columns(pl.col("hardest").fill_null(0))
    return both.select("technique", "hardest", "used").sort(["hardest", "used", "technique"],
                                                            descending=[True, True, False])


def technique_title(name: str) -> str:
    """The title a reader sees for technique ``name``: its registry row's (a name the registry does not
    know, from a set made by other code, as it is)."""
    from pipeline.difficulty.techniques import TECHNIQUES

    return TECHNIQUES[name].title if name in TECHNIQUES else name


def plot_techniques(ax: Axes, frame: pl.DataFrame, top: int = 14) -> None:
    """The hardest technique of each puzzle (dark) and use at all (light), most frequent first."""
    counts = technique_counts(frame).head(top).reverse()
    names = [technique_title(str(n)) for n in counts["technique"].to_list()]
    ax.barh(names, counts["used"].to_list(), color="#c6dbef", label="used")
    ax.barh(names, counts["hardest"].to_list(), color="#08519c", label="hardest")
    ax.set_xlabel("puzzles")
    ax.set_title("Techniques")
    ax.tick_params(axis="y", labelsize=7)
    ax.legend(fontsize=7)


def plot_time(ax: Axes, frame: pl.DataFrame) -> None:
    """Generation time per puzzle (ms, log scale), per level."""
    _boxes_by_level(ax, frame, _levels(frame), "gen_ms", "ms per puzzle", "Generation time by level")


def plot_time_hist(ax: Axes, frame: pl.DataFrame) -> None:
    """Histogram of generation time per puzzle (log-spaced bins)."""
    import numpy as np

    ms = np.array(frame["gen_ms"].drop_nulls().to_list(), dtype=float)
    ms = ms[ms > 0]
    if ms.size:
        bins = np.logspace(np.log10(ms.min()), np.log10(ms.max()) + 1e-9, 30).tolist()
        ax.hist(ms, bins=bins, color="#555")
        ax.set_xscale("log")
    ax.set_xlabel("ms per puzzle")
    ax.set_ylabel("puzzles")
    ax.set_title("Generation time")


def plot_runs(ax: Axes, frame: pl.DataFrame) -> None:
    """Level mix of each run (night), side by side, as shares of the run."""
    several = frame["set_name"].n_unique() > 1
    _plot_mix(ax, frame, "run_dir", lambda r: f"{Path(r).parent.name}/{Path(r).name}" if several else Path(r).name,
              "% of the run", "Runs side by side: difficulty mix")


def plot_sets(ax: Axes, frame: pl.DataFrame) -> None:
    """Level mix of each set, side by side, as shares of the set."""
    _plot_mix(ax, frame, "set_name", str, "% of the set", "Sets side by side: difficulty mix")


def _plot_mix(ax: Axes, frame: pl.DataFrame, key: str, name: Any, ylabel: str, title: str) -> None:
    """Stacked bars: the level mix of each value of ``key`` (in order of first appearance)."""
    groups = list(dict.fromkeys(frame[key].to_list()))
    levels = _levels(frame)
    bottom = [0.0] * len(groups)
    names = [name(g) for g in groups]
    for lv in levels:
        share = []
        for g in groups:
            part = frame.filter(pl.col(key) == g)
            share.append(100 * part.filter(pl.col("difficulty") == lv).height / max(1, part.height))
        ax.bar(names, share, bottom=bottom, color=LEVEL_COLORS[lv], label=lv)
        bottom = [b + s for b, s in zip(bottom, share, strict=True)]
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.tick_params(axis="x", labelrotation=20, labelsize=7)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1, 1))


def plot(fn: Any, frame: pl.DataFrame, w: float = 6.4, h: float = 3.4) -> bytes:
    """One plot function drawn alone on a new figure, as PNG bytes."""
    fig = _figure(w, h)
    fn(fig.add_subplot(), frame)
    return _png(fig)


def summary_png(data: Data) -> bytes:
    """The one-image summary (``--format png``): six panels and a headline."""
    fig = _figure(13, 8.2)
    axes = fig.subplots(2, 3)
    panels = (plot_hints, plot_levels, plot_scores, plot_symmetry, plot_techniques, plot_time)
    for ax, fn in zip(axes.flat, panels, strict=True):
        fn(ax, data.frame)
    fig.suptitle(_headline(data), fontsize=12)
    return _png(fig)


# ---------------------------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------------------------


def _headline(data: Data) -> str:
    f = data.frame
    if len(data.sets) > 1:
        each = ", ".join(f"{s} ({f.filter(pl.col('set_name') == s).height})" for s in data.sets)
        return f"{len(data.sets)} sets, {each}: {f.height} puzzles in {len(data.runs)} run(s)"
    return f"{', '.join(data.sets)}: {f.height} puzzles in {len(data.runs)} run(s)"


def _img(png: bytes, alt: str) -> str:
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{base64.b64encode(png).decode("ascii")}">'


def _table(head: Sequence[str] | None, rows: Sequence[Sequence[Any]]) -> str:
    """An HTML table (every cell escaped); the first cell of a row is a header cell when ``head`` is None."""
    thead = "<thead><tr>" + "".join(f"<th>{html.escape(str(h))}</th>" for h in head) + "</tr></thead>" if head else ""
    body = "".join("<tr>" + "".join(f"<{'th' if head is None and k == 0 else 'td'}>{html.escape(_fmt(v))}"
                                    f"</{'th' if head is None and k == 0 else 'td'}>" for k, v in enumerate(r))
                   + "</tr>" for r in rows)
    return f"<table>{thead}<tbody>{body}</tbody></table>"


def _fmt(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:,.1f}"
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}"
    if isinstance(v, dict):
        return ", ".join(f"{k} {x}" for k, x in v.items()) or "-"
    return str(v)


def _num(value: Any) -> float:
    """A polars aggregate as a float (0 for a null or empty column)."""
    return float(value) if isinstance(value, int | float) else 0.0


def _counts(f: pl.DataFrame) -> list[tuple[str, Any]]:
    sizes = ", ".join(f"{s}x{s}: {k}" for s, k in f.group_by("size").len().sort("size").iter_rows())

    def pct(col: str) -> str:
        return f"{100 * _num(f[col].fill_null(False).sum()) / max(1, f.height):.1f} %"

    hints, score, ms = f["hints"], f["difficulty_score"], f["gen_ms"]
    return [
        ("puzzles", f.height),
        ("sets", ", ".join(sorted(set(f["set_name"].drop_nulls().to_list())))),
        ("sizes", sizes),
        ("givens", f"mean {_num(hints.mean()):.2f}, min {_num(hints.min()):g}, max {_num(hints.max()):g}"),
        ("minimal", pct("minimal")),
        ("orbit-minimal", pct("orbit_minimal")),
        ("difficulty score", f"median {_num(score.median()):,.0f}, max {_num(score.max()):,.0f}"),
        ("generation time", f"{_num(ms.sum()) / 1000:,.1f} s in workers; median {_num(ms.median()):,.1f} ms, "
                            f"p95 {_num(ms.quantile(0.95)):,.1f} ms a puzzle"),
        ("grids tried", f"{_num(f['attempts'].sum()):,.0f} for {f.height:,} puzzles"),
    ]


_RUN_KEYS = ("requested", "puzzles", "attempts", "extra_grids", "timeouts", "generation_failures",
             "verification_failures", "duplicate_failures", "duplicates_replaced", "gen_seconds")


def _runs_table(data: Data) -> str:
    """One column per run (night), side by side; one row per measure."""
    columns = []
    for run_dir, m in data.runs:
        part = data.frame.filter(pl.col("run_dir") == str(run_dir))
        totals = (m or {}).get("totals") or {}
        mix = {lv: part.filter(pl.col("difficulty") == lv).height for lv in _levels(part)}
        columns.append([(m or {}).get("status"), (m or {}).get("created_at"), part.height,
                        *(totals.get(k) for k in _RUN_KEYS), totals.get("difficulty_rejections") or {}, mix,
                        round(_num(part["hints"].mean()), 2), round(_num(part["gen_ms"].median()), 1)])
    labels = ["status", "started", "rows read", *(k.replace("_", " ") for k in _RUN_KEYS), "difficulty rejections",
              "levels", "mean givens", "median ms a puzzle"]
    rows = [[label, *(col[i] for col in columns)] for i, label in enumerate(labels)]
    return _table(["run", *(data.run_label(run_dir) for run_dir, _ in data.runs)], rows)


def _sets_table(data: Data) -> str:
    """One column per set, side by side: what each set holds."""
    columns = []
    for name in data.sets:
        part = data.frame.filter(pl.col("set_name") == name)
        runs = part["run_dir"].n_unique()
        mix = {lv: part.filter(pl.col("difficulty") == lv).height for lv in _levels(part)}
        sizes = ", ".join(f"{s}x{s}" for s in sorted(part["size"].unique().to_list()))
        columns.append([part.height, runs, sizes, mix, round(_num(part["hints"].mean()), 2),
                        round(_num(part["difficulty_score"].median()), 1), round(_num(part["gen_ms"].median()), 1)])
    labels = ["puzzles", "runs", "sizes", "levels", "mean givens", "median score", "median ms a puzzle"]
    return _table(["set", *data.sets], [[label, *(col[i] for col in columns)] for i, label in enumerate(labels)])


def stock_left(data: Data) -> pl.DataFrame:
    """Per set and level (easy first): ``puzzles`` (distinct ids read), ``used`` (in the books given
    by ``--exclude``) and ``left`` (what the next book can take)."""
    f = data.frame.unique("puzzle_id", keep="first", maintain_order=True)
    f = f.with_columns(pl.col("puzzle_id").is_in(list(data.used)).alias("_used"))
    out = f.group_by("set_name", "difficulty").agg(pl.len().alias("puzzles"), pl.col("_used").sum().alias("used"))
    order = {lv: k for k, lv in enumerate((*LEVELS, "unrated", "ungraded"))}
    out = out.with_columns((pl.col("puzzles") - pl.col("used")).alias("left"),
                           pl.col("difficulty").replace_strict(order, default=len(order)).alias("_rank"))
    return (out.sort("set_name", "_rank").drop("_rank").rename({"difficulty": "level"})
            .select("set_name", "level", pl.col("puzzles").cast(pl.Int64), pl.col("used").cast(pl.Int64),
                    pl.col("left").cast(pl.Int64)))


def _stock_section(data: Data) -> str:
    stock = stock_left(data)
    note = (f"<p>Distinct puzzles per level, less the {len(data.used):,} ids of the books given by --exclude.</p>"
            if data.used else "<p>Distinct puzzles per level; no book given by --exclude, so none is used.</p>")
    return note + _table(["set", "level", "puzzles", "in books", "left"], stock.rows())


def _failures(data: Data, limit: int = 30) -> str:
    out = []
    for run_dir, m in data.runs:
        for shard in ((m or {}).get("shards") or {}).values():
            for fail in shard.get("failures") or []:
                out.append([data.run_label(run_dir), fail.get("index"), fail.get("kind"), fail.get("reason")])
    if not out:
        return "<p>No failures recorded in the manifests.</p>"
    more = f"<p>… and {len(out) - limit} more.</p>" if len(out) > limit else ""
    return _table(["run", "index", "kind", "reason"], out[:limit]) + more


_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:1100px;color:#222;
padding:0 1rem}
h1{font-size:1.6rem;margin-bottom:.2rem} h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ccc}
.meta{color:#666;font-size:.85rem} table{border-collapse:collapse;font-size:.85rem;margin:.5rem 0}
td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f3f3} img{max-width:100%;height:auto} .grid{display:flex;flex-wrap:wrap;gap:1rem}
.grid img{max-width:48%}
"""


def render_html(data: Data) -> str:
    """The report page as one self-contained HTML document."""
    f = data.frame
    tech = technique_counts(f)
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(_headline(data))}</title>", f"<style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(_headline(data))}</h1>",
        f'<p class="meta">numplace {__version__} report, {dt.datetime.now(dt.UTC).isoformat(timespec="seconds")}; '
        f"read from {html.escape(', '.join(str(p) for p in data.sources))}</p>",
        "<h2>Counts</h2>", _table(None, _counts(f)),
        *(["<h2>Sets</h2>", _sets_table(data), _img(plot(plot_sets, f, 7.5, 3.6), "sets side by side")]
          if len(data.sets) > 1 else []),
        "<h2>Stock left per level</h2>", _stock_section(data),
        "<h2>Hints and difficulty</h2>", '<div class="grid">',
        _img(plot(plot_hints, f), "hints histogram"), _img(plot(plot_levels, f), "difficulty mix"),
        _img(plot(plot_scores, f), "score by level"), _img(plot(plot_symmetry, f), "symmetry mix"), "</div>",
        "<h2>Techniques</h2>", _img(plot(plot_techniques, f, 7.5, 4.2), "techniques"),
        _table(["technique", "hardest in", "used in"], [(technique_title(n), h, u) for n, h, u in tech.rows()]),
        "<h2>Generation time</h2>", '<div class="grid">',
        _img(plot(plot_time_hist, f), "generation time histogram"),
        _img(plot(plot_time, f), "generation time by level"),
        "</div>",
        "<h2>Runs</h2>", _runs_table(data),
    ]
    if len(data.runs) > 1:
        parts.append(_img(plot(plot_runs, f, 7.5, 3.6), "runs side by side"))
    parts += ["<h2>Failures</h2>", _failures(data), "</body></html>"]
    return "\n".join(parts) + "\n"


def format_of(out: Path, fmt: str | None = None) -> str:
    """The format of a report written to ``out``: its suffix's (:data:`SUFFIXES`). ``fmt`` (``--format``),
    when given, must be one of :data:`FORMATS` and agree with the suffix; else :class:`PublishError`."""
    if fmt is not None and fmt not in FORMATS:
        raise PublishError(f"--format: {fmt!r} is not one of {', '.join(FORMATS)}")
    by_suffix = SUFFIXES.get(out.suffix.lower())
    if by_suffix is None:
        raise PublishError(f"--out {out}: a report is an .html page or a .png image (the format is the suffix's)")
    if fmt is not None and fmt != by_suffix:
        raise PublishError(f"--out {out}: the suffix says {by_suffix}, but --format says {fmt}")
    return by_suffix


def make_report(paths: Sequence[Path], out: Path, fmt: str | None = None, used: Iterable[str] = ()) -> Path:
    """Write the report of ``paths`` to ``out``, in the format of its suffix (:func:`format_of`;
    ``fmt`` only checks it); ``used`` are the ids of books already made. Returns ``out``."""
    fmt = format_of(out, fmt)
    data = load(paths, used)
    if fmt == "png":
        png = summary_png(data)
        write_file(out, lambda tmp: tmp.write_bytes(png))
    else:
        page = render_html(data)
        write_file(out, lambda tmp: tmp.write_text(page, encoding="utf-8"))
    return out
