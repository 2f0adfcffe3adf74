"""Tests of pipeline/generate."""
