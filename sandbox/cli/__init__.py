"""The ``memory-sandbox`` command: parse arguments, call the library, map exit codes."""
