"""The studio's pages, one module each, each with a ``render()`` that Streamlit runs: :mod:`.home`
(``/``), :mod:`.solve` (``/solve``), :mod:`.repair` (``/repair``), :mod:`.generate` (``/generate``)
and :mod:`.sets` (``/sets``). Their query parameters are contracts (docs/studio.md)."""
