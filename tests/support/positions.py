"""TEST ONLY: named positions built once per test run, whatever the number of pytest-xdist
workers, and handed out as fresh copies.

A position (a table played by the real protocol up to a moment: keys, shuffles and proofs) costs
seconds of CPU; a copy costs hundredths. :func:`once_per_run` builds a position the first time any
process of the run asks for it, keeps it pickled in a file of the run's positions folder (named by
``VAMPIRE_TEST_POSITIONS``: made by ``tests/conftest.py`` in the process that starts the run and
inherited by its workers, removed at the run's end: :func:`new_run_folder`), and gives every
caller its own unpickled copy.
A file lock (the filelock library) makes a worker that asks while another builds wait for that
build and read its file. Without the folder (a helper used outside pytest) the position is built
once per process.

Ed25519 keys are pickled as their 32 raw bytes (:data:`copyreg.dispatch_table`), as
``copy.deepcopy`` would copy them: a copy signs exactly as the position's own keys do.
"""

from __future__ import annotations

import copyreg
import os
import pickle
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from filelock import FileLock

#: The environment variable naming the run's positions folder (set by ``tests/conftest.py``).
POSITIONS_ENV = "VAMPIRE_TEST_POSITIONS"

#: How a run's positions folder is named: this prefix, then the pid of the process that made it.
FOLDER_PREFIX = "vampire-test-positions-"

#: Where the folder goes when the machine has a RAM disk (every position is a file write, and
#: the tests' logs are fsynced at every entry) with room for a run: :data:`RAM_DISK_FREE` bytes free
#: (a container's is often 64 MiB, less than the big-log tests write).
_RAM_DISK = "/dev/shm"
RAM_DISK_FREE = 2 << 30

#: Each position's pickled bytes, once this process has them.
_PICKLED: dict[str, bytes] = {}

#: The names of the positions this process built (not read from another's file): for the tests
#: of this module and for counting builds.
BUILT: list[str] = []


def _private_key(key: Ed25519PrivateKey) -> tuple[Callable[[bytes], Ed25519PrivateKey], tuple[bytes]]:
    raw = key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption())
    return Ed25519PrivateKey.from_private_bytes, (raw,)


def _public_key(key: Ed25519PublicKey) -> tuple[Callable[[bytes], Ed25519PublicKey], tuple[bytes]]:
    return Ed25519PublicKey.from_public_bytes, (
        key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw),
    )


_sample = Ed25519PrivateKey.from_private_bytes(bytes(32))
copyreg.pickle(type(_sample), _private_key)
copyreg.pickle(type(_sample.public_key()), _public_key)


def once_per_run[T](name: str, build: Callable[[], T]) -> T:
    """A fresh copy of the position ``name`` (a file name: letters, digits, ``-``, ``_``, ``.``),
    made by ``build()`` once per test run; every call returns a new copy that shares nothing
    mutable with the others. ``build`` must return a picklable object (keys, generators and
    bots are) and give the same position for the same ``name``. Raises ValueError for a name that
    is no file name; an exception of ``build`` goes to the caller, and the next call builds again."""
    if not name or name.strip("-_.") == "" or not all(c.isalnum() or c in "-_." for c in name):
        raise ValueError(f"a position name is a file name, not {name!r}")
    data = _PICKLED.get(name)
    if data is None:
        data = _PICKLED[name] = _shared(name, build)
    return cast(T, pickle.loads(data))


def new_run_folder(where: Path | None = None) -> Path:
    """A fresh folder for a run's positions and files, in ``where`` (default: ``/dev/shm`` when the
    machine has it with :data:`RAM_DISK_FREE` bytes free, else the temporary directory), named after
    this process. The folders there of runs whose process is gone (killed before they could remove
    theirs) are removed first."""
    base = where or Path(_RAM_DISK if _roomy(_RAM_DISK) else tempfile.gettempdir())
    for old in base.glob(f"{FOLDER_PREFIX}*"):
        pid = old.name.removeprefix(FOLDER_PREFIX).split("-", 1)[0]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(old, ignore_errors=True)
    return Path(tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{os.getpid()}-", dir=base))


def _roomy(folder: str) -> bool:
    try:
        return shutil.disk_usage(folder).free >= RAM_DISK_FREE
    except OSError:  # no such folder
        return False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's
    return True


def run_folder() -> Path | None:
    """The run's positions folder, for the files a position refers to (a saved log, its secrets):
    kept until the run ends, whichever worker made them; None outside a pytest run."""
    folder = os.environ.get(POSITIONS_ENV)
    return Path(folder) if folder and Path(folder).is_dir() else None


def _build(name: str, build: Callable[[], Any]) -> bytes:
    data = pickle.dumps(build(), protocol=pickle.HIGHEST_PROTOCOL)
    BUILT.append(name)
    return data


def _shared(name: str, build: Callable[[], Any]) -> bytes:
    folder = run_folder()
    if folder is None:
        return _build(name, build)
    path = folder / f"{name}.pickle"
    with FileLock(f"{path}.lock"):
        if path.exists():
            return path.read_bytes()
        data = _build(name, build)
        part = path.with_name(f"{path.name}.part")
        part.write_bytes(data)
        part.replace(path)
        return data
