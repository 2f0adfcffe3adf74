"""The studio: ``numplace studio``, a local web app over an output root (Streamlit).

The one room that knows the web framework; nothing else in ``pipeline`` imports it, and this room
imports streamlit only in the modules a page runs (:mod:`.app`, :mod:`.widgets`, :mod:`.views`), so
``numplace`` works without the optional ``studio`` extra. Every page is a thin face over the library:
it reads its inputs from the URL and its widgets, calls the functions the CLI calls (the solver, the
grader, the runner's stream, the publisher) and draws the result. Browsing never writes into a set;
files a page makes (a book, a download) are built in memory or in a temporary folder.

Modules: :mod:`.launch` (start the server; the CLI's entry), :mod:`.words` (the labels, ``ja`` and
``en``), :mod:`.puzzle_io` (puzzle text, tables and query parameters: pure), :mod:`.forms` (the
generate page's query parameters <-> a run config: pure), :mod:`.draw` (grids as SVG with marked
cells: pure), :mod:`.widgets` (the shared Streamlit pieces), :mod:`.app` (the entry script: pages and
their URL paths) and :mod:`.views` (one module per page).
"""
