"""Tests of pipeline/identity."""
