"""The version, in a module of its own so that any module can import it without importing the package root."""

__version__ = "0.1.0"
