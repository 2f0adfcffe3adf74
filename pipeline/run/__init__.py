"""A run of a config into a set on disk, as three steps: plan (:mod:`.plan`), execute
(:mod:`.execute`, the only place that knows the executor), finish (:mod:`.finish`), tied together
by :mod:`.runner`. Beside them: what runs inside a worker (:mod:`.work`), the output row and its
schema (:mod:`.rows`), the names of every file and folder of a set (:mod:`.layout`), the manifest
and its only writer (:mod:`.manifest`), Parquet parts and the catalog (:mod:`.store`), and
re-verifying a written set (:mod:`.audit`, a package: one module per kind of check), and how
many worker processes ``workers`` means (:mod:`.workers`).

:mod:`.work` and :mod:`.rows` run inside workers; everything else runs in the main process, which
alone writes files.
"""
