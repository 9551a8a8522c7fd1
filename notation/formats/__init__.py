"""The formats of game records, each read into the game tree and written from it: the text
notation (``jqn/``), JSON, XML with its schema, GNU Backgammon's ``.mat`` (``mat/``) and SGF.
:mod:`notation.formats.registry` says which format a file is and reads or writes it."""

from notation.formats.registry import EXTENSIONS, READABLE, WRITABLE, format_of, read_file, render, write_file

__all__ = ["EXTENSIONS", "READABLE", "WRITABLE", "format_of", "read_file", "render", "write_file"]
