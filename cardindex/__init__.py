"""cardindex: a card index that gives AI agents a memory worth reading."""

__version__ = "0.1.0"
