"""Almost locked sets: ALS-XZ, ALS-XY-Wing, ALS-XY-Chain and Death Blossom (:mod:`.sets`, the
restricted-common search compiled in :mod:`.sets_jit`), and Sue de Coq, two sets locked across a
line-box intersection (:mod:`.sue_de_coq`, :mod:`.sue_de_coq_jit`).
"""
