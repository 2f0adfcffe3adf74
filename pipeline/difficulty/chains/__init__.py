"""Chains and loops, and the chain engine.

* :mod:`.simple`: remote pairs, simple and multi colours, X- and XY-chains (:mod:`.simple_jit`);
* :mod:`.graph`: the implication graph every nice loop, AIC and forcing chain reads (public:
  :class:`~.graph.Graph`, :func:`~.graph.graph_of`, :func:`~.graph.chain_text`, :func:`~.graph.node_name`);
* :mod:`.loops`: grader 3's nice loops and AICs (the shortest chain), forcing chains and nets
  (:mod:`.loops_jit`);
* :mod:`.engine`: the chain engine of graders 4-6, HoDoKu's choice among every nice loop and AIC
  (:mod:`.engine_jit`); its public API (``__all__``) is what :mod:`.grouped` builds on;
* :mod:`.grouped`: grader 6's grouped nice loops and AICs.

The Python modules here import no ``_private`` name of one another (only the shared state's, of
:mod:`pipeline.difficulty.candidates`); the compiled kernels share theirs (:mod:`.engine_jit` reads
:mod:`.loops_jit`'s link tables).
"""
