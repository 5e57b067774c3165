"""``awrscope mcp``: a Model Context Protocol server (stdio) over the library (docs/mcp.md).

``tools`` computes the documents (the same JSON as the CLI) without the MCP SDK; ``server`` wraps them
in the official ``mcp`` SDK; ``commands`` is the click command, which loads the SDK only when it runs,
so ``awrscope --help`` never pays for it (tests/test_startup_imports.py).
"""
