"""The ``yipan`` command line: a thin front end over the library."""
