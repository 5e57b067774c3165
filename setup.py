"""The compiled parts of awrscope, all optional: the HTML table cutter, the text line cutter, and the cell-to-value
reading of section parsing. Where they cannot be built (no C compiler), the install goes on and the Python
functions they mirror run instead (html/tables._cut_rows, text/cut._assign, numbers.parse_number and
sections/common._read_rows). Everything else is in pyproject.toml."""
from setuptools import Extension, setup

setup(ext_modules=[
    Extension("awrscope.parsers.report.html._cut", ["src/awrscope/parsers/report/html/_cut.c"], optional=True),
    Extension("awrscope.parsers.report.text._assign", ["src/awrscope/parsers/report/text/_assign.c"], optional=True),
    Extension("awrscope.parsers._values", ["src/awrscope/parsers/_values.c"], optional=True),
])
