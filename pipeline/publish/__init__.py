"""Publishing: what a person sees of a set. Print-ready books (PDF, :mod:`.book`), exports for tools
that do not read Parquet (CSV, JSON lines, one-line text, SVG and PNG per puzzle, :mod:`.export`)
and a report of a set or run (self-contained HTML or one PNG, :mod:`.report`); :mod:`.select` reads
and filters rows of sets, :mod:`.render` draws one grid for every output (PDF, SVG, PNG).

This room only *reads* sets (through :mod:`pipeline.run.store` and the run manifests) and never
changes them; it writes only the files a command names, each whole or not at all
(:mod:`pipeline.atomic`). It runs in the main process only (no workers). Its heavy libraries
(reportlab, matplotlib, Pillow) are imported by the module that draws, never by :mod:`.select`.
"""
