"""Runs a user's training script up to its first optimizer step and reports what it saw.

This file runs INSIDE THE USER'S INTERPRETER, which has torch but usually not dtypeguard, so
it imports only the standard library and torch, is started by path (never as a package
module), and keeps to syntax that Python 3.8 accepts. It is excluded from mypy for that reason.

Protocol: the result goes to a dedicated file descriptor (``--result-fd``) as JSON lines, never
to stdout, so whatever the script prints cannot corrupt it. Records are merged in order by the
runner: ``{"event": "torch", ...}`` after torch is imported, ``{"event": "stopped", ...}`` when a
SIGTERM (the runner's timeout) interrupts the script, ``{"event": "result", ...}`` at the end.

Two entry points: ``main()`` for a cold run (``python harness.py --result-fd N --device D --
FILE ARGS...``) and ``run_script()``, which the warm worker calls in a freshly forked child
after it has imported torch once.
"""

import contextlib
import json
import os
import signal
import sys
import time

# `python harness.py` put this package folder first on sys.path; it holds modules named like
# the standard library's (`cmd`), and the user's script must not see it. None of the imports
# above reads it.
_HERE = os.path.dirname(os.path.abspath(__file__))
if sys.path and os.path.abspath(sys.path[0] or ".") == _HERE:
    del sys.path[0]

HARNESS_FILE = os.path.abspath(__file__)
MAX_RECORD = 1 << 20  # bytes; a traceback longer than that is cut
SNAPSHOT_ELEMENTS_PER_PARAM = 1 << 20  # elements compared per parameter (the first ones)
SNAPSHOT_ELEMENTS_TOTAL = 1 << 26  # beyond this the remaining parameters are not compared
# Report these optimizer options (when present in `defaults`); the rest is noise in a report.
OPTION_KEYS = (
    "lr", "betas", "eps", "weight_decay", "momentum", "dampening", "nesterov", "amsgrad",
    "maximize", "foreach", "fused", "capturable", "differentiable", "alpha", "centered",
    "decoupled_weight_decay",
)


# --------------------------------------------------------------------------- result channel
class Channel:
    """Writes JSON records to the result fd; errors are ignored (the runner copes with gaps)."""

    def __init__(self, fd):
        self.fd = fd

    def write(self, record):
        try:
            data = json.dumps(record, default=str)
            if len(data) > MAX_RECORD:  # keep the JSON valid: drop the bulky field, then cut
                record = dict(record, traceback=str(record.get("traceback", ""))[-4096:])
                data = json.dumps(record, default=str)[:MAX_RECORD]
        except Exception as exc:  # pragma: no cover - defensive
            data = json.dumps({"event": "result", "status": "error",
                               "message": f"dtypeguard harness could not encode its report: {exc}"})
        payload = data.encode("utf-8", "replace") + b"\n"
        try:
            while payload:
                n = os.write(self.fd, payload)
                payload = payload[n:]
        except OSError:
            pass


def _flush_stdio():
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except Exception:
            pass


def _finish(channel, record, code):
    """Send the final record and leave at once: no atexit handlers, no waiting on threads."""
    record["event"] = "result"
    _flush_stdio()
    channel.write(record)
    os._exit(code)


# --------------------------------------------------------------------------- locations
def _same_file(a, b):
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except Exception:
        return False


def _is_library(filename):
    if not filename or filename.startswith("<"):
        return True
    real = os.path.realpath(filename)
    if real == HARNESS_FILE:
        return True
    parts = real.replace("\\", "/").split("/")
    return "site-packages" in parts or "dist-packages" in parts or real.startswith(
        os.path.realpath(os.path.dirname(os.__file__)))


def _pick_frame(frames, script):
    """The deepest frame in the script itself, else the deepest one in the script's folder."""
    script_dir = os.path.dirname(os.path.realpath(script))
    best = None
    fallback = None
    for filename, lineno, func in frames:
        if _same_file(filename, script):
            best = (filename, lineno, func)
        elif not _is_library(filename) and (os.path.realpath(filename).startswith(script_dir + os.sep)
                                            or os.path.abspath(filename).startswith(script_dir + os.sep)):
            fallback = (filename, lineno, func)
    chosen = best or fallback
    if chosen is None:
        return {}
    filename, lineno, func = chosen
    return {"path": os.path.realpath(filename), "line": lineno, "function": func,
            "code_line": _source_line(filename, lineno)}


def _source_line(filename, lineno):
    try:
        import linecache
        return linecache.getline(filename, lineno).strip() or None
    except Exception:
        return None


def _user_traceback(exc):
    """Format `exc` without the harness/runpy frames that lead into the script (nor the
    run-through wrappers of torch.save/torch.load in between)."""
    import traceback
    through_file = os.path.join(os.path.dirname(HARNESS_FILE), "harness_through.py")
    tb = exc.__traceback__
    frames = traceback.extract_tb(tb) if tb is not None else []
    if any(os.path.realpath(f.filename) == through_file for f in frames):
        kept = [f for f in frames if os.path.realpath(f.filename) not in (HARNESS_FILE, through_file)
                and os.path.basename(f.filename) not in ("runpy.py", "<frozen runpy>")
                and not f.filename.startswith("<frozen runpy")]
        return ("Traceback (most recent call last):\n" + "".join(traceback.format_list(kept))
                + "".join(traceback.format_exception_only(type(exc), exc)))
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        base = os.path.basename(filename)
        if os.path.realpath(filename) == HARNESS_FILE or base in ("runpy.py", "<frozen runpy>") \
                or filename.startswith("<frozen runpy"):
            tb = tb.tb_next
            continue
        break
    try:
        return "".join(traceback.format_exception(type(exc), exc, tb))
    except Exception:
        return f"{type(exc).__name__}: {exc}\n"


def _tb_frames(exc):
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno, tb.tb_frame.f_code.co_name))
        tb = tb.tb_next
    return frames


def _stack_frames(frame):
    frames = []
    while frame is not None:
        frames.append((frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name))
        frame = frame.f_back
    frames.reverse()  # outermost first, like a traceback
    return frames


# --------------------------------------------------------------------------- describing tensors
def _dtype_name(dtype):
    return str(dtype).replace("torch.", "")


def _describe_tensor(torch, t):
    return {"dtype": _dtype_name(t.dtype), "device": str(t.device), "shape": list(t.shape)}


def _describe_values(torch, value, out, depth=0):
    if len(out) >= 8 or depth > 3:
        return out
    if isinstance(value, torch.Tensor):
        out.append(_describe_tensor(torch, value))
    elif isinstance(value, (list, tuple)):
        for item in value:
            _describe_values(torch, item, out, depth + 1)
    elif isinstance(value, dict):
        for item in value.values():
            _describe_values(torch, item, out, depth + 1)
    return out


def _count(mapping, key):
    mapping[key] = mapping.get(key, 0) + 1


def _jsonable_option(torch, value):
    if isinstance(value, torch.Tensor):
        try:
            return value.item() if value.numel() == 1 else str(value)
        except Exception:
            return str(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (tuple, list)):
        return [_jsonable_option(torch, v) for v in value]
    return str(value)


# --------------------------------------------------------------------------- the recorder
class Recorder:
    """Global hooks: first forward, the loss `backward()` ran on, and the first optimizer step."""

    def __init__(self, torch, channel, device, script, import_s, preloaded):
        self.torch = torch
        self.channel = channel
        self.device = device
        self.script = script
        self.import_s = import_s
        self.preloaded = preloaded
        self.pid = os.getpid()
        self.started = time.perf_counter()
        self.first_forward = None
        self.first_module_id = None
        self.loss = None
        self.backward_calls = 0
        self.snapshots = None
        self.handles = []
        self.stepping = False
        self.emulated = None  # {"emulated": True, "not_checked": [...]} under emulated CUDA
        self.through = None  # run-through mode (harness_through.Through): go on past the step

    # -- installation
    def install(self):
        torch = self.torch
        import torch.nn.modules.module as module_mod
        import torch.optim.optimizer as optimizer_mod
        self.handles.append(optimizer_mod.register_optimizer_step_pre_hook(self.pre_step))
        self.handles.append(optimizer_mod.register_optimizer_step_post_hook(self.post_step))
        self.fwd_pre = module_mod.register_module_forward_pre_hook(self.forward_pre)
        self.fwd_post = module_mod.register_module_forward_hook(self.forward_post)
        original = torch.autograd.backward
        recorder = self

        def backward(tensors, *args, **kwargs):
            with contextlib.suppress(Exception):
                recorder.note_loss(tensors)
            return original(tensors, *args, **kwargs)

        backward.__wrapped__ = original
        torch.autograd.backward = backward

    # -- forward hooks: only the first (outermost) module call is recorded, then they go away
    def forward_pre(self, module, args):
        if self.first_forward is None and os.getpid() == self.pid:
            self.first_module_id = id(module)
            self.first_forward = {
                "module": type(module).__name__,
                "inputs": _describe_values(self.torch, args, []),
                "params": self._module_param_summary(module),
            }
            self._remove(self.fwd_pre)
        return None

    def forward_post(self, module, args, output):
        if self.first_module_id is not None and id(module) == self.first_module_id:
            if self.first_forward is not None:
                self.first_forward["outputs"] = _describe_values(self.torch, output, [])
            self._remove(self.fwd_post)
        return None

    def _module_param_summary(self, module):
        dtypes = {}
        devices = {}
        try:
            for p in module.parameters():
                _count(dtypes, _dtype_name(p.dtype))
                _count(devices, str(p.device))
        except Exception:
            pass
        return {"dtypes": dtypes, "devices": devices}

    @staticmethod
    def _remove(handle):
        with contextlib.suppress(Exception):
            handle.remove()

    # -- loss
    def note_loss(self, tensors):
        torch = self.torch
        if self.stepping or os.getpid() != self.pid:
            return
        t = tensors
        if isinstance(t, (list, tuple)):
            t = t[0] if t else None
        if not isinstance(t, torch.Tensor):
            return
        self.backward_calls += 1
        with torch.no_grad():
            d = t.detach()
            info = _describe_tensor(torch, d)
            try:
                info["finite"] = bool(torch.isfinite(d).all().item())
            except Exception:
                info["finite"] = None
            if d.numel() == 1:
                with contextlib.suppress(Exception):
                    info["value"] = float(d.float().item())
        self.loss = info

    # -- optimizer step
    def pre_step(self, optimizer, args, kwargs):
        if self.snapshots is not None or os.getpid() != self.pid:
            return None
        torch = self.torch
        snaps = {}
        budget = SNAPSHOT_ELEMENTS_TOTAL
        try:
            with torch.no_grad():
                for p in self._params(optimizer):
                    n = min(p.numel(), SNAPSHOT_ELEMENTS_PER_PARAM)
                    if n > budget:
                        break
                    budget -= n
                    snaps[id(p)] = p.detach().reshape(-1)[:n].clone()
        except Exception:
            pass
        self.snapshots = snaps
        return None

    @staticmethod
    def _params(optimizer):
        seen = set()
        for group in optimizer.param_groups:
            for p in group["params"]:
                if id(p) not in seen:
                    seen.add(id(p))
                    yield p

    def post_step(self, optimizer, args, kwargs):
        if os.getpid() != self.pid:
            return
        through = self.through
        if through is not None and through.steps > 0:
            through.after_step()
            return
        self.stepping = True
        elapsed = time.perf_counter() - self.started
        record = {"status": "ok", "device": self.device}
        try:
            record["step"] = self.step_report(optimizer)
        except Exception as exc:  # a bug here must not read as the user's error
            record["step"] = {"report_error": f"{type(exc).__name__}: {exc}"}
        try:  # the script's line that called step(): where a silent hazard was seen
            at = _pick_frame(_stack_frames(sys._getframe(1)), self.script)
            if at and _same_file(at["path"], self.script):
                record["step"]["line"] = at["line"]
        except Exception:
            pass
        record.update(self.common())
        record["time_to_step_s"] = round(elapsed, 4)
        if through is not None:  # report the step as today, then let the script go on
            record["event"] = "step"
            record.pop("status")
            self.channel.write(record)
            self.stepping = False
            through.after_step()
            through.phase("step", {"optimizer": type(optimizer).__name__})
            return
        _finish(self.channel, record, 0)

    def step_report(self, optimizer):
        torch = self.torch
        options = {}
        defaults = getattr(optimizer, "defaults", {}) or {}
        for key in OPTION_KEYS:
            if key in defaults:
                options[key] = _jsonable_option(torch, defaults[key])
        groups = optimizer.param_groups
        if groups and "lr" in groups[0]:
            options["lr"] = _jsonable_option(torch, groups[0]["lr"])
        param_dtypes, param_devices, grad_dtypes, grad_devices = {}, {}, {}, {}
        state_dtypes, state_devices = {}, {}
        n_params = n_elements = nonfinite = changed = with_grad = stalled_params = 0
        grad_elements = stalled_elements = compared = 0
        stalled_dtypes = {}
        snaps = self.snapshots or {}
        with torch.no_grad():
            for p in self._params(optimizer):
                n_params += 1
                n_elements += p.numel()
                _count(param_dtypes, _dtype_name(p.dtype))
                _count(param_devices, str(p.device))
                grad = p.grad
                if grad is None:
                    _count(grad_dtypes, "none")
                else:
                    _count(grad_dtypes, _dtype_name(grad.dtype))
                    _count(grad_devices, str(grad.device))
                if (p.is_floating_point() or p.is_complex()) and not bool(
                        torch.isfinite(p).all().item()):
                    nonfinite += 1
                before = snaps.get(id(p))
                if before is None:
                    continue
                compared += 1
                now = p.detach().reshape(-1)[: before.numel()]
                diff = now != before
                if bool(diff.any().item()):
                    changed += 1
                if grad is None or grad.is_sparse:
                    continue
                nz = grad.detach().reshape(-1)[: before.numel()] != 0
                n_nz = int(nz.sum().item())
                if n_nz == 0:
                    continue
                with_grad += 1
                grad_elements += n_nz
                n_stalled = int((nz & ~diff).sum().item())
                stalled_elements += n_stalled
                if n_stalled == n_nz:
                    stalled_params += 1
                if n_stalled:
                    _count(stalled_dtypes, _dtype_name(p.dtype))
            for p in self._params(optimizer):
                state = optimizer.state.get(p, {}) if hasattr(optimizer.state, "get") else {}
                for key, value in state.items():
                    if isinstance(value, torch.Tensor):
                        state_dtypes.setdefault(str(key), {})
                        _count(state_dtypes[str(key)], _dtype_name(value.dtype))
                        state_devices.setdefault(str(key), {})
                        _count(state_devices[str(key)], str(value.device))
        return {
            "optimizer": type(optimizer).__name__,
            "optimizer_module": type(optimizer).__module__,
            "options": options,
            "param_groups": len(groups),
            "param_count": n_params,
            "param_elements": n_elements,
            "param_dtypes": param_dtypes,
            "param_devices": param_devices,
            "grad_dtypes": grad_dtypes,
            "grad_devices": grad_devices,
            "state_dtypes": state_dtypes,
            "state_devices": state_devices,
            "params_finite": nonfinite == 0,
            "nonfinite_params": nonfinite,
            "params_compared": compared,
            "params_changed": changed,
            "params_with_grad": with_grad,
            "params_stalled": stalled_params,
            "grad_elements": grad_elements,
            "stalled_elements": stalled_elements,
            "stalled_dtypes": stalled_dtypes,
        }

    def common(self):
        """Facts worth sending with every outcome, step or not."""
        out = {
            "first_forward": self.first_forward,
            "loss": self.loss,
            "backward_calls": self.backward_calls,
            "import_torch_s": round(self.import_s, 4),
            "torch_preloaded": self.preloaded,
            "memory": self.memory(),
        }
        if self.emulated:
            out.update(self.emulated)
        return out

    def memory(self):
        mem = {}
        try:
            import resource
            mem["ru_maxrss_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        except Exception:
            pass
        torch = self.torch
        try:
            if self.device == "cuda" and torch.cuda.is_initialized():
                mem["cuda_max_allocated_bytes"] = int(torch.cuda.max_memory_allocated())
        except Exception:
            pass
        return mem


# --------------------------------------------------------------------------- running the script
def resolve_device(torch, requested):
    """Map cpu/cuda/auto to the device the run uses, or None with a reason for `--device cuda`."""
    if requested == "cpu":
        return "cpu", None
    available = False
    try:
        available = bool(torch.cuda.is_available())
    except Exception:
        available = False
    if available:
        return "cuda", None
    if requested == "auto":
        return "cpu", None
    if getattr(torch.version, "cuda", None) is None:
        why = f"this torch build has no CUDA support (torch {torch.__version__})"
    elif os.environ.get("CUDA_VISIBLE_DEVICES", None) is not None:
        why = "no CUDA device is visible (CUDA_VISIBLE_DEVICES={!r})".format(os.environ["CUDA_VISIBLE_DEVICES"])
    else:
        why = "torch.cuda.is_available() is False (no GPU or no working driver)"
    return None, "--device cuda was requested but " + why + "; use --device cpu or auto"


def _install_sigterm(channel, script):
    """On the runner's timeout SIGTERM, say where the script was, then die of SIGTERM."""

    def on_term(signum, frame):
        try:
            location = _pick_frame(_stack_frames(frame), script)
            location["event"] = "stopped"
            _flush_stdio()
            channel.write(location)
        finally:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)

    with contextlib.suppress(Exception):
        signal.signal(signal.SIGTERM, on_term)


_WORLD_MARKS = ("LOCAL_RANK", "init_process_group", "WORLD_SIZE", "torchrun", "DistributedDataParallel")


def _one_process_world(torch, path, device, channel):
    """A `torchrun`-style script reads RANK/LOCAL_RANK/WORLD_SIZE and joins a process group:
    run it as a world of one process (rank 0 of 1, a free local port), and on the CPU use the
    gloo backend where it asks for nccl. Only for scripts that mention distributed training."""
    try:
        with open(path, "rb") as handle:
            text = handle.read().decode("utf-8", "replace")
    except OSError:
        return
    if not any(mark in text for mark in _WORLD_MARKS):
        return
    import socket
    with contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    given = {k: v for k, v in (("RANK", "0"), ("LOCAL_RANK", "0"), ("WORLD_SIZE", "1"), ("LOCAL_WORLD_SIZE", "1"),
                               ("MASTER_ADDR", "127.0.0.1"), ("MASTER_PORT", str(port))) if k not in os.environ}
    os.environ.update(given)
    note = "ran as a one-process world (" + ", ".join(f"{k}={v}" for k, v in given.items()) + ")" if given else ""
    if device == "cpu":
        try:
            import torch.distributed as dist
        except Exception:
            dist = None
        original = getattr(dist, "init_process_group", None) if dist is not None else None
        if original is not None:
            def init_process_group(*a, **kw):
                backend = kw.get("backend", a[0] if a else None)
                if isinstance(backend, str) and "nccl" in backend:
                    kw["backend"] = "gloo"  # NCCL needs GPUs: the CPU run uses gloo
                    a = a[1:]
                    channel.write({"event": "world", "world_note": (note + "; " if note else "") + "gloo instead of nccl on the CPU"})
                return original(*a, **kw)
            dist.init_process_group = init_process_group
    if note:
        channel.write({"event": "world", "world_note": note})


_EMULATION = None


def load_emulation():
    """emulated_cuda.py under a private name, loaded once: the warm worker loads it before its
    forks (loading patches nothing; `install` does, in the child), so a run does not pay for it."""
    global _EMULATION
    if _EMULATION is None:
        import importlib.util
        spec = importlib.util.spec_from_file_location(
            "_dtypeguard_emulated_cuda", os.path.join(_HERE, "emulated_cuda.py"))
        module = importlib.util.module_from_spec(spec)
        saved = sys.dont_write_bytecode
        sys.dont_write_bytecode = True
        try:
            spec.loader.exec_module(module)
        finally:
            sys.dont_write_bytecode = saved
        _EMULATION = module
    return _EMULATION


def _emulated_cuda(torch, requested, device, problem):
    """Emulated CUDA (emulated_cuda.py) when `--device cuda` finds no usable GPU, or always for
    `cuda-emulated`; a real GPU is always preferred. Returns (device, problem, emulation)."""
    if requested not in ("cuda", "cuda-emulated") or (requested == "cuda" and device is not None):
        return device, problem, None
    module = load_emulation()
    why = module.supported(torch)
    if why is not None:
        return None, (problem or "--device cuda-emulated was requested") + "; " + why, None
    module.install(torch)
    return "cuda", None, module


def _load_through():
    """harness_through.py, beside this file, under a private name (no package import)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "_dtypeguard_harness_through", os.path.join(os.path.dirname(HARNESS_FILE), "harness_through.py"))
    module = importlib.util.module_from_spec(spec)
    saved = sys.dont_write_bytecode
    sys.dont_write_bytecode = True
    try:
        spec.loader.exec_module(module)
    finally:
        sys.dont_write_bytecode = saved
    return module


def _install_options(torch, recorder, options, channel, path, device):
    """`workdir`: guard the scratch folder's links; `through` N: run-through mode, N batches."""
    if not options or not (options.get("workdir") or options.get("through")):
        return
    module = _load_through()
    guard = None
    if options.get("workdir"):
        guard = module.ScratchGuard(options["workdir"])
        guard.install(torch)
    if options.get("through"):
        recorder.through = module.Through(torch, channel, options["through"], path, _pick_frame,
                                          _stack_frames, device, guard)
        recorder.through.install()


def _through_end(recorder, record):
    """Run-through: the end of the script is the success; after a step, keep its loss."""
    through = recorder.through
    record["through_steps"] = through.steps
    status = record.get("status")
    if status == "no-step" and "exit_code" not in record:
        record.update({"status": "ok", "message": "the script ran to its end"})
    elif status == "no-step":
        code = record.get("exit_code")
        if code in (None, 0):
            record.update({"status": "ok", "message": "the script ran to its end (sys.exit(%s))" % (
                "" if code is None else code)})
        else:
            record.update({"status": "error", "error_type": "SystemExit",
                           "message": f"the script called sys.exit({code})"})
    if status == "error" or record.get("status") == "error":
        record["after_step"] = through.steps > 0


def run_script(torch, path, args, requested_device, channel, import_s, preloaded, options=None):
    """Run `path` as __main__ until its first optimizer step (run-through: to its end);
    never returns."""
    import runpy
    path = os.path.abspath(path)
    device, problem = resolve_device(torch, "cuda" if requested_device == "cuda-emulated" else requested_device)
    device, problem, emulation = _emulated_cuda(torch, requested_device, device, problem)
    if device is None:
        _finish(channel, {"status": "no-cuda", "device": "cuda", "message": problem,
                          "import_torch_s": round(import_s, 4)}, 2)
    script_dir = os.path.dirname(path)
    with contextlib.suppress(Exception):
        sys.stdout.reconfigure(line_buffering=True)  # prints survive a kill, line by line
    try:
        import faulthandler
        faulthandler.enable(file=sys.stderr, all_threads=False)
    except Exception:
        pass
    _install_sigterm(channel, path)
    recorder = Recorder(torch, channel, device, path, import_s, preloaded)
    recorder.install()
    _install_options(torch, recorder, options, channel, path, device)
    channel.write({"event": "script", "device": device, "torch_version": torch.__version__,
                   "python": sys.executable, "import_torch_s": round(import_s, 4)})
    _one_process_world(torch, path, device, channel)
    os.chdir(script_dir)
    sys.argv = [path, *list(args)]
    sys.path.insert(0, script_dir)
    record = {"device": device}
    if emulation is not None:
        recorder.emulated = {"emulated": True, "not_checked": list(emulation.NOT_CHECKED)
                             if hasattr(emulation, "NOT_CHECKED") else []}
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as exc:
        code = exc.code
        shown = code if (code is None or isinstance(code, int)) else repr(code)
        record.update({"status": "no-step", "exit_code": shown,
                       "message": "the script called sys.exit(%s) before any optimizer step()" % (
                           "" if code is None else shown)})
    except BaseException as exc:
        if emulation is not None and type(exc).__name__ == "CannotEmulate":
            record.update({"status": "cannot-emulate", "message": str(exc)})
            record.update(_pick_frame(_tb_frames(exc), path))
            record.update(recorder.common())
            _finish(channel, record, 0)
        record.update({"status": "error", "error_type": type(exc).__name__,
                       "message": str(exc).strip() or type(exc).__name__,
                       "traceback": _user_traceback(exc)})
        location = _pick_frame(_tb_frames(exc), path)
        if isinstance(exc, SyntaxError) and exc.filename and _same_file(exc.filename, path):
            location = {"path": path, "line": exc.lineno, "function": "<module>",
                        "code_line": (exc.text or "").strip() or None}
        record.update(location)
    else:
        record.update({"status": "no-step",
                       "message": "the script finished without calling step() on any optimizer"})
    common = recorder.common()
    if recorder.through is not None:
        _through_end(recorder, record)
        if recorder.through.steps:  # the step record already has the loss at the step
            common.pop("loss", None)
            common.pop("first_forward", None)
    record.update(common)
    record["time_to_end_s"] = round(time.perf_counter() - recorder.started, 4)
    _finish(channel, record, 0)


def _parse(argv):
    fd = None
    device = "auto"
    alarm = 0
    options = {}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--result-fd":
            fd = int(argv[i + 1])
            i += 2
        elif arg == "--alarm":
            alarm = int(argv[i + 1])
            i += 2
        elif arg == "--device":
            device = argv[i + 1]
            i += 2
        elif arg == "--through":
            options["through"] = int(argv[i + 1])
            i += 2
        elif arg == "--workdir":
            options["workdir"] = argv[i + 1]
            i += 2
        elif arg == "--":
            i += 1
            break
        else:
            break
    rest = argv[i:]
    if fd is None or not rest or device not in ("cpu", "cuda", "auto", "cuda-emulated"):
        sys.stderr.write("usage: harness.py --result-fd N --device cpu|cuda|auto|cuda-emulated -- FILE [ARGS...]\n")
        os._exit(64)
    return fd, device, alarm, rest[0], rest[1:], options


def main():
    fd, device, alarm, path, args, options = _parse(sys.argv[1:])
    if alarm > 0:
        signal.alarm(alarm)  # backstop if the runner itself disappears
    with contextlib.suppress(OSError):
        os.set_inheritable(fd, False)  # the script's own subprocesses must not hold it open
    channel = Channel(fd)
    if device == "cpu":
        os.environ["CUDA_VISIBLE_DEVICES"] = ""  # before torch: its is_available() branches go CPU
    started = time.perf_counter()
    try:
        import torch
    except ImportError as exc:
        _finish(channel, {"status": "no-torch", "device": device, "python": sys.executable,
                          "message": f"this interpreter ({sys.executable}) cannot import torch: {exc}"}, 3)
    import_s = time.perf_counter() - started
    channel.write({"event": "torch", "torch_version": torch.__version__,
                   "import_torch_s": round(import_s, 4), "python": sys.executable})
    run_script(torch, path, args, device, channel, import_s, False, options)


if __name__ == "__main__":
    main()
