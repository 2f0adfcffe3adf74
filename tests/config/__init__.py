"""Tests of pipeline/config."""
