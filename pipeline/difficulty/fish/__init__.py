"""The fish: basic (X-Wing, Swordfish, Jellyfish), finned and sashimi, one search (:mod:`.search`; its
compiled twin :mod:`.search_jit`).
"""
