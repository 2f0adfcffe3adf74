"""The execute step: the one place that knows the executor (joblib with loky processes today).

:func:`execute` sends chunks of puzzle indices to :func:`pipeline.run.work.make_items` on worker
processes and yields each chunk's items as it comes back. Tasks are plain data and results are
typed items, so any executor that can map a function over arguments can stand in here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from joblib import Parallel, delayed

from pipeline.run.work import Item, Job, make_items


def execute(job: Job, chunks: Sequence[list[int]], workers: int, redraw: int = 0,
            ordered: bool = False) -> Iterator[list[Item]]:
    """The items of each chunk, one list per chunk: in completion order, or in the order of
    ``chunks`` with ``ordered``. One worker runs the chunks in this process, in order."""
    if not chunks:
        return iter(())
    par = Parallel(n_jobs=max(1, min(workers, len(chunks))), backend="loky", batch_size=1,
                   return_as="generator" if ordered else "generator_unordered")
    out: Iterator[list[Item]] = par(delayed(make_items)(job, list(c), redraw) for c in chunks)
    return out
