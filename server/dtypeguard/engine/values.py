"""Abstract values: what the engine knows about each name at each point of execution.

`None` always means "unknown", and unknown never produces a finding. Tensor-like values are
immutable; objects that PyTorch mutates in place (modules, optimizers, user instances) live in
a heap keyed by allocation id so that `model.to(device)` is seen through every alias.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace

from dtypeguard.findings import Span
from dtypeguard.quick import quick_init

FLOAT_DTYPES = ("float64", "float32", "float16", "bfloat16")
INT_DTYPES = ("int64", "int32", "int16", "int8", "uint8", "bool")
WIDE = "int64|float64"  # pandas' numbers as read from a file: one of the two, never float32
BATCH_WHY = "DataLoader batches are built on the CPU"  # a device origin that is moved where used
ITEM_WHY = "a Dataset item is made on the CPU"  # the same, for one item taken from a Dataset
DATA_WHYS = (BATCH_WHY, ITEM_WHY)  # device origins of data: moved where it is used, not where it is made
_FLOAT_RANK = {"bfloat16": 1, "float16": 1, "float32": 2, "float64": 3}


def is_float(dtype: str | None) -> bool:
    return dtype in FLOAT_DTYPES


def is_int(dtype: str | None) -> bool:
    return dtype in INT_DTYPES


@quick_init
@dataclass(frozen=True)
class Origin:
    """Where a dtype or device came from, in words a hover can show."""

    span: Span
    why: str


class Value:
    """Base of every abstract value."""


@quick_init
@dataclass(frozen=True)
class Sym(Value):
    """A module, function, class or constant of a known library, by qualified name."""

    name: str


@quick_init
@dataclass(frozen=True)
class Const(Value):
    value: object


@quick_init
@dataclass(frozen=True)
class Configured(Const):
    """A command-line option's default (`parser.add_argument("--fp16", default=True)` read back
    after `parse_args()`): the analysis takes it as the value, so `eps=args.adam_epsilon` is 1e-8;
    but the user may pass another one, so a branch it decides still runs both ways and keeps its
    findings; only the state after the branch is the default's."""


@quick_init
@dataclass(frozen=True)
class Chance(Configured):
    """A comparison of a uniform draw in [0, 1) with a threshold strictly between 0 and 1 (`if
    np.random.uniform(0, 1) < self.p:` in an augmentation): each side runs on some steps, so
    what either does wrong is real. The value is the comparison's truth on the side most steps
    take; at an even chance, the side the threshold is the probability of, by the idiom the
    augmentation (`if random.random() > 0.5: return img` skips it otherwise). The analysis goes
    on along that side and still reads the other for what it does wrong."""


@quick_init
@dataclass(frozen=True)
class DType(Value):
    name: str  # canonical torch spelling: float32, int64, ...
    lib: str = "torch"
    # read off a tensor (`.to(grid.dtype)`): where that tensor got its dtype, so a tensor cast to
    # it has its root there (not part of equality: the dtype is the same whoever had it)
    origin: Origin | None = field(default=None, compare=False)
    site: Span | None = field(default=None, compare=False)


@quick_init
@dataclass(frozen=True)
class Device(Value):
    name: str  # cpu, cuda, auto (cuda when available), mps, meta; "some": a device not known (`torch.device(f"...")`)


@quick_init
@dataclass(frozen=True)
class Tensor(Value):
    kind: str  # tensor | ndarray | pyfloat | pyint | npscalar
    dtype: str | None = None
    device: str | None = None
    origin: Origin | None = None
    dev_origin: Origin | None = None
    autocast: bool = False  # produced inside torch.autocast
    site: Span | None = None  # the call that created this torch tensor (where a fix converts)
    from_ints: bool = False  # floats made by casting integers (labels stored as float)
    columns: tuple[tuple[str, str | None], ...] | None = None  # a DataFrame's columns and dtypes
    one_hot: bool = False  # rows of class indicators (`F.one_hot`): as floats, class probabilities
    ndim: int | None = None  # number of dimensions, where known (kept only by what keeps it)
    collated: bool = False  # a DataLoader batch: its first dimension is the batch
    moves: bool = False  # an nn.Parameter or registered buffer: `module.to(...)` moves and casts it
    max_ndim: int | None = None  # an upper bound on an unknown rank (`np.loadtxt` gives 1-D or 2-D)
    param: bool = False  # an nn.Parameter (trained, so it has a gradient), not a buffer
    # a frame's columns assigned from a value of known origin (`df["code"] = le.fit_transform(...).astype(np.int32)`):
    # where each got its dtype, for the column read back later
    column_origins: tuple[tuple[str, Origin], ...] = ()
    owner: int | None = None  # one of this module's parameters (its heap id): a list of them is still that module's
    # a buffer filled by item assignment (`ys[:, i] = interp(t)`) with floats of another dtype,
    # which it converts silently, on some path: that dtype and where it was written
    filled_with: str | None = None
    filled_at: Span | None = None
    # None on some path to here (`w = None`, then `if args.weighted: w = torch.tensor(...)`): where
    # it is used as a tensor it is this tensor, but `w is None` is not known
    maybe_none: bool = False

    def with_dtype(self, dtype: str | None, origin: Origin | None) -> Tensor:
        return replace(self, dtype=dtype, origin=origin)

    def with_device(self, device: str | None, origin: Origin | None) -> Tensor:
        return replace(self, device=device, dev_origin=origin)


@quick_init
@dataclass(frozen=True)
class ComplexArray(Value):
    """A complex NumPy array or torch tensor (what `np.fft.rfft` / `torch.fft.rfft` give): the
    engine knows only the dtype of its real and imaginary parts, which is what `abs`, `.real`
    and `.imag` give (a magnitude spectrogram); anything else done with it is unknown."""

    parts: str  # float32 (complex64) or float64 (complex128)
    origin: Origin | None = None
    ndim: int | None = None
    kind: str = "ndarray"  # or "tensor"
    device: str | None = "cpu"  # a tensor's device


@quick_init
@dataclass(frozen=True)
class Placed(Value):
    """An object the engine does not know (a model from another file), moved with
    `.to(device)` / `.cuda()`: only where its tensors live is known."""

    device: str


@quick_init
@dataclass(frozen=True)
class TupleV(Value):
    items: tuple[Value | None, ...]
    builtin: str = ""  # "list" / "tuple" for a literal the script writes (`isinstance(states, list)`); "" when not known


@quick_init
@dataclass(frozen=True)
class DictV(Value):
    """A dict the analysis can read: `items[i]` is the value under `keys[i]` (a key it cannot
    name is None: `{k: f(v) for k, v in unknown.items()}` is one entry, None -> what each maps to)."""

    keys: tuple[object, ...]
    items: tuple[Value | None, ...]
    # where each entry was written (`"args": args,` in a display, `state["step"] = step`), when
    # known: a checkpoint's unpicklable entry is reported there
    spans: tuple[Span | None, ...] = field(default=(), compare=False)
    # an instance of the script's own `dict` subclass (`class AttributeDict(dict)`), read as the
    # dict it holds: pickled by reference to that class, which a weights-only load refuses
    pickled_as: str = ""


@quick_init
@dataclass(frozen=True)
class Many(Value):
    """A list or iterable of alike items whose count is not known (`[nn.Linear(...) for _ in
    range(n)]`, a list grown in a loop, a tensor's shape of unknown rank): `item` stands for each
    of them (None: items the analysis cannot read). `flat` is False where the items may
    themselves be lists (`x.tolist()` of a tensor whose rank is not read): `item` is then the
    numbers inside, at a depth not known."""

    item: Value | None
    flat: bool = True

    def element(self) -> Value | None:
        """One of its items (`xs[i]`, `for x in xs`): `item`, or where the items may themselves
        be lists, the same numbers at a depth not known (a row of `arr.tolist()` of a 2-D array
        is a list: `torch.Tensor` of such rows is 2-D; az_c06's multi-hot collate)."""
        return (self.item if self.flat else self) if isinstance(self.item, Value) else None


class Fact(Value):
    """Base of the small values that say what an object is for the rules (an autocast context,
    a state_dict, a checkpoint path...), rather than a number, tensor or container."""


@quick_init
@dataclass(frozen=True)
class AutocastCtx(Fact):
    """`torch.autocast(...)`: the dtype its ops run in ("lower": unknown device), and whether enabled."""

    dtype: str
    on: bool


@quick_init
@dataclass(frozen=True)
class NamedTupleClass(Fact):
    """`collections.namedtuple("Manifold", ["features", "kth"])`: calling it makes an instance
    (an `InstanceObj` of cls "namedtuple:<name>") whose fields are attributes. Pickled, an
    instance names its class, which `torch.load`'s weights-only unpickler refuses."""

    name: str
    fields: tuple[str, ...]


@quick_init
@dataclass(frozen=True)
class StateDict(Fact):
    """`model.state_dict()` of a module the engine does not know: where its tensors live. Of a
    known module, also its floating parameters' dtype and, when a BatchNorm in it keeps running
    statistics, where that layer is made: its `num_batches_tracked` entry is an int64 counter."""

    device: str | None
    dtype: str | None = None
    counter: Span | None = None


@quick_init
@dataclass(frozen=True)
class Scheduler(Fact):
    """`torch.optim.lr_scheduler.StepLR(opt, ...)`: a learning-rate scheduler. Its `state_dict()`
    holds Python numbers, lists and dicts, no tensor (every torch scheduler class, checked by
    tests/engine/test_library_conformance.py): a saved scheduler state loads on any machine. Which
    class it is does not matter to any rule, so the schedulers of a script's branches are one value."""


@quick_init
@dataclass(frozen=True)
class Partial(Fact):
    """`functools.partial(f, *args, **kwargs)`: calling it calls `f` with those arguments first
    (open_clip's `get_autocast`: `partial(torch.amp.autocast, device_type=..., dtype=...)`)."""

    func: Value
    args: tuple[Value | None, ...]
    kwargs: tuple[tuple[str, Value | None], ...]


@quick_init
@dataclass(frozen=True)
class ParamNames(Fact):
    """`inspect.signature(f)` of a library callable whose parameters are known: their names."""

    names: tuple[str, ...]


@quick_init
@dataclass(frozen=True)
class SavedBy(Fact):
    """A file this run wrote with `torch.save`, and the functions running when it did."""

    frames: tuple[str, ...]


@quick_init
@dataclass(frozen=True)
class PendingLoads(Fact):
    """The `torch.load`s run on some path to here with no move written to need CUDA (`.cuda()`,
    `.to("cuda")`) after them; joined paths keep them all (DG010: a load every path from which
    moves to CUDA has no CPU-only run to fail in)."""

    spans: frozenset[Span]


def pending_spans(value: object) -> frozenset[Span]:
    """The loads a `PendingLoads` holds; none for anything else (a path that ran no load)."""
    return value.spans if isinstance(value, PendingLoads) else frozenset()


@quick_init
@dataclass(frozen=True)
class GpuTest(Fact):
    """A truth that says whether the machine has a GPU: `torch.cuda.is_available()`, kept in a
    name (`use_cuda = torch.cuda.is_available()`), negated or and-ed (`not args.no_cuda and
    ...`): `on_true`, it is true only where there is one; `on_false`, it is false only there.
    An `if` on it runs that branch only on a machine with a GPU (what DG010 asks of a bare load)."""

    on_true: bool = True
    on_false: bool = False


@quick_init
@dataclass(frozen=True)
class RandomGen(Fact):
    """A `torch.Generator` (on `device`)."""

    device: str


@quick_init
@dataclass(frozen=True)
class FInfo(Fact):
    """`torch.finfo(dtype)`: its `.max`/`.min`/`.eps`/`.tiny` are numbers the engine knows
    (`masked_fill(mask, torch.finfo(x.dtype).min)` is in range by construction)."""

    dtype: str


@quick_init
@dataclass(frozen=True)
class FilePath(Fact):
    """A file path whose name is known (or `expr:...`, the same expression, so the same file;
    or `written at L:C`, the path a `torch.save` there wrote, spelled or not)."""

    name: str


WRITTEN = "written at "  # the name given to a file a `torch.save` of this run wrote under a path not known


@quick_init
@dataclass(frozen=True)
class FieldFactory(Fact):
    """A dataclass field's `default_factory`: what each instance gets, made per instance."""

    made: Value | None


@quick_init
@dataclass(frozen=True)
class PathObj(Fact):
    """A `pathlib` path (`Path(run_dir) / "ckpt"`): pickled by reference to `pathlib.PosixPath`;
    `name` is its last part where it is written (`ckpt_dir / "main.pt"`), so loads match saves."""

    name: str = ""


@quick_init
@dataclass(frozen=True)
class ParserOptions(Fact):
    """The options an `argparse` parser was given (`configs.Option`s)."""

    options: tuple[object, ...]


@quick_init
@dataclass(frozen=True)
class Ref(Value):
    """A heap object: module, optimizer, loader, dataset, scaler or user instance."""

    oid: int


@quick_init
@dataclass(frozen=True)
class SomeParams(Value):
    """Some of a module's parameters, which ones unknown (`[p for p in model.parameters() if
    p.requires_grad]` in a file that freezes parts): an optimizer over them is tied to the
    module for its casts (a later `model.half()` converts them too), not for its dtype."""

    oid: int


@quick_init
@dataclass(frozen=True)
class ParamGroup(Value):
    """One parameter group of an optimizer (`opt.param_groups[0]`, or each in a loop over
    them): writing a flag into it (`group["capturable"] = True`) changes that optimizer."""

    oid: int


@quick_init
@dataclass(frozen=True)
class Params(Value):
    """`model.parameters()` (or a list of it): the optimizer learns which module it owns."""

    oid: int
    named: bool = False  # `model.named_parameters()`: (name, parameter) pairs


@quick_init
@dataclass(frozen=True)
class Func(Value):
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
    qual: str
    owner: str | None = None  # class name for methods
    # a nested function's free names that the function making it binds once, as they were when
    # it was made: what a closure returned by a factory (`build_interpolation` -> `interp`) reads
    env: tuple[tuple[str, Value | None], ...] = ()


def _torch_nn_module(base: str) -> bool:
    """`torch.nn.Conv3d` and the other modules of `torch.nn` (a subclass with its own `__init__` and
    `forward` is a module: EfficientNet-3D's `Conv3dStaticSamePadding(nn.Conv3d)`, set 94)."""
    name = base.removeprefix("torch.nn.")
    return base.startswith("torch.nn.") and "." not in name and name[:1].isupper() and name not in _NN_NOT_MODULES


# (containers too: a subclass's `super().__init__(*layers)` is not followed, so what it holds would be lost)
_NN_NOT_MODULES = frozenset({"Parameter", "Buffer", "UninitializedParameter", "UninitializedBuffer", "Sequential", "ModuleList", "ModuleDict"})


@quick_init
@dataclass(frozen=True)
class Klass(Value):
    node: ast.ClassDef
    bases: tuple[str, ...]  # qualified names of known bases ("torch.nn.Module")
    methods: tuple[tuple[str, Func], ...]
    fields: tuple[tuple[str, Value | None], ...] = ()  # class-level values (`bf16 = True`), bases' too
    init_fields: tuple[str, ...] | None = None  # a @dataclass's __init__ parameters, in order

    def method(self, name: str) -> Func | None:
        for key, func in self.methods:
            if key == name:
                return func
        return None

    def field(self, name: str) -> tuple[bool, Value | None]:
        for key, value in self.fields:
            if key == name:
                return True, value
        return False, None

    @property
    def is_module(self) -> bool:
        return any(b in ("torch.nn.Module", "torch.nn.modules.module.Module") or b in LIGHTNING_MODULES or b.startswith("user:module:") or _torch_nn_module(b) for b in self.bases)

    @property
    def is_dataset(self) -> bool:
        return any(b.startswith("torch.utils.data") or b.startswith("user:dataset:") for b in self.bases)


# A LightningModule is an nn.Module (its Trainer calls training_step; call_effects.lightning_fit)
LIGHTNING_MODULES = frozenset({
    "lightning.LightningModule", "lightning.pytorch.LightningModule", "lightning.pytorch.core.LightningModule",
    "lightning.pytorch.core.module.LightningModule", "pytorch_lightning.LightningModule",
    "pytorch_lightning.core.LightningModule", "pytorch_lightning.core.module.LightningModule",
    "pytorch_lightning.core.lightning.LightningModule",
})
LIGHTNING_TRAINERS = frozenset({
    "lightning.Trainer", "lightning.pytorch.Trainer", "lightning.pytorch.trainer.Trainer",
    "lightning.pytorch.trainer.trainer.Trainer", "pytorch_lightning.Trainer", "pytorch_lightning.trainer.Trainer",
    "pytorch_lightning.trainer.trainer.Trainer",
})


@quick_init
@dataclass(frozen=True)
class Super(Value):
    """`super()` inside a method of a user class: attribute lookups go to its user bases
    (`super().__init__(model=model)` runs the base's __init__ on this same object)."""

    bases: tuple[str, ...]  # the user base class names, in order
    self_value: Value


@quick_init
@dataclass(frozen=True)
class Bound(Value):
    func: Func
    self_value: Value


# --- heap objects -------------------------------------------------------------------------


@quick_init
@dataclass(frozen=True)
class ModuleObj:
    cls: str
    origin: Origin
    dtype: str | None = None
    device: str | None = None
    dtype_origin: Origin | None = None
    device_origin: Origin | None = None
    input_kind: str = "any"  # float | index | any
    first_layer: str = ""  # linear | conv | rnn | norm | embedding | ...
    loss: str | None = None  # class | bce | bce_logits | regression
    attrs: dict[str, Value | None] = field(default_factory=dict)
    created_time: int = 0
    honours_default: bool = False  # params were created from the default dtype/device
    cast_span: Span | None = None
    device_expr: str = ""  # how the code names the device it moved to (`device`, `"cuda"`)
    half_part: Span | None = None  # where a part of it became float16 (`nn.PReLU(d).half()` inside)
    frozen: bool = False  # `requires_grad_(False)`: its parameters get no gradients (a scaler skips them)
    index_after_float: Span | None = None  # a Sequential item that needs indices after one that outputs floats
    made_at: Span | None = None  # the call of a factory function (`model = hg(...)`) that returned it: where the caller holds it
    chosen_dtype: bool = False  # its dtype is a configured precision (`Trainer(precision="64-true")`), not a cast to undo
    mixed: bool = False  # as an optimizer sees it: its parameters are of several known dtypes, float16 among them
    methods: str = ""  # a script's class built on a torch container (`class Seq(nn.Sequential)` with a `fit`): its methods
    # wrapped in `nn.DataParallel` (or DDP with `device_ids`), which is held as the module itself:
    # a call moves its tensor inputs (in lists, tuples, dicts too) to the module's device first.
    # "gpu": wrapped on a path that runs only with a GPU (`if args.cuda:` holding
    # `torch.cuda.is_available()`), so a path without the wrapper is the CPU machine's;
    # "always": wrapped on a path of any machine (`if torch.cuda.device_count() > 1:`)
    scatters: str = ""


@quick_init
@dataclass(frozen=True)
class OptimizerObj:
    cls: str
    origin: Origin
    module: int | None
    options: dict[str, Value | None]
    stepped: bool = False  # it has state: it stepped, or loaded a state_dict (`state_loaded`)
    step_span: Span | None = None
    state_loaded: bool = False
    state_device: str | None = None  # where its state was made: the parameters' device at the first step (or load)
    # its state is made by its constructor, on the parameters' device of that moment (Adagrad's
    # "sum"; every other torch.optim optimizer makes it at the first step: a test asks torch)
    init_state: bool = False
    # flags set in a parameter group's dict (`{"params": ..., "capturable": True}`), any group
    group_options: dict[str, Value | None] = field(default_factory=dict)
    # over parameters of one module listed one by one (`[p for n, p in unet.named_parameters() if
    # "lora" in n]`): that module's heap id, and its dtype and last cast when the list was made
    # (a cast of the module afterwards casts the listed parameters in place)
    listed_owner: int | None = None
    listed_as: tuple[str | None, Span | None] = (None, None)


@quick_init
@dataclass(frozen=True)
class LoaderObj:
    origin: Origin
    elements: Value | None  # what one iteration yields
    batched: bool
    shuffle: bool = False


@quick_init
@dataclass(frozen=True)
class InstanceObj:
    cls: str
    klass: Klass | None
    attrs: dict[str, Value | None] = field(default_factory=dict)
    is_dataset: bool = False


@quick_init
@dataclass(frozen=True)
class ScalerObj:
    origin: Origin


HeapObj = ModuleObj | OptimizerObj | LoaderObj | InstanceObj | ScalerObj


def number_kind(value: object) -> str:
    """pyint / pyfloat for a Python number the engine knows (a constant, or one of unknown
    value), else ""."""
    if isinstance(value, Tensor) and value.kind in ("pyint", "pyfloat"):
        return value.kind
    if isinstance(value, Const) and type(value.value) in (int, float):
        return "pyint" if type(value.value) is int else "pyfloat"
    return ""


HARD_CUDA = (".cuda()", "makes a CUDA tensor")  # how a device origin says the code itself asked for CUDA
CUDA_ON_GPU_PATH = ".cuda() (a GPU is already required here)"  # a `.cuda()` on a path that already stopped without a GPU


def hard_coded_cuda(value: Value | None) -> bool:
    """A tensor put on CUDA by the code itself, whatever the machine: `.cuda()`, `torch.cuda.FloatTensor(...)`."""
    return (
        isinstance(value, Tensor) and value.kind == "tensor" and value.device == "cuda" and value.dev_origin is not None
        and (value.dev_origin.why == HARD_CUDA[0] or value.dev_origin.why.endswith(HARD_CUDA[1]))
    )


# --- joins ---------------------------------------------------------------------------------


def join_device(a: str | None, b: str | None) -> str | None:
    if a == b:
        return a
    if {a, b} <= {"cpu", "cuda", "mps", "auto"} and None not in (a, b):
        return "auto"  # an accelerator when one is available, else the CPU
    if "some" in (a, b) and None not in (a, b):
        return "some"  # a device, one of two of which one is not known
    return None


def _legacy_type_join(a: str, b: str) -> Sym | None:
    """`torch.cuda.FloatTensor` on one path, `torch.FloatTensor` on the other (torchsummary's
    `dtype` chosen by `torch.cuda.is_available()`): `torch.auto.FloatTensor`, the one legacy
    type on the device "auto" (cuda when available), which `.type(...)` reads."""
    names = {a, b}
    bases = {n.replace(".cuda.", ".").replace(".auto.", ".") for n in names}
    if len(bases) != 1:
        return None
    (base,) = bases
    if not (base.startswith("torch.") and base.count(".") == 1 and base.endswith("Tensor")):
        return None
    return Sym(base.replace("torch.", "torch.auto.", 1))


_NONE = Const(None)


_DEVICE_WORDS = frozenset({"cpu", "cuda", "mps"})


def join(a: Value | None, b: Value | None) -> Value | None:
    """The least upper bound of two values reaching the same point (unknown if they differ)."""
    if a is None or b is None:
        return None
    if a == b:
        return a
    if isinstance(a, Tensor) and isinstance(b, Tensor) and a.kind == b.kind:
        dtype = a.dtype if a.dtype == b.dtype else None
        return Tensor(
            a.kind,
            dtype,
            join_device(a.device, b.device),
            a.origin if dtype else None,
            a.dev_origin if a.device == b.device else None,
            site=a.site if dtype and a.site == b.site else None,  # (moved on one path only: still converted where it was made)
            ndim=a.ndim if a.ndim == b.ndim else None,
            # (on some path: a buffer filled in a loop joins its unfilled self at the loop's head)
            filled_with=a.filled_with or b.filled_with if not (a.filled_with and b.filled_with and a.filled_with != b.filled_with) else None,
            filled_at=a.filled_at or b.filled_at if not (a.filled_with and b.filled_with and a.filled_with != b.filled_with) else None,
            maybe_none=a.maybe_none or b.maybe_none,
        )
    maybe = a if b == _NONE else b if a == _NONE else None
    if isinstance(maybe, Tensor) and maybe.kind in ("tensor", "ndarray"):
        # a tensor on one path, None on the other (an optional class weight): used as a tensor, it
        # is that tensor (None cannot be used as one); whether it is None stays unknown
        return replace(maybe, maybe_none=True)
    numpy_side = next((v for v in (a, b) if isinstance(v, Tensor) and v.kind in ("npscalar", "ndarray")), None)
    if numpy_side is not None and _python_number(b if numpy_side is a else a):
        # `best = 0.0` then `if fi > best: best = fi` with a NumPy result: NumPy data of
        # unknown dtype on some path (what `torch.save` of it pickles); no dtype is claimed
        return Tensor(numpy_side.kind, None, "cpu")
    if isinstance(a, Device) and isinstance(b, Device):
        dev = join_device(a.name, b.name)
        return Device(dev) if dev else None
    if isinstance(a, Const) and isinstance(b, Const) and a.value in _DEVICE_WORDS and b.value in _DEVICE_WORDS:
        # `if torch.cuda.is_available(): device = "cuda"` / `else: device = "cpu"` (the beginner's
        # form of the one-line choice, scan 42): a device, the GPU where there is one
        dev = join_device(str(a.value), str(b.value))
        return Device(dev) if dev else None
    if isinstance(a, Sym) and isinstance(b, Sym):
        return _legacy_type_join(a.name, b.name)
    kind = number_kind(a)
    if kind and kind == number_kind(b) and not isinstance(a, Configured) and not isinstance(b, Configured):
        # `tokens = 0` then `tokens += len(words)` in a loop: a Python int whose value is not known
        return Tensor(kind)
    if isinstance(a, TupleV) and isinstance(b, TupleV) and len(a.items) == len(b.items):
        return TupleV(tuple(join(x, y) for x, y in zip(a.items, b.items, strict=True)))
    if isinstance(a, TupleV) and isinstance(b, TupleV) and (a.items or b.items):
        short, long = (a, b) if len(a.items) < len(b.items) else (b, a)
        if long.items[: len(short.items)] == short.items:
            # a list grown in a loop (`layers += [...]`, from `[]` too: a loop over hidden sizes
            # whose count is unknown): its known head, and the kinds appended. `len()` of a list
            # is never folded, so no branch is pruned on the length this assumes.
            return long
    if isinstance(a, DictV) and isinstance(b, DictV) and all(k is None for k in a.keys + b.keys):
        # `out = {}` then `out[key] = np.mean(...)` in a loop: what it holds under keys not known,
        # the later round's writes after the earlier's (which keys, and whether any, stays
        # unknown: no membership test is decided on it)
        fewer, more = (a, b) if len(a.items) <= len(b.items) else (b, a)
        if more.items[: len(fewer.items)] == fewer.items:
            return more
    if isinstance(a, DictV) and isinstance(b, DictV) and a.keys == b.keys and None not in a.keys:
        # one dict display on each path (`{"translate": ..., "radius": ...}` from two scene readers)
        return DictV(a.keys, tuple(join(x, y) for x, y in zip(a.items, b.items, strict=True)), a.spans if a.spans == b.spans else ())
    ea, eb = _list_items(a), _list_items(b)
    if ea is not None and eb is not None and (_is_many(a) or _is_many(b)):
        items = ea + eb  # `[]` before a loop that appends, a list of alike items after it
        joined = items[0] if items else None
        for item in items[1:]:
            joined = join(joined, item)
        return Many(joined)  # alike items, or (None) items the analysis cannot read: still a list
    return None


def _python_number(value: Value) -> bool:
    return (type(value) is Const and type(value.value) in (int, float)) or (isinstance(value, Tensor) and value.kind in ("pyfloat", "pyint"))


def _is_many(value: Value) -> bool:
    return isinstance(value, Many)


def _list_items(value: Value) -> list[Value | None] | None:
    if isinstance(value, TupleV):
        return list(value.items)
    if isinstance(value, Many):
        return [value.item]
    return None


def join_obj(a: HeapObj, b: HeapObj) -> HeapObj:
    if a == b:
        return a
    if isinstance(a, ModuleObj) and isinstance(b, ModuleObj):
        return replace(
            a,
            dtype=a.dtype if a.dtype == b.dtype else None,
            device=join_device(a.device, b.device),
            attrs=_join_attrs(a.attrs, b.attrs),
            scatters=a.scatters if a.scatters == b.scatters else "gpu" if "gpu" in (a.scatters, b.scatters) else "",
        )
    if isinstance(a, OptimizerObj) and isinstance(b, OptimizerObj):
        return replace(a, stepped=a.stepped or b.stepped, step_span=a.step_span or b.step_span, init_state=a.init_state or b.init_state)
    if isinstance(a, InstanceObj) and isinstance(b, InstanceObj):
        return replace(a, attrs=_join_attrs(a.attrs, b.attrs))
    return a


ITEMS = "__items__"  # a container module's layers, in order
FORGOTTEN = "<forgotten>"  # an object whose attributes were forgotten (one set under a name not read)


def _join_attrs(a: dict[str, Value | None], b: dict[str, Value | None]) -> dict[str, Value | None]:
    # an attribute set on one path only: reading it on the other raises AttributeError, so every
    # read that succeeds sees the value set (a child registered in a loop that may run no time);
    # unless that path forgot what the object holds (`setattr(model, name, ...)`, name unread)
    forgot = FORGOTTEN in a or FORGOTTEN in b
    out = {k: join(a.get(k), b.get(k)) if forgot or (k in a and k in b) else a[k] if k in a else b[k] for k in dict.fromkeys([*a, *b])}  # (in order: a set's order follows the hash seed)
    ia, ib = a.get(ITEMS), b.get(ITEMS)
    if isinstance(ia, TupleV) and isinstance(ib, TupleV):
        short, long = sorted((ia, ib), key=lambda t: len(t.items))
        if long.items[: len(short.items)] == short.items:
            out[ITEMS] = long  # a loop that appends layers: the list after it has them all
    return out


def promote(a: str | None, b: str | None) -> str | None:
    """torch type promotion between two tensors' dtypes (unknown stays unknown)."""
    if a is None or b is None:
        return None
    if a == b:
        return a
    if is_float(a) and is_float(b):
        if {a, b} == {"float16", "bfloat16"}:
            return "float32"
        return a if _FLOAT_RANK[a] >= _FLOAT_RANK[b] else b
    if is_float(a):
        return a
    if is_float(b):
        return b
    return None


def shape_of(t: Tensor) -> Value:
    """`t.shape` / `t.size()`: Python ints, one per dimension when the rank is known
    (`B, L, T, _ = scores.size()`), else any number of them."""
    size = Tensor("pyint")
    return TupleV((size,) * t.ndim) if t.ndim is not None and t.ndim <= 8 else Many(size)
