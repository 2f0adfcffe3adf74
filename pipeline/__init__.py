"""numplace: a batch pipeline that makes verified Sudoku (Number Place) puzzle sets."""

__version__ = "0.1.0"
