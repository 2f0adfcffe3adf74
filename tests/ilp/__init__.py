"""Tests of pipeline/ilp."""
