"""``memory-sandbox mcp``: the sandboxed memory served to any MCP client.

:mod:`tools` declares the six memory commands as MCP tools and turns sandbox answers
into tool results; :mod:`server` builds the MCP server around one store, policy and
scope resolver; :mod:`http` serves it over streamable HTTP behind bearer tokens.
The ``mcp`` SDK is an optional extra (``pip install 'memory-sandbox[mcp]'``) and is
imported only here, never by the rest of the package.
"""
