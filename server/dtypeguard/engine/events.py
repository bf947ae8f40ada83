"""What happened, in execution order: the interpreter's output that rules read.

Rules never walk syntax; they read these events, so a hazard two functions away from where
it blows up is seen exactly like a textbook one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dtypeguard.engine.values import ModuleObj, OptimizerObj, Origin, Value
from dtypeguard.findings import Span
from dtypeguard.quick import quick_init


@quick_init
@dataclass(frozen=True)
class Default:
    """The default dtype or device in force, and where it was set (None: PyTorch's own)."""

    value: str | None
    span: Span | None = None
    call: str = ""


@quick_init
@dataclass(frozen=True)
class SetDefault:
    span: Span
    time: int
    what: str  # dtype | device | tensor_type
    call: str  # the qualified function name
    dtype: Default  # after the call
    device: Default
    prev_dtype: Default
    prev_device: Default
    arg: str  # the argument as written


@quick_init
@dataclass(frozen=True)
class Forward:
    span: Span
    time: int
    oid: int
    module: ModuleObj
    inputs: tuple[Value | None, ...]
    autocast: str | None
    arg_spans: tuple[Span, ...] = ()
    nested: bool = False  # inside a user forward() inlined for an outer call (already checked)
    kw_inputs: tuple[Value | None, ...] = ()  # keyword arguments (`tgt_mask=`, `hx=`)
    bound_at: tuple[Span | None, ...] = ()  # where each positional argument (a plain name) was last bound
    maybe_causal: frozenset[int] = frozenset()  # inputs + kw_inputs positions of masks a Transformer may drop as causal
    # positions of the inputs that the script's own forward uses only as indices (`h[i_obs]`) or reads
    # back to the host (`.cpu()`, `.tolist()`), also through its sub-modules' forwards: a CPU index
    # tensor indexes a tensor on any device
    index_only: frozenset[int] = frozenset()
    # positional inputs the forward first hands to a method of an object it holds
    # (`self.pretrained.compute_features(x)`), which moves it or not: checked inside that method
    handed_off: frozenset[int] = frozenset()


@quick_init
@dataclass(frozen=True)
class LossCall:
    span: Span
    time: int
    kind: str  # class | bce | bce_logits | regression
    name: str
    output: Value | None
    target: Value | None
    target_span: Span | None
    autocast: str | None
    weight: Value | None = None  # the loss's `weight=` (or `pos_weight=`) tensor
    weight_at: Span | None = None  # where that weight is passed (the loss's construction or call)
    target_bound: Span | None = None  # where the target (a plain name) was last bound


@quick_init
@dataclass(frozen=True)
class TensorOp:
    """A torch op whose inputs must share a device (`cat`, `stack`, `mm`, `@`) or, for the
    matmul family, a dtype: the op fails on a mismatch, unlike elementwise ops."""

    span: Span
    time: int
    name: str  # cat | stack | mm | matmul | bmm | @ ...
    inputs: tuple[Value | None, ...]
    autocast: str | None = None
    arg_spans: tuple[Span, ...] = ()


@quick_init
@dataclass(frozen=True)
class OptimizerNew:
    span: Span
    time: int
    oid: int
    opt: OptimizerObj
    module: ModuleObj | None
    # `Adam([soft_prompt])`: the dtype of plain tensors it optimizes (one dtype, all known), and
    # where that dtype comes from; None when it optimizes a module's parameters or cannot tell
    tensor_dtype: str | None = None
    tensor_origin: Origin | None = None
    # flags it got from a `**kwargs` dict, with where each was written into that dict
    flag_spans: tuple[tuple[str, Span], ...] = ()
    # parameter groups of parameters listed one by one (`[{"params": decay_params}, ...]` from
    # `named_parameters()`): their one device, when every group's is known and the same
    groups_device: str | None = None


@quick_init
@dataclass(frozen=True)
class GroupFlag:
    """`opt.param_groups[0]["capturable"] = True` after the optimizer was made (a resume
    workaround): the flag the optimizer's next steps run with."""

    span: Span
    time: int
    opt: OptimizerObj  # the optimizer as it was made
    module: ModuleObj | None  # the module whose parameters it holds, as it is now
    key: str
    value: Value | None


@quick_init
@dataclass(frozen=True)
class OptimizerStep:
    span: Span
    time: int
    opt: OptimizerObj
    module: ModuleObj | None
    scaler: bool = False
    # an optimizer over listed parameters of one module that was cast after the list was made
    # (`unet.to(dtype=weight_dtype)` after `[p for n, p in unet.named_parameters() if "lora" in n]`):
    # their dtype now (None: not known) and where it comes from; None when there was no such cast
    listed: tuple[str | None, Origin | None] | None = None


@quick_init
@dataclass(frozen=True)
class ModuleCast:
    span: Span
    time: int
    oid: int
    before: ModuleObj
    after: ModuleObj
    stepped_optimizers: tuple[OptimizerObj, ...]
    family: tuple[int, ...] = ()  # the module and every module inside it: each cast or moved with it


@quick_init
@dataclass(frozen=True)
class LoaderNew:
    span: Span
    time: int
    shuffle: bool
    has_generator: bool
    generator_device: str | None
    default_device: Default


@quick_init
@dataclass(frozen=True)
class TorchLoad:
    span: Span
    time: int
    keywords: frozenset[str]
    weights_only: Value | None
    call_end: Span  # where a keyword can be inserted (the closing paren)
    path: str = ""  # the file argument as written
    splat: bool = False  # `torch.load(path, **kwargs)`: its keywords cannot be read
    file: str = ""  # the file's name when known (`os.path.join(d, "rng_state.pth")`): matches saves to loads
    # on every path to it, the same run saved that file while the function that loads was running
    # (`torch.save(sd, p)` then `torch.load(p)` a few lines later, or through a helper it called)
    after_save: bool = False
    # `map_location=map_location` whose value is its function's default None: the call of that
    # function, which passed none (where the fix goes)
    unpassed_at: Span | None = None
    unpassed_param: str = ""  # that function's parameter (`map_location`, or `device` in `load_cpk`)
    # on every path to it an unconditional `.cuda()` / `.to("cuda")` ran: the run has a GPU
    after_cuda: bool = False
    # on every path to it the script allowlisted classes (`torch.serialization.add_safe_globals`)
    allowed: bool = False
    # `map_location` is a CUDA device written as a constant (`"cuda:0"`): "keyword" or "positional"
    map_cuda: str = ""


@quick_init
@dataclass(frozen=True)
class TorchSave:
    span: Span
    time: int
    saves_module: bool
    saves_pickled: str  # "" or what non-weights object is saved (a whole module, Namespace...)
    path: str = ""  # the file argument as written
    device: str | None = None  # where every tensor saved lives, when known
    file: str = ""  # the file's name when known
    tagged: bool = False  # written under a patched `location_tag`: CUDA storage tags, whatever the tensors' device
    pickled_at: Span | None = None  # the dict entry that holds what is refused (`"args": args,`), where written
    # what is refused is only these classes (argparse.Namespace, the file's own plain classes):
    # allowlisted with `torch.serialization.add_safe_globals`, the file loads with weights_only
    allow: tuple[str, ...] = ()
    # the entry holds one NumPy number whose Python counterpart pickles plainly: `float`, `int`
    # or `bool` wraps it there (a fix at the root; "" when not so)
    plain: str = ""
    # where the refused NumPy number was made (`np.mean(accs)` in the evaluation helper), when known
    made: Origin | None = None
    # what a load of the file reads back: a dict with these string keys (None: not known), or an
    # object of a class of the script's own that is no mapping (`whole`): a load that reads keys
    # the save does not write, or reads a whole object as a mapping, reads another file
    keys: tuple[str, ...] | None = None
    whole: bool = False


@dataclass
class Events:
    set_defaults: list[SetDefault] = field(default_factory=list)
    forwards: list[Forward] = field(default_factory=list)
    losses: list[LossCall] = field(default_factory=list)
    ops: list[TensorOp] = field(default_factory=list)
    optimizers: list[OptimizerNew] = field(default_factory=list)
    steps: list[OptimizerStep] = field(default_factory=list)
    group_flags: list[GroupFlag] = field(default_factory=list)
    casts: list[ModuleCast] = field(default_factory=list)
    loaders: list[LoaderNew] = field(default_factory=list)
    loads: list[TorchLoad] = field(default_factory=list)
    saves: list[TorchSave] = field(default_factory=list)
    # module creations that read the default dtype/device: (time, span, oid)
    creations: list[tuple[int, Span, int, ModuleObj]] = field(default_factory=list)
    safe_globals: bool = False  # torch.serialization.add_safe_globals / safe_globals is used
    uses_cuda_check: bool = False  # the file asks torch.cuda.is_available() somewhere
    # the loads of the checked file's run after which every path moves to CUDA as written (`net.cuda()`): no run on a
    # CPU-only machine gets through them (CBIM's resume before the caller's `net.cuda()`, scan 45)
    loads_before_gpu: dict[Span, bool] = field(default_factory=dict)  # (a dict: the snapshots copy dicts)
    legacy_constructor: bool = False  # a `torch.Tensor(...)` call ran (this file or one it imports): it ignores set_default_device
    device_vars: list[tuple[str, Span]] = field(default_factory=list)  # names bound to devices
    # `np.save(path, arr)`: `np.load(path)` (or of a name with the same `.npy` end) reads it back
    array_saves: list[tuple[str, str, Value | None, Span]] = field(default_factory=list)  # (path as written, its `.npy` name end, array, where)
    # `torch.save(obj, f)`: (the file's name, or the path as written; the object): a `torch.load`
    # of that file reads it back (a cache this script writes, then loads)
    torch_saves: list[tuple[str, Value | None]] = field(default_factory=list)


@quick_init
@dataclass(frozen=True)
class ValueFact:
    span: Span
    name: str
    value: Value
    obj: object  # the heap object a Ref/Params pointed to at that moment
    store: bool  # an assignment target (inlay hints go there)


@dataclass
class Facts:
    """Position-indexed facts for hovers and inlay hints."""

    defaults_at: dict[int, tuple[Default, Default]] = field(default_factory=dict)
    values: list[ValueFact] = field(default_factory=list)
    calls: list[tuple[Span, str]] = field(default_factory=list)  # (callee span, qualified name)
    origins: dict[Span, Origin] = field(default_factory=dict)
