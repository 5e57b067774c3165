"""Words of identifier positions and SQL text left in redacted copies of the corpus, as the issue-40 test helper
(tests/_site_names.py, written apart from awrscope.redact) finds them. Run from the project root:

    python tools/redact_leaks.py [CORPUS_DIR]

With PYTHONPATH pointing at another checkout's src/, it measures that checkout's redactor with this
checkout's helper and vocabulary (how the 'before' figure of issue 40 was taken)."""
from __future__ import annotations

import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def one(path: str) -> tuple[str, list[str]]:
    from awrscope.parsers import parse_source
    from awrscope.parsers.source import decode, read_sources
    from awrscope.redact import Redactor
    from _site_names import unvouched_words, words_left

    out: list[str] = []
    for src in read_sources(path, 10**9):
        try:
            red = Redactor(bytes(range(32)), check=False).redact_source(src)
        except Exception as e:  # noqa: BLE001 - one report's failure, named
            out.append(f"error {type(e).__name__}")
            continue
        text, _ = decode(src.data)
        is_html = red.format == "html"
        out += words_left(unvouched_words(parse_source(src), text, is_html), red.text, is_html)
    return os.path.basename(path), out


def main() -> None:
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "corpus" / "reports"
    files = sorted(str(p) for p in corpus.iterdir() if p.is_file())
    with ProcessPoolExecutor(2) as pool:
        results = list(pool.map(one, files))
    bad = [(n, o) for n, o in results if o]
    print(f"{len(bad)} of {len(results)} corpus reports with words left; {sum(len(o) for _, o in bad)} words")
    for n, o in bad:
        print(" ", n, o[:6])


if __name__ == "__main__":
    main()
