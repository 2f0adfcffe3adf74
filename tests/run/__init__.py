"""Tests of pipeline/run."""
