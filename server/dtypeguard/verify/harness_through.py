"""Harness side of run-through mode and of the scratch working directory.

Like harness.py this file runs INSIDE THE USER'S INTERPRETER (standard library + torch only,
Python 3.8 syntax, excluded from mypy); harness.py loads it by path, only when asked for.

Two independent pieces:

* ``ScratchGuard``: the runner gives the script a scratch folder that mirrors the script's
  folder (real directories, symbolic links to the user's files). Reads through the links see
  the user's data; a *new* file lands in the scratch folder. Writing to an *existing* path would
  follow the link into the user's folder, so the Python-level writers (``open``/``io.open``,
  ``os.open``, ``os.mkdir``, ``torch.save``) first replace the link with a private copy (or, for
  a truncating write, just remove the link), and turn a linked directory into a real one before
  anything is created inside it. C code that opens an existing linked file for writing by itself
  is not covered (see README, verify).

* ``Through``: run-through mode. Every ``DataLoader`` iteration stops after ``cap`` batches
  (``len()`` agrees), nothing else changes: the per-batch computation is the script's own. It
  records the phases the script reaches (first step, eval/no-grad forward, ``torch.save``,
  ``torch.load``, a second pass over a loader) as ``{"event": "phase"}`` records, and loads back
  everything the script saves with the installed torch's defaults (weights_only) and with
  ``map_location`` to the other device kind, so a resume that would fail later is reported now.
"""

import contextlib
import os
import shutil
import sys
import time

MAX_PHASE_RECORDS = 40
MAX_SAVES_CHECKED = 8
MAX_MESSAGE = 2000


# --------------------------------------------------------------------------- scratch folder
class ScratchGuard:
    """Keeps writes under `workdir` from reaching the user's folder through its links."""

    def __init__(self, workdir):
        self.workdir = os.path.realpath(workdir)
        self.broken = []  # links replaced by private files/folders (for the report)

    def _inside(self, path):
        return path == self.workdir or path.startswith(self.workdir + os.sep)

    def materialize_dir(self, path):
        """Make every folder from the scratch root down to `path` a real folder."""
        path = os.path.abspath(path)
        if not self._inside(path):
            return
        rel = os.path.relpath(path, self.workdir)
        current = self.workdir
        for part in ([] if rel == "." else rel.split(os.sep)):
            current = os.path.join(current, part)
            if os.path.islink(current):
                target = os.path.realpath(current)
                if not os.path.isdir(target):
                    return
                os.unlink(current)
                os.mkdir(current)
                with contextlib.suppress(OSError):
                    for name in os.listdir(target):
                        os.symlink(os.path.join(target, name), os.path.join(current, name))
                self.broken.append(os.path.relpath(current, self.workdir))
            elif not os.path.isdir(current):
                return

    def for_write(self, file, keep_content):
        """Before `file` is written: no link on the way, and the file itself private."""
        try:
            if isinstance(file, int) or not isinstance(file, (str, bytes, os.PathLike)):
                return
            path = os.fsdecode(file)
            path = os.path.abspath(path)
            if not self._inside(path):
                return
            self.materialize_dir(os.path.dirname(path))
            if os.path.islink(path):
                target = os.path.realpath(path)
                os.unlink(path)
                if keep_content and os.path.isfile(target):
                    shutil.copyfile(target, path)
                self.broken.append(os.path.relpath(path, self.workdir))
        except Exception:
            pass

    def install(self, torch):
        import builtins
        import io
        guard = self
        original_open = builtins.open
        original_os_open = os.open
        original_mkdir = os.mkdir

        def open(file, mode="r", *args, **kwargs):
            if isinstance(mode, str) and any(c in mode for c in "wax+"):
                guard.for_write(file, keep_content=("a" in mode or "+" in mode) and "w" not in mode)
            return original_open(file, mode, *args, **kwargs)

        def os_open(path, flags, *args, **kwargs):
            if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT) and kwargs.get("dir_fd") is None:
                guard.for_write(path, keep_content=not flags & os.O_TRUNC)
            return original_os_open(path, flags, *args, **kwargs)

        def mkdir(path, *args, **kwargs):
            if kwargs.get("dir_fd") is None:
                with contextlib.suppress(Exception):
                    guard.materialize_dir(os.path.dirname(os.path.abspath(os.fsdecode(path))))
            return original_mkdir(path, *args, **kwargs)

        open.__wrapped__ = original_open
        builtins.open = open
        io.open = open
        os.open = os_open
        os.mkdir = mkdir
        original_save = torch.save

        def save(obj, f, *args, **kwargs):  # torch.save opens a path in C++, not with open()
            guard.for_write(f, keep_content=False)
            return original_save(obj, f, *args, **kwargs)

        save.__wrapped__ = original_save
        save.__doc__ = original_save.__doc__
        torch.save = save


# --------------------------------------------------------------------------- run-through
class _Capped:
    """A DataLoader iterator that stops after `cap` batches; anything else is delegated."""

    def __init__(self, inner, cap):
        self._inner = inner
        self._left = cap
        self._cap = cap

    def __iter__(self):
        return self

    def __next__(self):
        if self._left <= 0:
            raise StopIteration
        self._left -= 1
        return next(self._inner)

    def __len__(self):
        try:
            return min(len(self._inner), self._cap)
        except TypeError:
            return self._cap

    def __getattr__(self, name):
        return getattr(self._inner, name)


class Through:
    """The run-through hooks; `harness.Recorder` calls `after_step` on every optimizer step."""

    def __init__(self, torch, channel, cap, script, pick_frame, stack_frames, device, guard):
        self.torch = torch
        self.channel = channel
        self.cap = max(1, int(cap))
        self.script = script
        self.pick_frame = pick_frame
        self.stack_frames = stack_frames
        self.device = device
        self.guard = guard
        self.pid = os.getpid()
        self.started = time.perf_counter()
        self.steps = 0
        self.seen = set()  # phases already recorded once
        self.records = 0
        self.iterations = {}  # id(loader) -> times iterated
        self.saves_checked = 0
        self.in_check = False

    # -- recording
    def where(self):
        return self.pick_frame(self.stack_frames(sys._getframe(2)), self.script)

    def phase(self, name, extra=None, once=True):
        if os.getpid() != self.pid or self.records >= MAX_PHASE_RECORDS:
            return
        if once and name in self.seen:
            return
        self.seen.add(name)
        self.records += 1
        record = {"event": "phase", "phase": name, "after_step": self.steps > 0,
                  "t": round(time.perf_counter() - self.started, 4)}
        with contextlib.suppress(Exception):
            location = self.where()
            record["line"] = location.get("line")
            record["path"] = location.get("path")
        if extra:
            record.update(extra)
        self.channel.write(record)

    # -- installation
    def install(self):
        self._cap_loaders()
        self._watch_forward()
        self._wrap_save_load()

    def _cap_loaders(self):
        from torch.utils.data import DataLoader
        through = self
        original_iter = DataLoader.__iter__
        original_len = DataLoader.__len__

        def __iter__(loader):
            n = through.iterations.get(id(loader), 0) + 1
            through.iterations[id(loader)] = n
            if n == 2:
                through.phase("second-pass", {"loader": type(getattr(loader, "dataset", None)).__name__})
            return _Capped(original_iter(loader), through.cap)

        def __len__(loader):
            return min(original_len(loader), through.cap)

        DataLoader.__iter__ = __iter__
        DataLoader.__len__ = __len__

    def _watch_forward(self):
        import torch.nn.modules.module as module_mod
        through = self
        torch = self.torch
        handle = []

        def pre(module, args):
            if "eval" in through.seen:
                return None
            try:
                no_grad = not torch.is_grad_enabled() or torch.is_inference_mode_enabled()
            except Exception:
                no_grad = False
            if no_grad or not module.training:
                through.phase("eval", {"module": type(module).__name__,
                                       "no_grad": bool(no_grad), "training": bool(module.training)})
                if handle:
                    with contextlib.suppress(Exception):
                        handle[0].remove()
            return None

        handle.append(module_mod.register_module_forward_pre_hook(pre))

    def _wrap_save_load(self):
        torch = self.torch
        through = self
        original_save = torch.save
        original_load = torch.load
        self.original_load = original_load

        def save(obj, f, *args, **kwargs):  # the scratch guard's wrapper, when there is one
            result = original_save(obj, f, *args, **kwargs)
            if not through.in_check:
                through.after_save(f)
            return result

        def load(f, *args, **kwargs):
            if not through.in_check:
                through.phase("load", {"file": _name(f)})
            return original_load(f, *args, **kwargs)

        save.__wrapped__ = original_save
        load.__wrapped__ = original_load
        save.__doc__ = original_save.__doc__
        load.__doc__ = original_load.__doc__
        torch.save = save
        torch.load = load

    # -- events
    def after_step(self):
        self.steps += 1
        if self.steps == 2:
            self.phase("second-step")

    def after_save(self, f):
        """Load back what the script just saved, as a resume in a new process would."""
        extra = {"file": _name(f)}
        if isinstance(f, (str, bytes, os.PathLike)) and self.saves_checked < MAX_SAVES_CHECKED:
            self.saves_checked += 1
            self.in_check = True
            try:
                extra["roundtrip"] = self.roundtrip(os.fsdecode(f))
            except Exception as exc:  # never the script's problem
                extra["roundtrip"] = [{"check": "internal", "ok": None, "message": repr(exc)[:MAX_MESSAGE]}]
            finally:
                self.in_check = False
        self.phase("save", extra, once=False)

    def roundtrip(self, path):
        torch = self.torch
        checks = []
        default = {"check": "defaults", "map_location": None,
                   "weights_only_default": _weights_only_default(torch)}
        checks.append(_try_load(torch, self.original_load, path, None, default))
        other = "cpu" if self.device == "cuda" else "cuda"
        entry = {"check": "map_location", "map_location": other}
        if other == "cuda" and not _cuda_available(torch):
            entry.update({"ok": None, "message": "not tried: no CUDA device in this run"})
            cuda_tensors = checks[0].get("cuda_tensors")
            if cuda_tensors:
                entry["message"] += "; the checkpoint holds CUDA tensors"
            checks.append(entry)
        else:
            checks.append(_try_load(torch, self.original_load, path, other, entry))
        return checks


def _try_load(torch, load, path, map_location, entry):
    entry = dict(entry)
    try:
        obj = load(path, map_location=map_location) if map_location else load(path)
    except Exception as exc:
        entry.update({"ok": False, "error_type": type(exc).__name__,
                      "message": str(exc)[:MAX_MESSAGE]})
        with contextlib.suppress(Exception):
            entry["unsafe_globals"] = list(torch.serialization.get_unsafe_globals_in_checkpoint(path))[:20]
        return entry
    entry["ok"] = True
    devices = set()
    _tensor_devices(torch, obj, devices, 0, [0])
    entry["devices"] = sorted(devices)
    entry["cuda_tensors"] = any(d.startswith("cuda") for d in devices)
    return entry


def _tensor_devices(torch, obj, out, depth, budget):
    budget[0] += 1
    if depth > 6 or budget[0] > 5000:
        return
    if isinstance(obj, torch.Tensor):
        out.add(str(obj.device))
    elif isinstance(obj, dict):
        for value in obj.values():
            _tensor_devices(torch, value, out, depth + 1, budget)
    elif isinstance(obj, (list, tuple)):
        for value in obj:
            _tensor_devices(torch, value, out, depth + 1, budget)


def _weights_only_default(torch):
    """What `torch.load(f)` does without weights_only in this torch (env overrides included)."""
    with contextlib.suppress(Exception):
        from torch.serialization import _default_to_weights_only
        return bool(_default_to_weights_only(None))
    return None


def _cuda_available(torch):
    try:
        return bool(torch.cuda.is_available())
    except Exception:
        return False


def _name(f):
    if isinstance(f, (str, bytes, os.PathLike)):
        return os.fsdecode(f)
    return type(f).__name__
