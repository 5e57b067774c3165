"""Where awrscope keeps what it compiled of its own code between runs (HTML templates, regular expressions):
a folder of the user's cache directory, never report data. ``AWRSCOPE_CACHE=0`` turns every cache off."""
from __future__ import annotations

import os
import stat
import sys


def cache_folder(name: str) -> str | None:
    """The folder ``name`` of awrscope's cache directory, made if missing; None when caching is off or the
    folder cannot be trusted. A cache holds code that is run: only directories of this user's that no one
    else can write to, below a parent others cannot rename them in (as Jinja's own cache requires)."""
    if os.environ.get("AWRSCOPE_CACHE", "1") == "0":
        return None
    home = _user_cache_dir()
    if not home:
        return None
    folder = os.path.join(home, name)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        stats = [os.stat(os.path.dirname(home)), os.stat(home), os.stat(folder)]
    except (OSError, ValueError):
        return None
    if hasattr(os, "getuid"):
        parent, *own = stats
        if any(st.st_uid != os.getuid() or st.st_mode & 0o022 for st in own):
            return None
        if parent.st_mode & 0o022 and not parent.st_mode & stat.S_ISVTX:
            return None
    return folder


def _user_cache_dir() -> str | None:
    """platformdirs' ``user_cache_dir("awrscope")``, without importing it (and pathlib and tempfile with it)
    on every run where the answer is simple."""
    if sys.platform == "win32":
        from platformdirs import user_cache_dir

        return user_cache_dir("awrscope")
    if sys.platform == "darwin":
        base = os.path.join(os.path.expanduser("~"), "Library", "Caches")
    else:
        base = os.environ.get("XDG_CACHE_HOME", "").strip()
        if not os.path.isabs(base):  # unset, empty or relative: the XDG default
            base = os.path.join(os.path.expanduser("~"), ".cache")
    return None if base.startswith("~") else os.path.join(base, "awrscope")
