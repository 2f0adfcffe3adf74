"""The uniqueness techniques, sound only for a puzzle known to have one solution: unique rectangles
(Uniqueness Tests 1-6), the hidden rectangle, the avoidable rectangles and BUG+1 (:mod:`.rectangles`).
"""
