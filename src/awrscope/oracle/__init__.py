"""Oracle knowledge as data, read by the parsers, the metrics and the rules alike (and defined
nowhere else): wait events (``events``), instance statistics (``statistics``) and the titles of
report sections by version (``sections``). Nothing here reads a report or does I/O."""
