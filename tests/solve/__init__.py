"""Tests of pipeline/solve."""
