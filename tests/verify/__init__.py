"""Tests of pipeline/verify."""
