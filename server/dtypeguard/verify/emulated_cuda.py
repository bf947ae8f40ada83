"""Emulated CUDA for `verify --device cuda` on a machine without a usable GPU.

Why: a quarter of the hazards in users' reports are device placement (the model on cuda, the
batch, the hidden state or a mask left on the CPU; `.numpy()` of a CUDA tensor; a CUDA default
device breaking `DataLoader(shuffle=True)`). They only raise on a GPU, so a laptop run proves
nothing. Here tensors that the script puts "on cuda" keep computing on the CPU with real values
but carry `cuda:0` as their device, and every operator checks device agreement the way the CUDA
kernels do, raising torch's own error type and wording at the same line of the script.

How (PyTorch's extension points, no rewriting of the script's text):

* `EmulatedCudaTensor` is a CPU tensor subclass (same storage, `_make_subclass`) whose Python
  `device` says `cuda:0`. Its `__torch_dispatch__` sees every aten operator that touches it,
  below autograd: it checks the devices of all tensor arguments, runs the CPU kernel, and tags
  the outputs as CUDA again. Because the C++ device stays `cpu`, autograd, optimizers and
  composite kernels run unchanged (a wrapper tensor that claims `cuda` in C++ would send the
  autograd engine to a CUDA device thread that a CPU build does not have).
* `_Mode`, a `TorchFunctionMode`, sees every torch function and Tensor method before its Python
  binding runs (the bindings of `Tensor.to("cuda")`, `torch.zeros(device="cuda")` initialise
  CUDA and fail on a CPU build): device arguments naming cuda are served on the CPU and tagged;
  `.cpu()`/`.to("cpu")`/`.numpy()`/`__array__`/RNNs/generators get CUDA's checks.
* `torch.cuda`, `torch.backends.cudnn`, autocast and GradScaler are patched to describe one
  emulated GPU; what cannot be emulated (custom CUDA kernels, `torch.compile` for CUDA, NCCL)
  raises `CannotEmulate`, which the harness reports as its own status, never as the script's
  error.

This file runs INSIDE THE USER'S INTERPRETER next to harness.py (standard library + torch only;
loaded by path) and is excluded from mypy like the harness.
"""

import contextlib
import functools
import threading
import warnings

EMULATED_NAME = "Emulated CUDA (dtypeguard: values computed on CPU)"
# What the emulation does not check; the report lists it so that an "ok" is read for what it is.
NOT_CHECKED = (
    "CUDA-only dtype kernel gaps (an op with a CPU kernel but no CUDA kernel for a dtype, or the reverse)",
    "TF32/cuBLAS/cuDNN numerics (values are the CPU's)",
    "GPU memory (no out-of-memory, memory statistics are the emulation's own counts)",
    "asynchronous execution, streams and events (everything runs in order)",
    "autocast('cuda') op lists (CPU autocast with the CUDA dtype stands in)",
)
MIN_TORCH = (2, 1)


class CannotEmulate(RuntimeError):
    """The script reached something the emulated device cannot stand in for."""

    def __init__(self, what, why=""):
        self.what = what
        text = "cannot emulate " + what
        if why:
            text += ": " + why
        super().__init__(text)


def supported(torch):
    """None when this torch can run the emulation, else why not (reported as today's no-cuda)."""
    try:
        major, minor = (int(p) for p in torch.__version__.split("+")[0].split(".")[:2])
    except Exception:
        return f"cannot read the torch version {torch.__version__!r}"
    if (major, minor) < MIN_TORCH:
        return f"emulated CUDA needs torch >= {MIN_TORCH[0]}.{MIN_TORCH[1]} (this is torch {torch.__version__})"
    for name in ("overrides", "utils"):
        if not hasattr(torch, name):
            return f"torch.{name} is missing"
    if not hasattr(torch.overrides, "TorchFunctionMode") or not hasattr(torch.utils, "swap_tensors"):
        return "this torch has no TorchFunctionMode/swap_tensors"
    return None


_STATE = None  # the installed emulation (one per process)


def install(torch):
    """Patch torch in this process for the emulated device; idempotent; returns the state."""
    global _STATE
    if _STATE is None:
        _STATE = _Emulation(torch)
        _STATE.install()
    return _STATE


# --------------------------------------------------------------------------- legacy type names
_LEGACY = {
    "float32": "FloatTensor", "float64": "DoubleTensor", "float16": "HalfTensor",
    "bfloat16": "BFloat16Tensor", "int64": "LongTensor", "int32": "IntTensor",
    "int16": "ShortTensor", "int8": "CharTensor", "uint8": "ByteTensor", "bool": "BoolTensor",
}


def _type_string(t, is_cuda):
    """torch's `Tensor.toString()`: torch.FloatTensor / torch.cuda.FloatTensor."""
    name = _LEGACY.get(str(t.dtype).replace("torch.", ""), str(t.dtype))
    return ("torch.cuda." if is_cuda else "torch.") + name


class _Emulation:
    def __init__(self, torch):
        self.torch = torch
        self.cuda0 = torch.device("cuda", 0)
        self.cpu = torch.device("cpu")
        self.default_cuda = False  # set_default_device("cuda") / set_default_tensor_type(cuda)
        self.allocated = 0
        self.peak = 0
        self.lock = threading.Lock()
        # data_ptrs of storages pickled from CUDA tensors, for torch.save's location tags (the
        # plain alias made for pickling is gone by the time the storage is tagged).
        self.cuda_storages = set()
        self.loaded_cuda = set()  # data_ptrs of storages torch.load restored "on cuda"
        self.mode = None
        self.explicit_cpu = False
        self.unchecked = 0
        # storages of the CPU tensors passed to the script call being run, when it also has
        # CUDA arguments; None: check every tensor (autograd's backward, top level)
        self.user_storages = None  # >0 inside a kernel whose arguments were checked as a whole  # inside a script call that asked for device="cpu"
        import torch.utils._device as device_mod
        self.constructors = device_mod._device_constructors()
        self.tensor_cls = _make_tensor_class(torch, self)

    # ------------------------------------------------------------------ device helpers
    def is_cuda_device(self, dev):
        """True for "cuda", "cuda:0", torch.device("cuda", 0), 0 (an index means CUDA); raises
        torch's error for an ordinal the one emulated GPU does not have."""
        torch = self.torch
        if dev is None:
            return False
        if isinstance(dev, torch.device):
            kind, index = dev.type, dev.index
        elif isinstance(dev, str):
            d = torch.device(dev)
            kind, index = d.type, d.index
        elif isinstance(dev, int) and not isinstance(dev, bool):
            kind, index = "cuda", dev
        else:
            return False
        if kind != "cuda":
            return False
        if index is not None and index != 0:
            raise RuntimeError(
                "CUDA error: invalid device ordinal\nCUDA kernel errors might be asynchronously "
                "reported at some other API call, so the stacktrace below might be incorrect.\n"
                "For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
                "(emulated CUDA: one GPU, cuda:0)")
        return True

    def tag(self, t):
        """The same CPU values, seen as a CUDA tensor (no copy)."""
        cls = self.tensor_cls
        if type(t) is cls:
            return t
        if type(t) is not self.torch.Tensor and not isinstance(t, self.torch.nn.Parameter):
            return t  # another subclass: leave it alone
        out = self.torch.Tensor._make_subclass(cls, t, t.requires_grad)
        return out

    def wrap(self, value):
        torch = self.torch
        if isinstance(value, torch.Tensor):
            return self.tag(value) if type(value) is torch.Tensor else value
        if isinstance(value, (list, tuple)):
            items = [self.wrap(v) for v in value]
            if isinstance(value, tuple) and hasattr(value, "_fields"):
                return type(value)(*items)
            return type(value)(items)
        return value

    # ------------------------------------------------------------------ moving between devices
    def to_cuda(self, t, copy=False):
        """`t.to("cuda")`: a CUDA tensor keeps its identity (as torch returns self); a CPU one is
        copied (differentiably: gradients flow back to the CPU tensor)."""
        if isinstance(t, self.tensor_cls):
            return t.clone() if copy else t
        if t.is_meta:
            return t
        return self.to_cuda_fn.apply(t)

    def to_cpu(self, t, copy=False):
        if not isinstance(t, self.tensor_cls):
            return t.clone() if copy else t
        return self.to_cpu_fn.apply(t)

    # ------------------------------------------------------------------ installation
    def install(self):
        torch = self.torch
        emu = self

        class ToCuda(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return emu.tag(x.detach().clone(memory_format=torch.preserve_format))

            @staticmethod
            def backward(ctx, grad):
                return emu.to_cpu(grad)

        class ToCpu(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                with _no_python_key(torch):
                    out = x.detach().clone(memory_format=torch.preserve_format)
                return out.as_subclass(torch.Tensor) if type(out) is not torch.Tensor else out

            @staticmethod
            def backward(ctx, grad):
                return emu.to_cuda(grad)

        self.to_cuda_fn = ToCuda
        self.to_cpu_fn = ToCpu
        # Autograd runs every device's backward on the caller's thread (the engine would pick
        # a CUDA device thread by the C++ device otherwise; ours is the CPU, but keep it simple).
        _patch_cuda_module(torch, self)
        _patch_legacy_cuda_types(torch, self)
        _patch_defaults(torch, self)
        _patch_serialization(torch, self)
        _patch_modules(torch, self)
        _patch_data_parallel(torch, self)
        _patch_amp(torch, self)
        _patch_unemulated(torch, self)
        self.mode = _make_mode(torch, self)()
        self.mode.__enter__()


@contextlib.contextmanager
def _no_python_key(torch):
    """Run an aten op on the CPU kernel itself, skipping our `__torch_dispatch__`."""
    with torch._C._ExcludeDispatchKeyGuard(torch._C.DispatchKeySet(torch._C.DispatchKey.Python)), \
            torch._C.DisableTorchFunction():
        yield


# --------------------------------------------------------------------------- the tensor class
def _make_tensor_class(torch, emu):
    aten = torch.ops.aten
    # Operators that move data between devices or only look at metadata: no agreement check.
    cross_ok = {
        "copy_", "_to_copy", "_copy_from", "_copy_from_and_resize", "set_", "lift_fresh",
        "lift_fresh_copy", "detach", "alias", "_local_scalar_dense", "is_same_size",
        "_has_compatible_shallow_copy_type", "is_pinned", "_pin_memory", "record_stream",
        "_amp_foreach_non_finite_check_and_unscale_", "_amp_update_scale_"}
    for name in ("copy_", "_to_copy", "_copy_from", "_copy_from_and_resize", "set_", "lift_fresh",
                 "lift_fresh_copy", "detach", "alias", "_local_scalar_dense", "is_same_size",
                 "_has_compatible_shallow_copy_type", "is_pinned", "_pin_memory", "record_stream",
                 "_amp_foreach_non_finite_check_and_unscale_", "_amp_update_scale_"):
        packet = getattr(aten, name, None)
        if packet is not None:
            cross_ok.add(packet)
    iterator_tags = (torch.Tag.pointwise, torch.Tag.reduction)
    # Kernels without a structured CUDA wrapper are named wrapper_CUDA_<overload>_<name>.
    unstructured = {"index_select", "embedding_dense_backward", "_embedding_bag", "bincount",
                    "histc", "masked_select", "nonzero", "unique_dim", "_unique2", "take",
                    "multinomial", "put_", "index_fill_", "masked_scatter_"}
    # Arguments a CUDA kernel reads on the host: torch requires them on the CPU (packing
    # takes `lengths` as "a 1D CPU int64 tensor"; the packed RNNs keep `batch_sizes` there).
    host_args = {"_pack_padded_sequence": {"lengths"}, "_pad_packed_sequence": {"batch_sizes"},
                 "_pack_padded_sequence_backward": {"batch_sizes"}, "lstm": {"batch_sizes"},
                 "gru": {"batch_sizes"}, "rnn_tanh": {"batch_sizes"}, "rnn_relu": {"batch_sizes"}}
    host_results = {"_pack_padded_sequence", "_pad_packed_sequence"}
    info_cache = {}

    def op_info(func):
        info = info_cache.get(func)
        if info is None:
            schema = func._schema
            names = [a.name for a in schema.arguments]
            iterator = any(tag in func.tags for tag in iterator_tags) or \
                schema.name.startswith("aten::_foreach")
            base = schema.name.split("::", 1)[-1]
            overload = schema.overload_name
            if base in unstructured:
                method = f"wrapper_CUDA_{overload}_{base}"
            else:
                method = "wrapper_CUDA_" + (base + "_" + overload if overload else base)
            info = (names, iterator, method, base)
            info_cache[func] = info
        return info

    def tensors_of(func, args, kwargs):
        names = op_info(func)[0]
        found = []
        for i, value in enumerate(args):
            _collect(value, names[i] if i < len(names) else f"arg{i}", found)
        for key, value in kwargs.items():
            _collect(value, key, found)
        return found

    def _collect(value, name, found):
        if isinstance(value, torch.Tensor):
            found.append((name, value))
        elif isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, torch.Tensor):
                    found.append((name, item))

    def device_of(t):
        return emu.cuda0 if isinstance(t, cls) else t.device

    def _storage(t):
        try:
            return t.untyped_storage().data_ptr()
        except Exception:
            return None

    def check(func, args, kwargs):
        _names, iterator, method, base = op_info(func)
        if base in cross_ok:
            return
        found = tensors_of(func, args, kwargs)
        host = host_args.get(base)
        if host:
            found = [(n, t) for n, t in found if n not in host]
        user = emu.user_storages
        if user is not None:
            # Inside a script call with CUDA arguments: a CPU tensor that is none of that
            # call's own CPU arguments (nor a view of one) is a helper the CPU kernel built on
            # its C++ device (one_hot's arange, attention's masks); a CUDA kernel would have
            # built it on the GPU.
            found = [(n, t) for n, t in found
                     if isinstance(t, cls) or t.device.type != "cpu" or _storage(t) in user]
        if not found:
            return
        if base == "index" or base == "_index_put_impl_" or base == "index_put_" or base == "index_put":
            return check_index(found)
        if base == "convolution" or base == "_convolution":
            return check_conv(found)
        if base == "equal":
            iterator = True
        if iterator:
            # TensorIterator: CPU 0-dim tensors are scalars and may join a CUDA op.
            common = None
            for _name, t in found:
                dev = device_of(t)
                if dev.type == "meta":
                    continue
                if dev.type == "cpu" and t.dim() == 0 and any(isinstance(o, cls) for _n, o in found):
                    continue
                if common is None:
                    common = dev
                elif dev != common:
                    raise RuntimeError(
                        "Expected all tensors to be on the same device, but found at least two "
                        f"devices, {_devname(common)} and {_devname(dev)}!")
            return
        common = None
        any_cuda = any(isinstance(o, cls) for _n, o in found)
        for name, t in found:
            dev = device_of(t)
            if dev.type == "meta":
                continue
            if any_cuda and dev.type == "cpu" and t.dim() == 0 and base not in ("cat", "stack"):
                continue  # a CPU 0-dim tensor passes as a scalar (fill_, masked_fill, clamp...), not in cat/stack
            if common is None:
                common = dev
            elif dev != common:
                raise RuntimeError(
                    f"Expected all tensors to be on the same device, but got {name} is on {_devname(dev)}, "
                    f"different from other tensors on {_devname(common)} (when checking argument in method "
                    f"{method.replace('_stack', '_cat') if base == 'stack' else method})")  # CUDA's stack is a cat (seen on an H200)

    def check_index(found):
        # self[indices] (= values): CPU indices may index a CUDA tensor; CUDA indices a CPU one
        # may not; values follow TensorIterator's rule.
        self_t = found[0][1]
        self_cuda = isinstance(self_t, cls)
        for name, t in found[1:]:
            if name == "indices":
                if isinstance(t, cls) and not self_cuda:
                    raise RuntimeError(
                        "indices should be either on cpu or on the same device as the indexed "
                        "tensor (cpu)")
            elif isinstance(t, cls) != self_cuda and t.dim() != 0:
                raise RuntimeError(
                    "Expected all tensors to be on the same device, but found at least two "
                    f"devices, {_devname(device_of(self_t))} and {_devname(device_of(t))}!")

    def check_conv(found):
        by_name = dict(found)
        inp = by_name.get("input")
        weight = by_name.get("weight")
        bias = by_name.get("bias")
        if inp is None or weight is None:
            return
        ic, wc = isinstance(inp, cls), isinstance(weight, cls)
        if wc and not ic and weight.dim() == 5:
            # a CPU input to a CUDA Conv3d reaches the CPU's slow_conv3d with CUDA arguments
            # (seen on an H200, torch 2.11)
            raise NotImplementedError(
                "Could not run 'aten::slow_conv3d_forward' with arguments from the 'CUDA' backend. This could be "
                "because the operator doesn't exist for this backend, or was omitted during the selective/custom "
                "build process (if using custom build).")
        if ic != wc:
            raise RuntimeError(
                f"Input type ({_type_string(inp, ic)}) and weight type ({_type_string(weight, wc)}) should be the same or input should be a "
                "MKLDNN tensor and weight is a dense tensor")
        if bias is not None and isinstance(bias, cls) != ic:
            raise RuntimeError(
                f"Input type ({_type_string(inp, ic)}) and bias type ({_type_string(bias, isinstance(bias, cls))}) should be the same")

    class EmulatedCudaTensor(torch.Tensor):
        """A CPU tensor that the emulation presents, and checks, as a tensor on cuda:0."""

        __torch_function__ = torch._C._disabled_torch_function_impl

        @classmethod
        def __torch_dispatch__(klass, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            if not emu.unchecked:
                check(func, args, kwargs)
            dev = kwargs.get("device")
            if dev is not None:
                # C++ passes the tensor's own (C++) device, cpu, when it converts a dtype
                # (autocast, .to(dtype), type_as): that stays on the emulated GPU. Only a call
                # the script itself made with device="cpu" (seen by the mode) leaves it.
                if not emu.is_cuda_device(dev) and emu.explicit_cpu:
                    with _no_python_key(torch):
                        return func(*args, **kwargs)
                kwargs = dict(kwargs, device=emu.cpu)
            with _no_python_key(torch):
                out = func(*args, **kwargs)
            if isinstance(out, tuple) and op_info(func)[3] in host_results:
                return (emu.wrap(out[0]), *out[1:])  # batch_sizes/lengths stay on the CPU
            return emu.wrap(out)

        @property
        def device(self):
            return emu.cuda0

        @property
        def is_cuda(self):
            return True

        @property
        def is_cpu(self):
            return False

        def get_device(self):
            return 0

        def __format__(self, spec):
            if self.dim() == 0:
                return self.item().__format__(spec)
            return object.__format__(self, spec)

        def __reduce_ex__(self, proto):
            # torch.save: pickle as a plain tensor whose storage is tagged cuda:0 (see
            # _patch_serialization), the way a real CUDA tensor is saved.
            with _no_python_key(torch):
                plain = torch.empty(0, dtype=self.dtype).set_(
                    self.untyped_storage(), self.storage_offset(), self.size(), self.stride())
            plain.requires_grad_(self.requires_grad)
            with contextlib.suppress(Exception):
                storage = plain.untyped_storage()
                emu.cuda_storages.add(storage.data_ptr())
            if isinstance(self, torch.nn.Parameter):
                return (_rebuild_param, (plain, self.requires_grad))
            return plain.__reduce_ex__(proto)

        def tolist(self):
            with _no_python_key(torch):
                plain = torch.empty(0, dtype=self.dtype).set_(
                    self.untyped_storage(), self.storage_offset(), self.size(), self.stride())
            return plain.tolist()

        def __deepcopy__(self, memo):
            with torch.no_grad():
                out = emu.tag(self.as_subclass(torch.Tensor).clone())
            out.requires_grad_(self.requires_grad)
            memo[id(self)] = out
            return out

    cls = EmulatedCudaTensor
    return cls


def _rebuild_param(data, requires_grad):
    import torch
    return torch.nn.Parameter(data, requires_grad)


def _devname(dev):
    return str(dev)


# --------------------------------------------------------------------------- the function mode
def _make_mode(torch, emu):
    T = torch.Tensor
    cls = emu.tensor_cls
    constructors = emu.constructors
    rnn_names = {"lstm", "gru", "rnn_tanh", "rnn_relu"}
    numpy_msg = ("can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the "
                 "tensor to host memory first.")

    def parse_to(args, kwargs):
        """Tensor.to's overloads: (device, dtype, non_blocking, copy) / (dtype, ...) / (tensor, ...)."""
        device = kwargs.get("device")
        dtype = kwargs.get("dtype")
        copy = bool(kwargs.get("copy", False))
        rest = list(args[1:])
        if rest:
            first = rest[0]
            if isinstance(first, T):
                device = device_of(first)
                dtype = first.dtype
                rest = rest[1:]
            elif isinstance(first, torch.dtype):
                dtype = first
                rest = rest[1:]
            elif isinstance(first, (str, torch.device, int)) and not isinstance(first, bool):
                device = first
                rest = rest[1:]
                if rest and isinstance(rest[0], torch.dtype):
                    dtype = rest[0]
                    rest = rest[1:]
            else:
                device = None
            if len(rest) >= 2:
                copy = bool(rest[1])
        return device, dtype, copy, kwargs.get("memory_format")

    def device_of(t):
        return emu.cuda0 if isinstance(t, cls) else t.device

    def storage_of(t):
        try:
            return t.untyped_storage().data_ptr()
        except Exception:
            return None

    def tensor_to(func, args, kwargs):
        self = args[0]
        device, dtype, copy, memory_format = parse_to(args, kwargs)
        if device is None:
            return func(*args, **kwargs)
        going_cuda = emu.is_cuda_device(device)
        dev = torch.device(device) if not isinstance(device, int) else emu.cuda0
        if not going_cuda and dev.type != "cpu":
            return func(*args, **kwargs)  # meta etc.: torch's own behaviour
        out = self
        if dtype is not None and dtype != self.dtype:
            out = out.to(dtype=dtype, memory_format=memory_format or torch.preserve_format)
            copy = False
        elif memory_format is not None:
            out = out.contiguous(memory_format=memory_format) if memory_format != torch.preserve_format else out
        if going_cuda:
            return emu.to_cuda(out, copy)
        return emu.to_cpu(out, copy)

    def tensor_cuda(func, args, kwargs):
        device = kwargs.get("device", args[1] if len(args) > 1 else None)
        if device is not None and not isinstance(device, (str, torch.device, int)):
            device = None
        if device is not None:
            emu.is_cuda_device(device if not isinstance(device, str) or "cuda" in device else "cuda:" + device)
        return emu.to_cuda(args[0])

    def tensor_type_as(func, args, kwargs):
        self, other = args[0], args[1]
        out = self.to(other.dtype) if self.dtype != other.dtype else self
        return emu.to_cuda(out) if isinstance(other, cls) else emu.to_cpu(out)

    def sdpa(func, args, kwargs):
        # The CPU kernels of attention build helper tensors on the C++ device (cpu); check the
        # arguments here as CUDA's kernel does and run on views that stay in the autograd graph.
        names = ("query", "key", "value", "attn_mask")
        tensors = [(n, a) for n, a in zip(names, args, strict=False) if isinstance(a, T)]
        tensors += [(n, kwargs[n]) for n in names if isinstance(kwargs.get(n), T)]
        if not any(isinstance(t, cls) for _n, t in tensors):
            return func(*args, **kwargs)
        first = device_of(tensors[0][1])
        for _n, t in tensors[1:]:
            if device_of(t) != first:
                raise RuntimeError(
                    "Expected all tensors to be on the same device, but found at least two "
                    f"devices, {first} and {device_of(t)}!")
        emu.unchecked += 1
        try:
            return func(*args, **kwargs)
        finally:
            emu.unchecked -= 1

    def tensor_tolist(func, args, kwargs):
        self = args[0]
        return self.as_subclass(T).tolist() if isinstance(self, cls) else func(*args, **kwargs)

    def tensor_cpu(func, args, kwargs):
        return emu.to_cpu(args[0])

    def tensor_numpy(func, args, kwargs):
        if isinstance(args[0], cls):
            raise TypeError(numpy_msg)
        return func(*args, **kwargs)

    def tensor_pin(func, args, kwargs):
        # Pinned host memory: the values stay on the CPU (no accelerator to pin for here).
        self = args[0]
        if isinstance(self, cls):
            raise RuntimeError("cannot pin 'torch.cuda.FloatTensor' only dense CPU tensors can be pinned")
        return self

    def tensor_is_pinned(func, args, kwargs):
        return False

    def tensor_type(func, args, kwargs):
        target = kwargs.get("dtype", args[1] if len(args) > 1 else None)
        self = args[0]
        if target is None:
            return _type_string(self, isinstance(self, cls))
        name = target if isinstance(target, str) else getattr(target, "__module__", "") + "." + getattr(target, "__name__", "")
        if isinstance(target, (str, type)):
            if "cuda" in name:
                short = name.rsplit(".", 1)[-1]
                dtype = getattr(torch, short).dtype if hasattr(getattr(torch, short, None), "dtype") else None
                out = self if dtype is None else self.to(dtype)
                return emu.to_cuda(out)
            if isinstance(self, cls):
                return emu.to_cpu(self).type(target)
        return func(*args, **kwargs)

    def rnn(func, args, kwargs):
        # torch.lstm(input, hx, params, ...) and (data, batch_sizes, hx, params, ...): CUDA's
        # RNN checks the input against the hidden state, then the parameters.
        inp = args[0] if args else None
        if isinstance(inp, T):
            tensors = [a for a in args[1:] if isinstance(a, (T, list, tuple))]
            hidden = None
            params = None
            for a in tensors:
                if isinstance(a, T) and a.dim() == 1 and a.dtype == torch.int64 and hidden is None:
                    continue  # batch_sizes of a packed sequence (always on the CPU)
                if hidden is None:
                    hidden = [a] if isinstance(a, T) else list(a)
                elif params is None:
                    params = [a] if isinstance(a, T) else list(a)
            idev = device_of(inp)
            for h in hidden or ():
                if isinstance(h, T) and device_of(h) != idev:
                    raise RuntimeError(
                        "Input and hidden tensors are not at the same device, found input tensor "
                        f"at {idev} and hidden tensor at {device_of(h)}")
            for p in params or ():
                if isinstance(p, T) and device_of(p) != idev:
                    raise RuntimeError(
                        "Input and parameter tensors are not at the same device, found input "
                        f"tensor at {idev} and parameter tensor at {device_of(p)}")
        return func(*args, **kwargs)

    def pad_packed(func, args, kwargs):
        # Composite on the CPU: it fills a fresh tensor made on the C++ (CPU) device; a CUDA
        # kernel makes it on the packed data's device. The lengths stay on the CPU.
        out = func(*args, **kwargs)
        data = args[0] if args else kwargs.get("data")
        if isinstance(data, cls) and isinstance(out, tuple) and out:
            return (emu.to_cuda(out[0]), *out[1:])  # differentiable, unlike a bare tag
        return out

    special = {
        T.to: tensor_to, T.cuda: tensor_cuda, T.cpu: tensor_cpu, T.numpy: tensor_numpy,
        T.__array__: tensor_numpy, T.pin_memory: tensor_pin, T.is_pinned: tensor_is_pinned,
        T.type: tensor_type, T.type_as: tensor_type_as, T.tolist: tensor_tolist,
        torch.nn.functional.scaled_dot_product_attention: sdpa,
    }
    for name in rnn_names:
        fn = getattr(torch, name, None)
        if fn is not None:
            special[fn] = rnn
    with contextlib.suppress(Exception):
        special[torch._VF.lstm] = rnn
        special[torch._VF.gru] = rnn
        special[torch._VF.rnn_tanh] = rnn
        special[torch._VF.rnn_relu] = rnn
        special[torch._VF._pad_packed_sequence] = pad_packed
    getters = {T.device.__get__, T.is_cuda.__get__} if hasattr(T.device, "__get__") else set()
    # Parsers that only read a device= argument (Module.to(device="cuda") goes through
    # _parse_to): they allocate nothing, so the device is not rewritten to the CPU.
    getters.add(torch._C._nn._parse_to)

    # A mode is off while it handles a call, so the torch calls inside a Python-level function
    # (F.multi_head_attention_forward builds masks with device=query.device) would bypass it.
    # Such a function runs with the mode back on; its own first has_torch_function check is
    # answered False once so that it does not come back here.
    import torch.nn.functional as F
    local = threading.local()
    python_level = (type(parse_to),)

    def skipping(original):
        def check(*a):
            if getattr(local, "skip", False):
                local.skip = False
                return False
            return original(*a)
        return check

    for name in ("has_torch_function", "has_torch_function_unary", "has_torch_function_variadic"):
        if hasattr(F, name):
            setattr(F, name, skipping(getattr(F, name)))

    class _Mode(torch.overrides.TorchFunctionMode):
        """Serves device="cuda" on the CPU and tags the result; see the module docstring."""

        def __torch_function__(self, func, types, args=(), kwargs=None):
            if kwargs is None:
                kwargs = {}
            handler = special.get(func)
            if handler is not None:
                return handler(func, args, kwargs)
            if isinstance(func, python_level) and getattr(func, "__module__", "") == "torch.nn.functional":
                local.skip = True
                try:
                    with self:
                        return func(*args, **kwargs)
                finally:
                    local.skip = False
            if func in getters:
                return func(*args, **kwargs)
            device = kwargs.get("device")
            if device is None and emu.default_cuda and func in constructors:
                device = "cuda"
            gen = kwargs.get("generator")
            if gen is not None and type(gen) is not emu.cuda_generator_type and args \
                    and isinstance(args[0], cls):
                raise RuntimeError("Expected a 'cuda' device type for generator but found 'cpu'")
            if device is not None and not emu.is_cuda_device(device):
                if emu.explicit_cpu:
                    return func(*args, **kwargs)
                emu.explicit_cpu = True
                try:
                    return func(*args, **kwargs)
                finally:
                    emu.explicit_cpu = False
            if device is not None:
                kwargs = dict(kwargs, device="cpu")
                if gen is not None and type(gen) is not emu.cuda_generator_type:
                    raise RuntimeError("Expected a 'cuda' device type for generator but found 'cpu'")
                return emu.wrap(func(*args, **kwargs))
            # Note the call's own CPU tensors when CUDA ones come with them (see check()).
            has_cuda = False
            plain = []
            for value in (*args, *kwargs.values()):
                items = value if isinstance(value, (list, tuple)) else (value,)
                for item in items:
                    if isinstance(item, cls):
                        has_cuda = True
                    elif isinstance(item, T):
                        plain.append(item)
            if not has_cuda:
                return func(*args, **kwargs)
            before = emu.user_storages
            emu.user_storages = {storage_of(t) for t in plain}
            try:
                return func(*args, **kwargs)
            finally:
                emu.user_storages = before

    return _Mode


# --------------------------------------------------------------------------- torch.cuda
class _Props:
    def __init__(self):
        self.name = EMULATED_NAME
        self.major, self.minor = 8, 0
        self.total_memory = 80 * 2**30
        self.multi_processor_count = 108
        self.is_integrated = False
        self.is_multi_gpu_board = False
        self.uuid = "GPU-00000000-0000-0000-0000-emulated0000"
        self.L2_cache_size = 40 * 2**20
        self.warp_size = 32
        self.gcnArchName = "NA"

    def __repr__(self):
        return f"_CudaDeviceProperties(name='{self.name}', major=8, minor=0, total_memory=81920MB, " \
               "multi_processor_count=108)"


class _Stream:
    def __init__(self, device=None, priority=0, **kwargs):
        self.device = None
        self.priority = priority
        self.cuda_stream = 0

    def synchronize(self):
        return None

    def wait_stream(self, stream):
        return None

    def wait_event(self, event):
        return None

    def record_event(self, event=None):
        event = event or _Event()
        event.record(self)
        return event

    def query(self):
        return True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class _Event:
    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        self._time = None

    def record(self, stream=None):
        import time
        self._time = time.perf_counter()

    def synchronize(self):
        return None

    def wait(self, stream=None):
        return None

    def query(self):
        return True

    def elapsed_time(self, end):
        if self._time is None or end._time is None:
            raise RuntimeError("CUDA error: device not ready")
        return (end._time - self._time) * 1000.0


def _patch_cuda_module(torch, emu):
    cuda = torch.cuda
    props = _Props()
    default_stream = _Stream()

    def check_index(device=None):
        if device is None:
            return 0
        if isinstance(device, int) and not isinstance(device, bool):
            emu.is_cuda_device(device)
            return device
        emu.is_cuda_device(device)
        return 0

    def memory_allocated(device=None):
        check_index(device)
        return 0

    stats = {"allocated_bytes.all.current": 0, "allocated_bytes.all.peak": 0,
             "reserved_bytes.all.current": 0, "reserved_bytes.all.peak": 0, "num_alloc_retries": 0,
             "num_ooms": 0}

    class _DeviceCtx:
        def __init__(self, device):
            check_index(device if device is not None and device != -1 else None)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    simple = {
        "is_available": lambda: True,
        "is_initialized": lambda: True,
        "init": lambda: None,
        "_lazy_init": lambda: None,
        "device_count": lambda: 1,
        "current_device": lambda: 0,
        "set_device": lambda device: check_index(device) and None,
        "get_device_name": lambda device=None: (check_index(device), EMULATED_NAME)[1],
        "get_device_capability": lambda device=None: (check_index(device), (8, 0))[1],
        "get_device_properties": lambda device=None: (check_index(device), props)[1],
        "get_arch_list": lambda: ["sm_80"],
        "is_bf16_supported": lambda including_emulation=True: True,
        "synchronize": lambda device=None: check_index(device) and None,
        "empty_cache": lambda: None,
        "ipc_collect": lambda: None,
        "manual_seed": lambda seed: None,
        "manual_seed_all": lambda seed: None,
        "seed": lambda: None,
        "seed_all": lambda: None,
        "initial_seed": lambda: torch.initial_seed(),
        "get_rng_state": lambda device="cuda": torch.get_rng_state(),
        "get_rng_state_all": lambda: [torch.get_rng_state()],
        "set_rng_state": lambda new_state, device="cuda": None,
        "set_rng_state_all": lambda new_states: None,
        "memory_allocated": memory_allocated,
        "max_memory_allocated": memory_allocated,
        "memory_reserved": memory_allocated,
        "max_memory_reserved": memory_allocated,
        "memory_cached": memory_allocated,
        "max_memory_cached": memory_allocated,
        "reset_peak_memory_stats": lambda device=None: None,
        "reset_max_memory_allocated": lambda device=None: None,
        "reset_accumulated_memory_stats": lambda device=None: None,
        "memory_stats": lambda device=None: dict(stats),
        "memory_summary": lambda device=None, abbreviated=False: "emulated CUDA: no GPU memory is used\n",
        "mem_get_info": lambda device=None: (props.total_memory, props.total_memory),
        "set_per_process_memory_fraction": lambda fraction, device=None: None,
        "Stream": _Stream,
        "Event": _Event,
        "current_stream": lambda device=None: default_stream,
        "default_stream": lambda device=None: default_stream,
        "stream": lambda stream=None: contextlib.nullcontext(stream),
        "set_stream": lambda stream: None,
        "device": _DeviceCtx,
        "device_of": lambda obj: _DeviceCtx(None),
    }
    for name, value in simple.items():
        setattr(cuda, name, value)
    with contextlib.suppress(Exception):
        cuda.memory.memory_allocated = memory_allocated
        cuda.memory.empty_cache = simple["empty_cache"]
        cuda.memory.mem_get_info = simple["mem_get_info"]
    with contextlib.suppress(Exception):
        import torch.cuda.random as cuda_random
        for name in ("manual_seed", "manual_seed_all", "seed", "seed_all", "get_rng_state",
                     "set_rng_state", "get_rng_state_all", "set_rng_state_all", "initial_seed"):
            setattr(cuda_random, name, simple[name])
    # torch.manual_seed(s) seeds CUDA too when it is initialised: keep it from trying.
    with contextlib.suppress(Exception):
        import torch.random as torch_random
        original_seed = torch_random.manual_seed

        @functools.wraps(original_seed)
        def manual_seed(seed):
            return torch.default_generator.manual_seed(int(seed))

        torch_random.manual_seed = manual_seed
        torch.manual_seed = manual_seed
    cudnn = torch.backends.cudnn
    with contextlib.suppress(Exception):
        cudnn.is_available = lambda: True
        cudnn.version = lambda: 90100
        # RNN modules ask before flattening their weights for cuDNN; the CPU build would warn
        # that it has no cuDNN, which a GPU run never prints. Not flattening changes no value.
        cudnn.is_acceptable = lambda tensor: False
    # torch.Generator(device="cuda"): a CPU generator that says cuda:0.
    original_generator = torch.Generator

    class Generator(original_generator):
        def __new__(klass, device="cpu"):
            cuda_gen = emu.is_cuda_device(device)
            gen = original_generator.__new__(_CudaGenerator if cuda_gen else original_generator)
            return gen

    class _CudaGenerator(original_generator):
        @property
        def device(self):
            return emu.cuda0

    torch.Generator = Generator
    emu.generator_type = original_generator
    emu.cuda_generator_type = _CudaGenerator


# --------------------------------------------------------------------------- default device/type
def _patch_legacy_cuda_types(torch, emu):
    """`torch.cuda.FloatTensor(...)` and its kin: the old GAN scripts' `Tensor = torch.cuda.FloatTensor
    if cuda else torch.FloatTensor` makes tensors with them. Without CUDA torch refuses to call them
    ("type torch.cuda.FloatTensor not available"); here each makes the CPU legacy type's tensor, seen as
    a CUDA one, and `isinstance(t, torch.cuda.FloatTensor)` holds for an emulated CUDA tensor of that dtype.
    Their names stay `torch.cuda.<Name>`, which `set_default_tensor_type` and messages read."""

    class LegacyCudaType(type):
        def __call__(cls, *args, **kwargs):
            return emu.tag(getattr(torch, cls.__name__)(*args, **kwargs))

        def __instancecheck__(cls, obj):
            return isinstance(obj, emu.tensor_cls) and obj.dtype == cls.dtype

    for name in _LEGACY.values():
        cpu = getattr(torch, name, None)
        if cpu is None or getattr(cpu, "dtype", None) is None:
            continue
        setattr(torch.cuda, name, LegacyCudaType(name, (), {"__module__": "torch.cuda", "dtype": cpu.dtype, "is_cuda": True}))


def _patch_defaults(torch, emu):
    original_set_default_device = torch.set_default_device
    original_get_default_device = getattr(torch, "get_default_device", None)
    original_set_type = torch.set_default_tensor_type

    @functools.wraps(original_set_default_device)
    def set_default_device(device):
        if device is not None and emu.is_cuda_device(device):
            emu.default_cuda = True
            return None
        emu.default_cuda = False
        return original_set_default_device(device)

    def get_default_device():
        if emu.default_cuda:
            return emu.cuda0
        return original_get_default_device() if original_get_default_device else emu.cpu

    @functools.wraps(original_set_type)
    def set_default_tensor_type(t):
        name = t if isinstance(t, str) else getattr(t, "__module__", "") + "." + getattr(t, "__name__", "")
        if "cuda" in name:
            warnings.warn(
                "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
                "torch.set_default_dtype() and torch.set_default_device() as alternatives.",
                UserWarning, stacklevel=2)
            short = name.rsplit(".", 1)[-1]
            cpu_type = getattr(torch, short, None)
            if cpu_type is not None and getattr(cpu_type, "dtype", None) is not None \
                    and cpu_type.dtype.is_floating_point:
                torch.set_default_dtype(cpu_type.dtype)
            emu.default_cuda = True
            return None
        emu.default_cuda = False
        return original_set_type(t)

    torch.set_default_device = set_default_device
    torch.get_default_device = get_default_device
    torch.set_default_tensor_type = set_default_tensor_type


# --------------------------------------------------------------------------- torch.save / load
def _patch_serialization(torch, emu):
    import torch.serialization as ser
    original_tag = ser.location_tag

    def location_tag(storage):
        with contextlib.suppress(Exception):
            if storage.data_ptr() in emu.cuda_storages:
                return "cuda:0"
        return original_tag(storage)

    ser.location_tag = location_tag

    def cuda_deserialize(obj, location):
        if not location.startswith("cuda"):
            return None
        index = location.split(":", 1)[1] if ":" in location else "0"
        if index not in ("", "0"):
            raise RuntimeError(
                f"Attempting to deserialize object on CUDA device {index} but torch.cuda.device_count() "
                "is 1. Please use torch.load with map_location to map your storages to an existing "
                "device.")
        with contextlib.suppress(Exception):
            emu.loaded_cuda.add(obj.data_ptr())
        return obj

    registry = getattr(ser, "_package_registry", [])
    for i, entry in enumerate(list(registry)):
        fn = entry[2]
        if (isinstance(fn, functools.partial) and fn.args == ("cuda",)) or \
                getattr(fn, "__name__", "") == "_cuda_deserialize":
            registry[i] = (entry[0], entry[1], cuda_deserialize)
    with contextlib.suppress(Exception):
        ser._cuda_deserialize = cuda_deserialize
    import torch._utils as tutils
    original_rebuild = tutils._rebuild_tensor

    def _rebuild_tensor(storage, storage_offset, size, stride):
        t = original_rebuild(storage, storage_offset, size, stride)
        with contextlib.suppress(Exception):
            if emu.loaded_cuda and storage._untyped_storage.data_ptr() in emu.loaded_cuda:
                return emu.tag(t)
        return t

    tutils._rebuild_tensor = _rebuild_tensor


# --------------------------------------------------------------------------- nn.Module.to/cuda
def _patch_modules(torch, emu):
    """Module.to("cuda")/.cuda()/.cpu() keep the same Parameter objects (an optimizer built
    before the move still holds them), as on a real GPU: swap_tensors turns each one into the
    CUDA-tagged tensor in place."""
    Module = torch.nn.Module
    future = torch.__future__

    def swapping(method):
        @functools.wraps(method)
        def wrapper(self, *args, **kwargs):
            before = future.get_swap_module_params_on_conversion()
            future.set_swap_module_params_on_conversion(True)
            try:
                return method(self, *args, **kwargs)
            except RuntimeError as error:
                if "Couldn't swap" not in str(error):
                    raise
                # a parameter still referenced elsewhere (a traceback being handled, as when
                # Lightning's teardown calls `.cpu()` after an error in `fit`) cannot be
                # swapped; a GPU run never swaps, so move without swapping instead of failing
                future.set_swap_module_params_on_conversion(False)
                return method(self, *args, **kwargs)
            finally:
                future.set_swap_module_params_on_conversion(before)
        return wrapper

    for name in ("to", "cuda", "cpu", "to_empty"):
        original = getattr(Module, name, None)
        if original is not None:
            setattr(Module, name, swapping(original))


def _patch_data_parallel(torch, emu):
    """`nn.DataParallel` scatters its inputs and gathers its outputs with the CUDA copies of
    `torch.nn.parallel.comm` (`torch._C._scatter`/`_gather`), which a CPU build lacks. What they
    compute is chunking along `dim` and `.to(device)` of each chunk (and `cat` on the way back):
    on the emulated device(s) that is done with the emulated tensors, as a GPU run does it."""
    import torch.nn.parallel.comm as comm

    def device_of(d):
        if isinstance(d, torch.device):
            return d
        return torch.device("cpu") if d == -1 else torch.device("cuda", int(d)) if isinstance(d, int) else torch.device(d)

    def scatter(tensor, devices=None, chunk_sizes=None, dim=0, streams=None, *, out=None):
        if out is not None:
            sizes = [o.size(dim) for o in out]
            for o, chunk in zip(out, tensor.split(sizes, dim), strict=True):
                o.copy_(chunk)
            return tuple(out)
        targets = [device_of(d) for d in devices]
        chunks = tensor.chunk(len(targets), dim) if chunk_sizes is None else tensor.split(list(chunk_sizes), dim)
        return tuple(chunk.contiguous().to(target) for chunk, target in zip(chunks, targets, strict=False))

    def gather(tensors, dim=0, destination=None, *, out=None):
        if out is not None:
            return out.copy_(torch.cat([t.to(out.device) for t in tensors], dim))
        target = device_of(destination) if destination is not None else torch.device("cuda", torch.cuda.current_device())
        return torch.cat([t.to(target) for t in tensors], dim)

    comm.scatter = scatter
    comm.gather = gather


# --------------------------------------------------------------------------- autocast/GradScaler
def _patch_amp(torch, emu):
    """autocast("cuda") runs as CPU autocast with the CUDA dtype (float16 unless given), so the
    script's tensors get the low-precision dtypes a GPU run gives them."""
    import torch.amp.autocast_mode as am
    original_init = am.autocast.__init__

    @functools.wraps(original_init)
    def __init__(self, device_type="cuda", dtype=None, enabled=True, cache_enabled=None):
        if device_type == "cuda":
            device_type = "cpu"
            dtype = dtype or torch.float16
        return original_init(self, device_type, dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)

    am.autocast.__init__ = __init__
    with contextlib.suppress(Exception):
        import torch.cuda.amp.autocast_mode as cam
        original_cuda_init = cam.autocast.__init__

        @functools.wraps(original_cuda_init)
        def cuda_init(self, enabled=True, dtype=torch.float16, cache_enabled=True):
            am.autocast.__init__(self, "cuda", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)

        cam.autocast.__init__ = cuda_init
    original_is_enabled = torch.is_autocast_enabled

    def is_autocast_enabled(device_type=None):
        if device_type is None or device_type == "cuda":
            return original_is_enabled("cpu")
        return original_is_enabled(device_type)

    torch.is_autocast_enabled = is_autocast_enabled


# --------------------------------------------------------------------------- what is not emulated
def _patch_unemulated(torch, emu):
    original_compile = torch.compile

    @functools.wraps(original_compile)
    def compile(model=None, *args, **kwargs):
        def limit(fn):
            @functools.wraps(fn)
            def guarded(*a, **kw):
                raise CannotEmulate("torch.compile for CUDA", "compiled kernels for the GPU (Inductor/Triton) cannot run on the emulated device")
            return guarded
        if model is None:
            return lambda m: _compiled(m, limit)
        return _compiled(model, limit)

    def _compiled(model, limit):
        if isinstance(model, torch.nn.Module):
            model.forward = limit(model.forward)
            return model
        return limit(model)

    torch.compile = compile
    with contextlib.suppress(Exception):
        import torch.distributed as dist
        original_init = dist.init_process_group

        @functools.wraps(original_init)
        def init_process_group(*args, **kwargs):
            backend = kwargs.get("backend", args[0] if args else None)
            if backend is None or "nccl" in str(backend):
                raise CannotEmulate("NCCL", "collective communication between GPUs needs real GPUs")
            return original_init(*args, **kwargs)

        dist.init_process_group = init_process_group
    # torch.utils.cpp_extension imports setuptools (0.15 s): patch it only when the script
    # imports it, through a meta-path hook, so runs that never build extensions do not pay.
    import sys
    if "torch.utils.cpp_extension" in sys.modules:
        _patch_cpp_extension(sys.modules["torch.utils.cpp_extension"])
    else:
        sys.meta_path.insert(0, _ExtensionHook())


def _patch_cpp_extension(ext):
    def refuse(name, original):
        @functools.wraps(original)
        def fn(*args, **kwargs):
            cuda_sources = kwargs.get("cuda_sources")
            sources = kwargs.get("sources", args[1] if len(args) > 1 else [])
            if isinstance(sources, str):
                sources = [sources]
            if cuda_sources or any(str(s).endswith((".cu", ".cuh")) for s in sources or ()):
                raise CannotEmulate("custom CUDA kernels",
                                    f"torch.utils.cpp_extension.{name} builds CUDA code")
            return original(*args, **kwargs)
        return fn

    for name in ("load", "load_inline"):
        original = getattr(ext, name, None)
        if original is not None and not getattr(original, "_dg_emulated", False):
            patched = refuse(name, original)
            patched._dg_emulated = True
            setattr(ext, name, patched)


class _ExtensionHook:
    """Patches torch.utils.cpp_extension right after its first import."""

    name = "torch.utils.cpp_extension"

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name:
            return None
        import importlib.machinery
        import sys
        sys.meta_path.remove(self)
        try:
            spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        finally:
            pass
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        original_exec = loader.exec_module

        def exec_module(module):
            original_exec(module)
            with contextlib.suppress(Exception):
                _patch_cpp_extension(module)

        loader.exec_module = exec_module
        return spec
