"""The content-hash cache of `dtypeguard check`: unchanged files are not analysed again.

Where: `--cache-dir`, else `$DTYPEGUARD_CACHE_DIR`, else `.dtypeguard_cache` in the current
folder (as ruff keeps `.ruff_cache`); the folder holds a `.gitignore` of `*` and a CACHEDIR.TAG
so it is never committed nor backed up. `--no-cache` neither reads nor writes it.

Entries are content-addressed: one per key, holding the key and the outcome. The key is a
hash of everything the outcome is a function of: the schema, the dtypeguard version, a
fingerprint of the package's own source files (an edited engine or rule invalidates all
entries even at the same version), the Python version (the parser), the file's path (as given
and absolute: messages show the first, imports resolve from the second), its effective
configuration (select/ignore/per-file ignores/severities after the command line), and its bytes.
An entry also lists the other files its outcome depends on (the project modules it imports, see
`check_pool._dependencies`) with the digest of their text; it is used only while each still has
that digest. The key holds the digest of the file's bytes.

Reading and hashing every file was most of a warm run (28 MB of scripts and notebooks in the
591-file corpus: 0.13 s of 0.28 s). So the pack also remembers, per file, its stat signature
(size, mtime, ctime, inode) with the digest of its bytes (and of each dependency's text), and a
file whose signature is unchanged is not read. This is git's index, with git's answer to its
one hole: a signature is remembered only when the file's mtime and ctime are older than the start
of the run by more than `RACY_NS`, so an edit after the file was hashed always shows in its
timestamps even on a file system with coarse ones; ctime cannot be set back (`touch -d` and
`os.utime` update it), so a same-size edit with a restored mtime is caught too.
An edited file gets a new entry beside the old one (nothing is pruned; deleting the folder is
always safe), so switching branches back and forth finds both.

The entries one command line used are also kept together in one pack file
(`v1/packs/<hash of the engine and the command line>.json`), read at once by the next run of that command
line; a key not in the pack is looked up in its entry file, and the pack is rewritten when the run used other
entries. Entries are written to a temporary file and renamed into place, so concurrent runs see either
an old entry or a new one, never half of one; an unreadable or malformed entry is a miss and is
overwritten. A cache folder that cannot be written is silently not used.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from dtypeguard import __version__
from dtypeguard.check_results import Outcome, outcome_from_json, outcome_to_json
from dtypeguard.config import Config
from dtypeguard.engine.imports import read_file

SCHEMA = 1
ENV = "DTYPEGUARD_CACHE_DIR"
DEFAULT_DIR = ".dtypeguard_cache"
_MISSING = "-"  # the digest of a dependency that cannot be read
RACY_NS = 2_000_000_000  # a file changed this close to the run's start is always read and hashed
Signature = tuple[int, int, int, int]  # size, mtime_ns, ctime_ns, inode


def _hash(*parts: str | bytes) -> str:
    h = hashlib.blake2b(digest_size=20)
    for part in parts:
        data = part.encode("utf-8", "surrogateescape") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def engine_fingerprint() -> str:
    """A hash of dtypeguard's version, the Python version, and every source file of the package:
    a result is only as valid as the code that produced it."""
    root = Path(__file__).resolve().parent
    parts: list[str | bytes] = [str(SCHEMA), __version__, sys.version]
    for file in sorted(root.rglob("*")):
        if "__pycache__" in file.parts or not file.is_file() or file.suffix in (".pyc", ".pyo"):
            continue
        parts += [file.relative_to(root).as_posix(), file.read_bytes()]
    return _hash(*parts)


def bytes_digest(data: bytes) -> str:
    """The digest of a checked file's bytes, as its key holds it."""
    return _hash(data)


def signature(path: str | os.PathLike[str]) -> Signature | None:
    """What the file system says about a file without reading it (None when it cannot say)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def text_digest(text: str | None) -> str:
    """The digest of a dependency's text as the engine reads it (`engine.imports.read_file`)."""
    return _MISSING if text is None else _hash(text)


def dependency_digests(ran: Mapping[str, str], named: Iterable[str]) -> dict[str, str]:
    """Digests of the modules the engine ran (of the text it ran) and of the other modules
    imports name (of their text now)."""
    out = {path: text_digest(text) for path, text in ran.items()}
    for path in named:
        if path not in out:
            out[path] = text_digest(read_file(path))
    return dict(sorted(out.items()))


def config_token(config: Config) -> str:
    """What of the configuration changes findings (not the problems, which are printed apart)."""
    return repr((sorted(config.select), sorted(config.ignore), config.per_file_ignores, config.severity))


class Cache:
    """One run's view of the cache folder."""

    def __init__(self, folder: Path, run: str = "", racy_ns: int = RACY_NS) -> None:
        self.folder = folder
        self._settled = time.time_ns() - racy_ns  # timestamps older than this are safe to trust
        self.entries = folder / f"v{SCHEMA}"
        self.fingerprint = engine_fingerprint()
        self.writable = True
        self._digests: dict[str, str] = {}  # a dependency's digest, read once per run
        # the pack: every entry one command line used, in one file read at once (`run` names the
        # command line; "" for none). A warm run of 856 files spent most of its time opening and
        # parsing one entry file each. The entry files stay the truth; the pack only saves reads.
        self._pack_path = self.entries / "packs" / f"{_hash(self.fingerprint, run)}.json" if run else None
        self._pack: dict[str, Any] | None = None
        self._pack_seen: dict[str, dict[str, Any]] = {}
        self._used: dict[str, Any] = {}  # key -> the outcome's JSON, for the pack written at the end
        # path -> [size, mtime_ns, ctime_ns, inode, digest] of checked files' bytes ("files") and of
        # dependencies' text ("deps"), as read from the pack and as this run saw them
        self._seen: dict[str, dict[str, list[Any]]] = {"files": {}, "deps": {}}

    @staticmethod
    def location(cache_dir: str | None) -> Path:
        return Path(cache_dir or os.environ.get(ENV) or DEFAULT_DIR)

    def key(self, path: Path, absolute: Path, digest: str, config: Config) -> str:
        """The key of a file (`absolute`: its resolved path) whose bytes have this digest
        (`bytes_digest`), with this configuration."""
        return _hash(self.fingerprint, str(path), str(absolute), config_token(config), digest)

    def known_digest(self, absolute: Path) -> str | None:
        """The digest of the file's bytes when the pack saw it with the same signature (the
        file is then not read); None when it must be read."""
        return self._remembered("files", str(absolute))

    def saw(self, absolute: Path, sig: Signature | None, digest: str) -> None:
        """The file had this signature (taken before it was read) and its bytes this digest."""
        self._remember("files", str(absolute), sig, digest)

    def _remembered(self, kind: str, path: str) -> str | None:
        stored = self._packed_seen(kind).get(path)
        if not isinstance(stored, list) or len(stored) != 5:
            return None
        sig = signature(path)
        if sig is None or list(sig) != stored[:4]:
            return None
        self._seen[kind][path] = stored
        return str(stored[4])

    def _remember(self, kind: str, path: str, sig: Signature | None, digest: str) -> None:
        if sig is not None and max(sig[1], sig[2]) < self._settled:
            self._seen[kind][path] = [*sig, digest]

    def _entry(self, key: str) -> Path:
        return self.entries / key[:2] / f"{key}.json"

    def _digest(self, path: str) -> str:
        if path not in self._digests:
            known = self._remembered("deps", path)
            if known is None:
                sig = signature(path)
                known = text_digest(read_file(path))
                self._remember("deps", path, sig, known)
            self._digests[path] = known
        return self._digests[path]

    def _packed(self) -> dict[str, Any]:
        """The pack's entries (empty when there is none or it cannot be read)."""
        if self._pack is None:
            self._read_pack()
        assert self._pack is not None
        return self._pack

    def _packed_seen(self, kind: str) -> dict[str, Any]:
        """The signatures the pack remembers (empty when there is none or it cannot be read)."""
        if self._pack is None:
            self._read_pack()
        return self._pack_seen.get(kind, {})

    def _read_pack(self) -> None:
        self._pack, self._pack_seen = {}, {}
        if self._pack_path is None:
            return
        try:
            data = json.loads(self._pack_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if isinstance(data, dict) and isinstance(data.get("entries"), dict):
            self._pack = data["entries"]
            seen = data.get("seen")
            if isinstance(seen, dict):
                self._pack_seen = {k: v for k, v in seen.items() if k in self._seen and isinstance(v, dict)}

    def get(self, path: Path, key: str, file_lines: Callable[[], tuple[str, ...]]) -> Outcome | None:
        """The stored outcome when the entry is whole, has this key, and every file it depends
        on is unchanged; None otherwise."""
        try:
            stored = self._packed().get(key)
            if stored is None:
                data: Any = json.loads(self._entry(key).read_text(encoding="utf-8"))
                if not isinstance(data, dict) or data.get("key") != key:
                    return None
                stored = data["outcome"]
            outcome = outcome_from_json(stored, path, file_lines)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        if any(self._digest(dep) != digest for dep, digest in outcome.dependencies.items()):
            return None
        self._used[key] = stored
        return outcome

    def put(self, key: str, outcome: Outcome) -> None:
        """Store an outcome atomically; give up quietly (for the rest of the run) when the
        folder cannot be written."""
        if not self.writable:
            return
        target = self._entry(key)
        self._used[key] = stored = outcome_to_json(outcome)
        try:
            if not self.folder.is_dir():
                self.folder.mkdir(parents=True, exist_ok=True)
                (self.folder / ".gitignore").write_text("# created by dtypeguard\n*\n", encoding="utf-8")
                (self.folder / "CACHEDIR.TAG").write_text("Signature: 8a477f597d28d172789f06886806bc55\n# dtypeguard cache\n", encoding="utf-8")
            _write_json(target, {"key": key, "outcome": stored})
        except OSError:
            self.writable = False

    def close(self) -> None:
        """Write the pack of this run's entries when it differs from the one read (atomically:
        a concurrent run with the same command line reads the old pack or the new one)."""
        if self._pack_path is None or not self.writable or not self._used:
            return
        if self._used.keys() == self._packed().keys() and all(self._seen[k] == self._packed_seen(k) for k in self._seen):
            return
        try:
            _write_json(self._pack_path, {"entries": self._used, "seen": self._seen})
        except OSError:
            self.writable = False


def _write_json(target: Path, data: object) -> None:
    """Write `data` to a temporary file beside `target` and rename it into place: a reader sees
    the old file or the new one, never half of one."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, separators=(",", ":"))
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


__all__ = ["Cache", "bytes_digest", "config_token", "dependency_digests", "engine_fingerprint", "signature", "text_digest"]
