"""``memory-sandbox attack``: score any memory handler against escapes from ``/memories``.

:mod:`world` builds the folder tree a handler is attacked in (canaries outside its
root, planted links inside) and tells what changed; :mod:`corpus` generates the
attacks; :mod:`worker` runs the handler in a process of its own; :mod:`race` swaps
folders for symlinks while the handler works; :mod:`runner` puts it together and
:mod:`report` renders the results; :mod:`targets` are the handlers we attack in CI.
"""
