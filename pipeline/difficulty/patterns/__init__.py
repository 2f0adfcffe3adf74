"""The small fixed patterns: the single-digit patterns (skyscraper, 2-string kite, turbot fish, empty
rectangle: :mod:`.single_digit`) and the wings (W-, XY-, XYZ-wing: :mod:`.wings`). Each ``_jit`` module
beside a finder module is its compiled twin.
"""
