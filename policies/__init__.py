"""Shipped policy profiles (``*.toml``) and secret rule packs, loaded with ``sandbox.load_policy``."""
