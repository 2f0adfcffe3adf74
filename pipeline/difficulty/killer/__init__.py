"""The killer techniques, deductions from cage sums, tried only on boards with cages (:mod:`.cages`;
the options of a sum constraint compiled in :mod:`.cages_jit`).
"""
