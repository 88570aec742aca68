"""``LocalStorage``: memory as plain files on local disk, with none of the usual holes.

``LocalStorage(root)`` maps ``/memories`` onto ``root`` itself. Every operation
walks from a descriptor of the root, one name at a time, with ``O_NOFOLLOW``
(and ``O_DIRECTORY`` for folders), and acts through ``dir_fd=`` calls: no path
string ever reaches the kernel whole, so a symlink planted anywhere (before or
during a call) is refused, never followed. Files with several hard links, FIFOs,
sockets and devices are refused too, without blocking. Folders are removed the
same way, never entering a link.

Writes are atomic and durable: a hidden temp file is written in the target
folder, fsynced, renamed into place (``create`` and ``rename`` with a rename that
never replaces), and the folder fsynced. ``durability`` trades the last step
away when asked: ``"full"`` (the default) fsyncs data and folder, so an
acknowledged change survives power loss; ``"atomic"`` fsyncs the data only, so
after power loss every file is whole but the latest changes may be rolled back;
``"none"`` never fsyncs (tmpfs, caches, tests). Writers in every process that opens the
store serialise on an ``flock`` of the store's state file, which also holds the
store's usage (bytes, files), kept incrementally so a quota check costs O(1);
a writer that died mid-call leaves the state marked dirty and the next writer
recounts. Opening a store removes temp files left by a crash and recounts.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import fcntl
import os
import re
import secrets
import stat
import threading
from collections.abc import Collection, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Final, Literal

from sandbox.errors import (
    AlreadyExists,
    FileTooLarge,
    NotADirectory,
    NotAFile,
    NotFound,
    SandboxError,
    StorageError,
    UnsafeEntry,
)
from sandbox.history import Horizon, Version
from sandbox.paths import RESERVED_PREFIX, MemoryPath
from sandbox.storage._fs import (
    DIR_FLAGS,
    READ_FLAGS,
    fsync_dir,
    publish_once,
    read_all,
    read_at_most,
    remove_tree,
    rename_noreplace,
    walk,
    write_temp,
)
from sandbox.storage._keys import FolderKeys
from sandbox.storage._versions import VersionLog
from sandbox.storage.base import DIR_SIZE, Entry, Node, Tree, Usage, WriteShortcuts
from sandbox.storage.layout import (
    AUDIT_FOLDER,
    SCOPES_FOLDER,
    claim_memory_folder,
    claim_scopes_folder,
    refuse_nested,
)
from sandbox.storage.rate import FileRate

__all__ = ["Durability", "LocalStorage", "scope_folder_name", "scope_root"]

_DIR_MODE: Final = 0o700
_CONTROL_DIR: Final = RESERVED_PREFIX
_STATE_FILE: Final = "state"
_RATE_FILE: Final = "rate"
_PSEUDONYM_KEY: Final = "pseudonyms.key"
_HISTORY_FILE: Final = "history"
_STATE_SIZE: Final = 80
_READABLE_SCOPE = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
_MAX_SCOPE_BYTES: Final = 128
Durability = Literal["full", "atomic", "none"]
_DURABILITY: Final = ("full", "atomic", "none")


def scope_folder_name(scope_id: str) -> str:
    """The folder name of a scope: the id itself when it is plainly safe, else an encoding of it.

    Readable ids (lower-case letters, digits, ``_`` and ``-``) are used as they are;
    any other id is base32-encoded behind ``=``, which no readable id starts with,
    so two scopes never share a folder, also on case-insensitive file systems.
    """
    if not isinstance(scope_id, str) or not scope_id:
        raise ValueError("a scope id is a non-empty string")
    if _READABLE_SCOPE.fullmatch(scope_id):
        return scope_id
    raw = scope_id.encode("utf-8", "strict")
    if len(raw) > _MAX_SCOPE_BYTES:
        raise ValueError(f"a scope id is at most {_MAX_SCOPE_BYTES} bytes")
    return "=" + base64.b32encode(raw).decode("ascii").rstrip("=").lower()


def scope_root(base: str | os.PathLike[str], scope_id: str) -> str:
    """The folder that is ``/memories`` of scope ``scope_id`` in the folder of scopes ``base``."""
    return os.path.join(os.fspath(base), SCOPES_FOLDER, scope_folder_name(scope_id))


class LocalStorage(WriteShortcuts):
    """Memory stored as files under ``root`` (created 0o700 if missing)."""

    def __init__(
        self, root: str | os.PathLike[str], *, durability: Durability = "full", scope: str | None = None
    ) -> None:
        if durability not in _DURABILITY:
            raise ValueError(f"durability is one of {', '.join(_DURABILITY)}")
        path = os.fspath(root)
        refuse_nested(path)
        if not os.path.isdir(path):
            os.makedirs(path, mode=_DIR_MODE, exist_ok=True)
            os.chmod(path, _DIR_MODE)
        claim_memory_folder(path, scope)  # never a folder holding other scopes, their logs or keys
        self._path = os.path.normpath(os.path.abspath(path))
        self._audit_path = f"{self._path}.audit.jsonl"
        self._label = os.path.basename(self._path)
        self._sync_data = durability != "none"
        self._sync_folders = durability == "full"
        self._thread_lock = threading.Lock()
        self._keys = FolderKeys()  # names by look-alike key, per folder, kept between sessions
        self._rate = FileRate(lambda: self._open_control(_RATE_FILE))
        self._versions = VersionLog(
            lambda: self._open_control(_HISTORY_FILE),
            self._stat_history,
            self._replace_history,
            sync=self._sync_data,
        )
        self._root_fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            self._state_fd = self._open_state()
            self._pid = os.getpid()
            with self._locked(recount=True):
                pass
        except BaseException:
            self.close()  # each descriptor once: close() forgets what it closes
            raise

    @classmethod
    def for_scope(cls, base: str | os.PathLike[str], scope_id: str, *, durability: Durability = "full") -> LocalStorage:
        """The store of one user, team or agent: ``base/scopes/<name>/``, its log in ``base/audit/``.

        ``base`` holds scopes only (see :mod:`sandbox.storage.layout`): a folder that is the memory
        of a store, or of the older layout, is refused.
        """
        folder = os.fspath(base)
        name = scope_folder_name(scope_id)
        refuse_nested(folder, "scopes")
        os.makedirs(folder, mode=_DIR_MODE, exist_ok=True)
        claim_scopes_folder(folder)
        store = cls(scope_root(folder, scope_id), durability=durability, scope=scope_id)
        store._audit_path = os.path.join(os.path.abspath(folder), AUDIT_FOLDER, f"{name}.audit.jsonl")
        return store

    def __repr__(self) -> str:
        return f"LocalStorage({self._label!r})"

    @property
    def root_path(self) -> str:
        """The folder that is ``/memories``."""
        return self._path

    @property
    def audit_path(self) -> str:
        """Where the store's decision log goes by default (``beside-store``): beside the folder, or in
        the ``audit/`` folder of a multi-scope store; never inside any folder a model sees."""
        return self._audit_path

    def pseudonym_key(self) -> bytes:
        """The scope's secret for pseudonymised records, in ``.memory-sandbox/``: erased with the folder."""
        path = os.path.join(self._path, _CONTROL_DIR, _PSEUDONYM_KEY)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except FileNotFoundError:
            publish_once(path, secrets.token_bytes(32))  # the first process to make it wins
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            key = read_all(fd, 64)
        finally:
            os.close(fd)
        if len(key) != 32:
            raise StorageError("Error: The memory store's pseudonym key is damaged.", detail="pseudonym key size")
        return key

    def rate_counter(self) -> FileRate:
        """The scope's call allowance, in ``.memory-sandbox/rate``: shared by every process of the store."""
        return self._rate

    def close(self) -> None:
        """Release the store's descriptors; idempotent."""
        rate = self.__dict__.get("_rate")  # absent when the constructor failed early
        if rate is not None:
            rate.close()
        versions = self.__dict__.get("_versions")
        if versions is not None:
            versions.close()
        for attribute in ("_state_fd", "_root_fd"):
            fd = self.__dict__.pop(attribute, None)
            if fd is not None:
                os.close(fd)

    def __enter__(self) -> LocalStorage:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # the adapter contract

    def stat(self, path: MemoryPath) -> Entry | None:
        if path.is_root:
            return Entry(path.name, is_dir=True, size=DIR_SIZE)
        try:
            with _Mapped(str(path)), self._folder(path.parent) as folder:
                st = os.stat(path.name, dir_fd=folder, follow_symlinks=False)
        except NotFound:
            return None
        if stat.S_ISDIR(st.st_mode):
            return Entry(path.name, is_dir=True, size=DIR_SIZE)
        _check_file(st, str(path))
        return Entry(path.name, is_dir=False, size=st.st_size, modified=st.st_mtime)

    @contextmanager
    def scan(self, path: MemoryPath) -> Iterator[Iterator[Entry]]:
        with _Mapped(str(path)), self._folder(path) as folder:
            yield _entries(folder)

    def read(self, path: MemoryPath) -> bytes:
        return self.read_at_most(path, None)

    def read_at_most(self, path: MemoryPath, max_bytes: int | None) -> bytes:
        """The content of a regular file; FileTooLarge, before reading any of it, past ``max_bytes``."""
        if path.is_root:
            raise NotAFile(path)
        with _Mapped(str(path)), self._folder(path.parent) as folder:
            fd, st = _open_file(folder, path)
            try:
                if max_bytes is None:
                    return read_all(fd, st.st_size)
                if st.st_size > max_bytes:
                    raise FileTooLarge(path, st.st_size, max_bytes)
                data = read_at_most(fd, max_bytes + 1)  # a file another tool grows meanwhile stops here
                if len(data) > max_bytes:
                    raise FileTooLarge(path, os.fstat(fd).st_size, max_bytes)
                return data
            finally:
                os.close(fd)

    def names(self, path: MemoryPath) -> list[str]:
        with _Mapped(str(path)), self._folder(path) as folder:
            return _listed(folder)

    def tree(self, path: MemoryPath) -> Tree:
        entry = self.stat(path)
        if entry is None:
            raise NotFound(path)
        if not entry.is_dir:
            return Tree((Node((), is_dir=False, size=entry.size),))
        with _Mapped(str(path)), self._folder(path) as folder:
            below = tuple(Node(*found) for found in walk(folder))
        return Tree((Node((), is_dir=True), *below))

    @contextmanager
    def writing(self) -> Iterator[_Session]:
        """A write session holding the store's lock (threads and processes take turns)."""
        with self._locked() as session:
            yield session

    def erase(self) -> None:
        """Remove the store's whole folder, its own state files included, and close the store.

        For erasure requests (``memory-sandbox purge``); nothing is followed out of the tree,
        and a tree of any depth goes with a handful of descriptors.
        """
        with self._locked():
            parent = os.open(os.path.dirname(self._path) or ".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            try:
                remove_tree(parent, os.path.basename(self._path))
                fsync_dir(parent, sync=self._sync_folders)
            finally:
                os.close(parent)
        self.close()

    def usage(self) -> Usage:
        """Bytes, files and folders stored now, as every process sharing the store sees them."""
        with self._locked() as session:
            return session.tally

    def recount(self) -> Usage:
        """Usage by a full walk of the tree (also removes crash leftovers); O(store size)."""
        with self._locked(recount=True) as session:
            return session.tally

    # writes, inside a session

    def _put(self, session: _Session, path: MemoryPath, data: bytes, *, new: bool) -> None:
        if path.is_root:
            raise AlreadyExists(path) if new else NotAFile(path)
        if not new:
            with _Mapped(str(path)), self._folder(path.parent) as folder:
                # Replaced, not written through: a link (hard or symbolic) to it is never written.
                st = os.stat(path.name, dir_fd=folder, follow_symlinks=False)
                if stat.S_ISDIR(st.st_mode):
                    raise NotAFile(path)
                _check_file(st, str(path))
                before = self._keys.before(path.parent.parts, folder)
                self._place(folder, data, path.name, replace=True)
                self._keys.changed(path.parent.parts, folder, before)
            session.add(Usage(len(data) - st.st_size, 0))
            return
        with _Mapped(str(path)), self._folder(path.parent, create=session) as folder:
            before = self._keys.before(path.parent.parts, folder)
            self._place(folder, data, path.name, replace=False)
            self._keys.changed(path.parent.parts, folder, before, added=path.name)
        session.add(Usage(len(data), 1))

    def _remove(self, session: _Session, path: MemoryPath) -> None:
        if path.is_root:
            raise NotFound(path)
        with _Mapped(str(path)), self._folder(path.parent) as folder:
            st = os.stat(path.name, dir_fd=folder, follow_symlinks=False)
            before = self._keys.before(path.parent.parts, folder)
            if stat.S_ISDIR(st.st_mode):
                self._keys.forget(path.parts)
                removed = remove_tree(folder, path.name)
                session.add(Usage(-removed.bytes, -removed.files, -removed.folders))
            else:
                _check_file(st, str(path))
                os.unlink(path.name, dir_fd=folder)
                session.add(Usage(-st.st_size, -1))
            self._keys.changed(path.parent.parts, folder, before, removed=path.name)
            fsync_dir(folder, sync=self._sync_folders)

    def _move(self, session: _Session, old: MemoryPath, new: MemoryPath) -> None:
        if old.is_root:
            raise NotFound(old)
        if new.is_root or new.is_relative_to(old):
            raise AlreadyExists(new)
        with _Mapped(str(old)), self._folder(old.parent) as source:
            st = os.stat(old.name, dir_fd=source, follow_symlinks=False)
            if not stat.S_ISDIR(st.st_mode):
                _check_file(st, str(old))
            with _Mapped(str(new)), self._folder(new.parent, create=session) as target:
                keys, apart = self._keys, old.parent != new.parent
                before = keys.before(old.parent.parts, source), keys.before(new.parent.parts, target)
                keys.forget(old.parts)
                rename_noreplace(source, old.name, target, new.name)
                if apart:
                    keys.changed(old.parent.parts, source, before[0], removed=old.name)
                    keys.changed(new.parent.parts, target, before[1], added=new.name)
                else:
                    keys.changed(old.parent.parts, source, before[0], added=new.name, removed=old.name)
                fsync_dir(target, sync=self._sync_folders)
                if target != source:
                    fsync_dir(source, sync=self._sync_folders)

    # internals

    def _folder(self, path: MemoryPath, *, create: _Session | None = None) -> _OpenFolder:
        """A descriptor of the folder at ``path``, reached one no-follow step at a time."""
        if path.is_root:
            return _OpenFolder(self._root_fd, owned=False)
        current = self._root_fd
        try:
            for depth, name in enumerate(path.parts):
                child = self._open_folder(current, name, path.parts[: depth + 1], create=create)
                if current != self._root_fd:
                    os.close(current)
                current = child
        except BaseException:
            if current != self._root_fd:
                os.close(current)
            raise
        return _OpenFolder(current, owned=True)

    def _open_folder(self, parent: int, name: str, parts: tuple[str, ...], *, create: _Session | None) -> int:
        shown = "/memories/" + "/".join(parts)
        try:
            return os.open(name, DIR_FLAGS, dir_fd=parent)
        except FileNotFoundError:
            if create is None:
                raise NotFound(shown) from None
        except (NotADirectoryError, OSError) as exc:
            if exc.errno not in (errno.ENOTDIR, errno.ELOOP):
                raise
            # The open failed safely; find out why, for the message only.
            _classify_non_folder(parent, name, shown)
        before = self._keys.before(parts[:-1], parent)
        try:
            os.mkdir(name, _DIR_MODE, dir_fd=parent)
            self._keys.changed(parts[:-1], parent, before, added=name)
        except FileExistsError:
            made = False  # another writer made it meanwhile: open it with the same checks
        else:
            made = True
        fd = self._open_folder(parent, name, parts, create=None)
        if made and create is not None:
            create.add(Usage(0, 0, 1))
            os.fchmod(fd, _DIR_MODE)
            fsync_dir(parent, sync=self._sync_folders)
        return fd

    def _place(self, folder: int, data: bytes, name: str, *, replace: bool) -> None:
        temp = write_temp(folder, data, sync=self._sync_data)
        placed = False
        try:
            if replace:
                os.rename(temp, name, src_dir_fd=folder, dst_dir_fd=folder)
            else:
                rename_noreplace(folder, temp, folder, name)
            placed = True
        finally:
            if not placed:
                os.unlink(temp, dir_fd=folder)
        fsync_dir(folder, sync=self._sync_folders)

    def _stat_history(self) -> os.stat_result | None:
        """The version log as its name finds it now (another process may have rewritten it)."""
        try:
            return os.stat(f"{_CONTROL_DIR}/{_HISTORY_FILE}", dir_fd=self._root_fd, follow_symlinks=False)
        except FileNotFoundError:
            return None

    def _replace_history(self, data: bytes) -> None:
        """Write the version log anew (a temp file renamed over it), durably."""
        control = os.open(_CONTROL_DIR, DIR_FLAGS, dir_fd=self._root_fd)
        try:
            temp = write_temp(control, data, sync=self._sync_data)
            os.rename(temp, _HISTORY_FILE, src_dir_fd=control, dst_dir_fd=control)
            fsync_dir(control, sync=self._sync_folders)
        finally:
            os.close(control)

    def _open_state(self) -> int:
        return self._open_control(_STATE_FILE)

    def _open_control(self, name: str) -> int:
        """Open (making it 0600) one of the store's own files under the reserved folder."""
        with contextlib.suppress(FileExistsError):
            os.mkdir(_CONTROL_DIR, _DIR_MODE, dir_fd=self._root_fd)
        control = os.open(_CONTROL_DIR, DIR_FLAGS, dir_fd=self._root_fd)
        try:
            flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
            fd = os.open(name, flags, 0o600, dir_fd=control)
        finally:
            os.close(control)
        os.fchmod(fd, 0o600)
        return fd

    @contextmanager
    def _locked(self, *, recount: bool = False) -> Iterator[_Session]:
        """Hold the store's write lock; keep the shared usage figure right around the session."""
        with self._thread_lock:
            if self._pid != os.getpid():
                self._forked()
            fcntl.flock(self._state_fd, fcntl.LOCK_EX)
            try:
                usage, clean, generation = self._read_state()
                if recount or not clean:
                    usage = _recount(self._root_fd)
                session = _Session(self, usage)
                # Every session moves the generation first, so a writer that dies midway moves it too:
                # keys other store objects keep are dropped at their next session.
                self._keys.begin(generation)
                generation = (generation or 0) + 1
                self._write_state(usage, clean=False, generation=generation)
                self._keys.generation = generation
                try:
                    yield session
                except StorageError:
                    self._keys.clear()
                    raise  # the call may have half-failed in the backend: leave the state dirty
                except SandboxError:
                    # Refused before or instead of a change; changes made kept the keys right.
                    self._write_state(session.tally, clean=True, generation=generation)
                    raise
                except BaseException:
                    self._keys.clear()
                    raise
                # Below zero means entries were removed that were never counted (written
                # behind the store's back): leave the state dirty so the next writer recounts.
                tally = session.tally
                clean = min(tally.bytes, tally.files, tally.folders) >= 0
                self._write_state(tally, clean=clean, generation=generation)
            finally:
                fcntl.flock(self._state_fd, fcntl.LOCK_UN)

    def _forked(self) -> None:
        """In a child process: lock on a state file description of its own.

        A descriptor inherited across ``fork`` shares its open file description, and so its
        ``flock``, with the parent's: the two processes would not exclude each other.
        """
        inherited, self._state_fd = self._state_fd, self._open_state()
        os.close(inherited)
        self._keys.clear()
        self._versions.forget_process()
        self._pid = os.getpid()

    def _read_state(self) -> tuple[Usage, bool, int | None]:
        """The shared usage figure, whether it can be trusted (a clean, well-formed record), and the
        store's generation (None when the record has none: torn, or written by an older version)."""
        fields = os.pread(self._state_fd, _STATE_SIZE, 0).split()
        generation = int(fields[4]) if len(fields) == 5 and fields[4].isdigit() else None
        if len(fields) not in (4, 5) or fields[3] != b"clean" or not all(f.lstrip(b"-").isdigit() for f in fields[:3]):
            return Usage(0, 0, 0), False, generation  # dirty, torn, or written by an older version: recount
        usage = Usage(int(fields[0]), int(fields[1]), int(fields[2]))
        return usage, min(usage.bytes, usage.files, usage.folders) >= 0, generation

    def _write_state(self, usage: Usage, *, clean: bool, generation: int) -> None:
        state = "clean" if clean else "dirty"
        record = f"{usage.bytes} {usage.files} {usage.folders} {state} {generation}".ljust(_STATE_SIZE - 1) + "\n"
        os.pwrite(self._state_fd, record.encode("ascii"), 0)

    def __del__(self) -> None:
        self.close()


class _Session:
    """A write session of a :class:`LocalStorage`: its reads, and writes that keep the usage tally."""

    __slots__ = ("_store", "tally")

    def __init__(self, store: LocalStorage, usage: Usage) -> None:
        self._store, self.tally = store, usage

    def add(self, change: Usage) -> None:
        self.tally = self.tally + change

    def stat(self, path: MemoryPath) -> Entry | None:
        return self._store.stat(path)

    def scan(self, path: MemoryPath) -> AbstractContextManager[Iterator[Entry]]:
        return self._store.scan(path)

    def names(self, path: MemoryPath) -> list[str]:
        return self._store.names(path)

    def alike(self, path: MemoryPath, key: str) -> list[str]:
        """The names in a folder whose look-alike key is ``key``, from keys kept between sessions."""
        store = self._store
        with _Mapped(str(path)), store._folder(path) as folder:
            return store._keys.alike(path.parts, folder, key, lambda: _listed(folder))

    def read(self, path: MemoryPath) -> bytes:
        return self._store.read(path)

    def read_at_most(self, path: MemoryPath, max_bytes: int | None) -> bytes:
        return self._store.read_at_most(path, max_bytes)

    def tree(self, path: MemoryPath) -> Tree:
        return self._store.tree(path)

    def usage(self) -> Usage:
        return self.tally

    def put(self, path: MemoryPath, data: bytes, *, new: bool) -> None:
        self._store._put(self, path, data, new=new)

    def remove(self, path: MemoryPath) -> None:
        self._store._remove(self, path)

    def move(self, old: MemoryPath, new: MemoryPath) -> None:
        self._store._move(self, old, new)

    # versions (sandbox.history.Shelf)

    def shelve(self, versions: Sequence[Version]) -> list[Version]:
        return self._store._versions.shelve(versions)

    def shelved(self, path: str | None = None, *, content: bool = True) -> list[Version]:
        return self._store._versions.shelved(path, content=content)

    def unshelve(self, seqs: Collection[int], horizon: Horizon | None = None) -> None:
        self._store._versions.unshelve(seqs, horizon)

    def horizon(self) -> Horizon:
        return self._store._versions.horizon()

    def reshelve(self, version: Version) -> None:
        self._store._versions.reshelve(version)

    def shelf_bytes(self) -> int:
        return self._store._versions.shelf_bytes()

    def make_folder(self, path: MemoryPath) -> None:
        with _Mapped(str(path)), self._store._folder(path, create=self):
            pass


def _listed(folder: int) -> list[str]:
    """The names in an open folder, without the store's own."""
    return [name for name in os.listdir(folder) if not name.startswith(RESERVED_PREFIX)]


class _OpenFolder:
    """A folder descriptor for a ``with`` block; closed at its end unless it is the root's."""

    __slots__ = ("fd", "owned")

    def __init__(self, fd: int, *, owned: bool) -> None:
        self.fd, self.owned = fd, owned

    def __enter__(self) -> int:
        return self.fd

    def __exit__(self, *exc_info: object) -> None:
        if self.owned:
            os.close(self.fd)


class _Mapped:
    """Map OS errors to the sandbox's errors at the adapter's edge, naming only the canonical path."""

    __slots__ = ("shown",)

    def __init__(self, shown: str) -> None:
        self.shown = shown

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if exc is None or not isinstance(exc, OSError):
            return
        shown = self.shown
        if isinstance(exc, FileNotFoundError):
            raise NotFound(shown) from None
        if isinstance(exc, FileExistsError):
            raise AlreadyExists(shown) from None
        if isinstance(exc, NotADirectoryError):
            raise NotADirectory(shown) from None
        if isinstance(exc, IsADirectoryError):
            raise NotAFile(shown) from None
        name = errno.errorcode.get(exc.errno or 0, "unknown")
        if exc.errno == errno.ELOOP:
            raise UnsafeEntry(shown, "symlink") from None
        if exc.errno == errno.ENOTEMPTY:
            raise AlreadyExists(shown) from None
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise StorageError("Error: The memory store is out of space.", detail=name) from None
        raise StorageError("Error: The memory store failed.", detail=name) from None


def _check_file(st: os.stat_result, shown: str) -> None:
    if stat.S_ISLNK(st.st_mode):
        raise UnsafeEntry(shown, "symlink")
    if not stat.S_ISREG(st.st_mode):
        raise UnsafeEntry(shown, "special")
    if st.st_nlink > 1:
        # Another name for the same inode may live outside the store.
        raise UnsafeEntry(shown, "hardlink")


def _classify_non_folder(parent: int, name: str, shown: str) -> None:
    """Say why a no-follow open of a folder failed (the open already kept us safe)."""
    st = os.stat(name, dir_fd=parent, follow_symlinks=False)
    if stat.S_ISREG(st.st_mode):
        raise NotADirectory(shown)
    if stat.S_ISDIR(st.st_mode):
        raise UnsafeEntry(shown, "changed")  # swapped back between the open and this look
    _check_file(st, shown)
    raise UnsafeEntry(shown, "special")


def _open_file(folder: int, path: MemoryPath) -> tuple[int, os.stat_result]:
    """Open a regular, singly-linked file for reading; the checks are on the open descriptor."""
    fd = os.open(path.name, READ_FLAGS, dir_fd=folder)
    checked = False
    try:
        st = os.fstat(fd)
        _check_opened_file(st, path)
        checked = True
    finally:
        if not checked:
            os.close(fd)
    return fd, st


def _check_opened_file(st: os.stat_result, path: MemoryPath) -> None:
    if stat.S_ISDIR(st.st_mode):
        raise NotAFile(path)
    _check_file(st, str(path))


def _entries(folder: int) -> Iterator[Entry]:
    """Listed entries, sorted; links, special files, multiply-linked files and our own files left out."""
    with os.scandir(folder) as found:
        items = sorted((e for e in found if not e.name.startswith(RESERVED_PREFIX)), key=lambda e: e.name)
    for item in items:
        if item.is_symlink():
            continue
        if item.is_dir(follow_symlinks=False):
            yield Entry(item.name, is_dir=True, size=DIR_SIZE)
        elif item.is_file(follow_symlinks=False):
            try:
                st = item.stat(follow_symlinks=False)
            except FileNotFoundError:
                continue  # removed since the folder was read
            if st.st_nlink == 1:
                yield Entry(item.name, is_dir=False, size=st.st_size, modified=st.st_mtime)


def _recount(root_fd: int) -> Usage:
    """Usage by a walk of the whole store (removing what a writer that died left behind)."""
    size = files = folders = 0
    for _, is_dir, length, _ in walk(root_fd, remove_temp=True):
        if is_dir:
            folders += 1
        else:
            size, files = size + length, files + 1
    return Usage(size, files, folders)
