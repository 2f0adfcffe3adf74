"""The 0-1 integer program, stated once (:mod:`.model`, pyomo), and the one compiled HiGHS model per
worker process that makes grids, checks, certifies and repairs by changing bounds (:mod:`.engine`,
on the solver state of :mod:`.highs`, with the IP reduced by the givens of :mod:`.reduced` where that
is faster); :mod:`.result` is what a solve or a count returns, importable without the solver.

Runs inside workers. Touches no disk. Nothing outside this package sees pyomo or highspy.
"""
