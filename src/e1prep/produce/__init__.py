"""Producers: what a producer hands to the pipeline, and the deterministic rules backend.

The model producer is :mod:`e1prep.llm`, a package of its own: it alone talks to the model stack, and
its import path is public.
"""
