"""Integrations with model SDKs: :mod:`sandbox.integrations.anthropic`."""
