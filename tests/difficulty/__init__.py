"""Tests of pipeline/difficulty."""
