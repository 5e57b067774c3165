"""Input size limits, shared by the readers and the commands' defaults (a module of its own so that the
command line can name them without importing the parsers)."""

#: Refuse inputs (after decompression) larger than this unless told otherwise
DEFAULT_MAX_BYTES = 256 * 1024 * 1024

#: The most an archive may decompress to in all (each member is also held to --max-size)
ZIP_TOTAL_MAX = 1 << 30
