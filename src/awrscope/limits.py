"""Input size limits, shared by the readers and the commands' defaults (a module of its own so that the
command line can name them without importing the parsers)."""

#: Refuse inputs (after decompression) larger than this unless told otherwise
DEFAULT_MAX_BYTES = 256 * 1024 * 1024

#: The most an archive may decompress to in all (each member is also held to --max-size)
ZIP_TOTAL_MAX = 1 << 30

#: A --config file (rule thresholds) is a few hundred bytes; past this it is not one
MAX_CONFIG_BYTES = 1 << 20

#: A filter value (a database, instance or finding name, a time): SQLite refuses LIKE patterns past 50,000 bytes,
#: and no name awrscope stores comes near this
MAX_FILTER_CHARS = 1000
