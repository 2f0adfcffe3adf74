"""Tests of pipeline/cli."""
