"""The vocabulary of the libraries: dtype spellings, legacy tensor types, which torch factories
follow the default dtype, layer, loss and optimizer names, as data.

Teaching the engine a new function is a one-line change here. Facts follow hazards.md
(H03, H05, H20): only dtype-less torch factories and Python floats follow the default dtype;
NumPy keeps float64; integer data gives int64; `from_numpy` ignores the default device.
"""

from __future__ import annotations

# dtype spellings -> canonical torch names
DTYPE_NAMES: dict[str, str] = {
    "float64": "float64", "double": "float64", "float32": "float32", "float": "float32",
    "float16": "float16", "half": "float16", "bfloat16": "bfloat16", "int64": "int64",
    "long": "int64", "int32": "int32", "int": "int32", "int16": "int16", "short": "int16",
    "int8": "int8", "uint8": "uint8", "bool": "bool", "bool_": "bool", "float_": "float64",
    "intc": "int32", "int_": "int64", "single": "float32", "longlong": "int64",
}
# numpy spellings differ: np.float / np.int_ mean 64-bit; `float` as a dtype means float64
NUMPY_DTYPE_NAMES: dict[str, str] = {**DTYPE_NAMES, "float": "float64", "int": "int64", "half": "float16", "single": "float32", "double": "float64"}
# NumPy's type codes in native or no byte order ("<i4" on a little-endian machine, as files
# are written; ">i4" is not here: torch.from_numpy refuses non-native byte order), checked
# against `np.dtype(code).name` by tests/engine/test_library_conformance.py
NUMPY_DTYPE_NAMES.update({
    f"{order}{code}": name
    for code, name in {"f2": "float16", "f4": "float32", "f8": "float64", "i1": "int8", "i2": "int16", "i4": "int32",
                       "i8": "int64", "u1": "uint8", "b1": "bool", "?": "bool"}.items()
    for order in ("", "<", "=", "|")
})

LEGACY_TENSOR_TYPES: dict[str, tuple[str, str]] = {
    "FloatTensor": ("float32", "cpu"), "DoubleTensor": ("float64", "cpu"),
    "HalfTensor": ("float16", "cpu"), "BFloat16Tensor": ("bfloat16", "cpu"),
    "LongTensor": ("int64", "cpu"), "IntTensor": ("int32", "cpu"), "ByteTensor": ("uint8", "cpu"),
    "BoolTensor": ("bool", "cpu"),
}

# torch factories whose float results follow the default dtype and default device
TORCH_DEFAULT_FACTORIES = frozenset({
    "zeros", "ones", "empty", "randn", "rand", "linspace", "logspace", "eye", "normal",
    "empty_strided", "full", "arange", "range", "tensor", "as_tensor", "Tensor",
    "hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window",
})
# overloaded: `torch.max(x)` is x's dtype, `torch.max(x, y)` promotes, `torch.max(x, dim)` is
# (values, indices); a signature table cannot say which, so `call_effects.py` does
TORCH_OVERLOADED = frozenset({"max", "min", "amax", "amin", "median"})
TORCH_INT_FACTORIES = frozenset({"randint", "randperm", "bincount", "argmax", "argmin", "argsort", "multinomial", "bucketize", "searchsorted"})
# elementwise/structural torch functions: the result keeps the (promoted) input dtype
# these give integral values: a float result is "labels computed with float math"
# results of these methods on an integer tensor follow the default float dtype
DTYPE_METHODS: dict[str, str] = {
    "float": "float32", "double": "float64", "half": "float16", "bfloat16": "bfloat16",
    "long": "int64", "int": "int32", "short": "int16", "byte": "uint8", "char": "int8",
    "bool": "bool",
}


# sklearn: (X dtype, y dtype) for synthetic data sets; transformers return float64 for
# float64/int input and keep float32 (H20)
SKLEARN_DATASETS: dict[str, tuple[str, str]] = {
    "make_classification": ("float64", "int64"), "make_blobs": ("float64", "int64"),
    "make_moons": ("float64", "int64"), "make_circles": ("float64", "int64"),
    "make_regression": ("float64", "float64"), "make_friedman1": ("float64", "float64"),
}
# the bundled toy data sets: a Bunch whose `data` and `target` have these dtypes (NumPy 2's
# default integer; `return_X_y=True` gives the pair)
SKLEARN_LOADERS: dict[str, tuple[str, str]] = {
    "load_iris": ("float64", "int64"), "load_digits": ("float64", "int64"), "load_wine": ("float64", "int64"),
    "load_breast_cancer": ("float64", "int64"), "load_diabetes": ("float64", "float64"),
}

# scikit-learn transformers whose `fit_transform`/`transform` keep float32 and give float64 for
# any other numeric input (arrays and frames; checked by tests/engine/test_library_conformance.py)
SKLEARN_FLOAT_TRANSFORMERS = frozenset({
    "StandardScaler", "MinMaxScaler", "MaxAbsScaler", "RobustScaler", "Normalizer", "PowerTransformer",
    "QuantileTransformer", "PolynomialFeatures", "PCA", "TruncatedSVD",
})
# encoders: float64 whatever their input (their `dtype=` decides); OneHotEncoder only when dense
SKLEARN_ENCODERS = frozenset({"OneHotEncoder", "OrdinalEncoder"})

# nn layers: (first-layer kind, input expectation)
# norm layers that, built with their defaults (`track_running_stats=True`, the fifth parameter),
# keep an int64 `num_batches_tracked` buffer in their state_dict (a conformance test builds each)
COUNTED_NORMS = frozenset({"BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm"})
LAYER_KINDS: dict[str, tuple[str, str]] = {
    "Linear": ("linear", "float"), "Bilinear": ("linear", "float"), "LazyLinear": ("linear", "float"),
    "Conv1d": ("conv", "float"), "Conv2d": ("conv", "float"), "Conv3d": ("conv", "float"),
    "ConvTranspose1d": ("conv", "float"), "ConvTranspose2d": ("conv", "float"),
    "ConvTranspose3d": ("conv", "float"), "LazyConv1d": ("conv", "float"), "LazyConv2d": ("conv", "float"), "LazyConv3d": ("conv", "float"),
    "RNN": ("rnn", "float"), "LSTM": ("rnn", "float"), "GRU": ("rnn", "float"),
    "BatchNorm1d": ("norm", "float"), "BatchNorm2d": ("norm", "float"), "BatchNorm3d": ("norm", "float"),
    "LayerNorm": ("norm", "float"), "GroupNorm": ("norm", "float"), "InstanceNorm2d": ("norm", "float"),
    "InstanceNorm1d": ("norm", "float"), "InstanceNorm3d": ("norm", "float"), "RMSNorm": ("rmsnorm", "any"),
    "MultiheadAttention": ("attention", "float"), "TransformerEncoder": ("attention", "float"),
    "TransformerEncoderLayer": ("attention", "float"), "Transformer": ("attention", "float"),
    "TransformerDecoderLayer": ("attention", "float"), "TransformerDecoder": ("attention", "float"), "PReLU": ("linear", "float"),
    "Embedding": ("embedding", "index"), "EmbeddingBag": ("embedding", "index"),
}
# parameter-free layers: pass dtype through, expect nothing
PASSTHROUGH_LAYERS = frozenset({
    "ReLU", "Sigmoid", "Tanh", "GELU", "SiLU", "LeakyReLU", "ELU", "Softmax", "LogSoftmax",
    "Dropout", "Dropout2d", "Flatten", "Unflatten", "Identity", "MaxPool1d", "MaxPool2d",
    "AvgPool2d", "AdaptiveAvgPool2d", "AdaptiveAvgPool1d", "Mish", "Softplus", "Hardtanh",
    "Upsample", "ReLU6", "MaxPool3d", "AvgPool1d", "AvgPool3d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "Dropout1d", "Dropout3d", "AlphaDropout", "Softmax2d", "Softmin",
    "Hardswish", "Hardsigmoid", "SELU", "CELU", "Softsign", "Tanhshrink", "LogSigmoid", "GLU", "PixelShuffle",
    "PixelUnshuffle", "ZeroPad2d", "ReflectionPad1d", "ReflectionPad2d", "ReplicationPad2d", "ConstantPad1d",
    "ConstantPad2d", "ConstantPad3d", "ZeroPad1d", "ZeroPad3d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad3d",
    "CircularPad1d", "CircularPad2d", "CircularPad3d", "ChannelShuffle", "Threshold", "LocalResponseNorm", "CosineSimilarity", "PairwiseDistance",
})
CONTAINERS = frozenset({"Sequential", "ModuleList", "ModuleDict"})
LOSSES: dict[str, str] = {
    "CrossEntropyLoss": "class", "NLLLoss": "class", "BCELoss": "bce",
    "BCEWithLogitsLoss": "bce_logits", "MSELoss": "regression", "L1Loss": "regression",
    "SmoothL1Loss": "regression", "HuberLoss": "regression",
}
FUNCTIONAL_LOSSES: dict[str, str] = {
    "cross_entropy": "class", "nll_loss": "class", "binary_cross_entropy": "bce",
    "binary_cross_entropy_with_logits": "bce_logits", "mse_loss": "regression",
    "l1_loss": "regression", "smooth_l1_loss": "regression", "huber_loss": "regression",
}
# regression losses that keep the predictions' float32 with a float64 target and whose backward
# then refuses it ("Found dtype Double but expected Float"); the others compute in float64 and
# train (tests/engine/test_library_conformance.py runs each)
FLOAT64_TARGET_FAILS_BACKWARD = frozenset({"HuberLoss", "huber_loss"})
# functional losses whose third positional parameter is `weight` (`F.cross_entropy(x, y, w)`)
WEIGHT_THIRD_FUNCTIONAL_LOSSES = frozenset({"cross_entropy", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits"})
LOSS_CALL_NAMES: dict[str, str] = {
    "class": "cross_entropy/NLL", "bce": "BCELoss", "bce_logits": "BCEWithLogitsLoss",
    "regression": "the regression loss",
}

ADAM_FAMILY = frozenset({"Adam", "AdamW", "NAdam", "RAdam", "Adamax", "SparseAdam"})
TORCH_OPTIMIZERS = frozenset({
    "Adam", "AdamW", "SGD", "RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam",
    "LBFGS", "ASGD", "Rprop", "SparseAdam", "Adafactor", "Muon",
})
# third-party optimizers recognised by class name for the verify lens
THIRD_PARTY_OPTIMIZERS = frozenset({
    "Lion", "AdamW8bit", "Adam8bit", "PagedAdamW", "Lamb", "LAMB", "Adafactor", "SophiaG",
    "Ranger", "AdaBelief", "FusedAdam", "DeepSpeedCPUAdam", "Prodigy", "Shampoo", "SGDW",
})


# The torch whose facts these tables state (`torch.__version__` of the pinned dev/test torch; checked by
# tests/engine/test_library_conformance.py). `if torch.__version__ < "2.6":` is decided for it: code kept
# for an older torch (a bare `torch.load` where `weights_only` still defaulted to False) does not run.
TORCH_VERSION = (2, 13, 0)


# transformers' learning-rate schedule factories (`transformers.X` and `transformers.optimization.X`): each
# returns a torch LR scheduler (a LambdaLR, or ReduceLROnPlateau) whose state holds no tensor, so a
# `scheduler.pt` saved from one loads anywhere (Hugging Face fine-tuning scripts' resume). Checked against
# transformers by tests/engine/test_library_conformance.py (built with an optimizer, stepped, saved, loaded).
HF_SCHEDULERS = frozenset({
    "get_constant_schedule", "get_constant_schedule_with_warmup", "get_cosine_schedule_with_warmup",
    "get_cosine_with_hard_restarts_schedule_with_warmup", "get_cosine_with_min_lr_schedule_with_warmup",
    "get_cosine_with_min_lr_schedule_with_warmup_lr_rate", "get_inverse_sqrt_schedule", "get_linear_schedule_with_warmup",
    "get_polynomial_decay_schedule_with_warmup", "get_reduce_on_plateau_schedule", "get_wsd_schedule", "get_scheduler",
})


# torch.optim's constructors' parameters in torch 2.13 (`inspect.signature(torch.optim.AdamW).parameters`:
# nanoGPT's `fused_available = 'fused' in ...`), generated from the real classes; checked by
# tests/engine/test_library_conformance.py
OPTIMIZER_PARAMETERS: dict[str, tuple[str, ...]] = {
    "SGD": ('params', 'lr', 'momentum', 'dampening', 'weight_decay', 'nesterov', 'maximize', 'foreach', 'differentiable', 'fused'),
    "Adam": ('params', 'lr', 'betas', 'eps', 'weight_decay', 'amsgrad', 'foreach', 'maximize', 'capturable', 'differentiable', 'fused', 'decoupled_weight_decay'),
    "AdamW": ('params', 'lr', 'betas', 'eps', 'weight_decay', 'amsgrad', 'maximize', 'foreach', 'capturable', 'differentiable', 'fused'),
    "Adagrad": ('params', 'lr', 'lr_decay', 'weight_decay', 'initial_accumulator_value', 'eps', 'foreach', 'maximize', 'differentiable', 'fused'),
    "Adadelta": ('params', 'lr', 'rho', 'eps', 'weight_decay', 'foreach', 'capturable', 'maximize', 'differentiable'),
    "Adamax": ('params', 'lr', 'betas', 'eps', 'weight_decay', 'foreach', 'maximize', 'differentiable', 'capturable'),
    "NAdam": ('params', 'lr', 'betas', 'eps', 'weight_decay', 'momentum_decay', 'decoupled_weight_decay', 'foreach', 'maximize', 'capturable', 'differentiable'),
    "RAdam": ('params', 'lr', 'betas', 'eps', 'weight_decay', 'decoupled_weight_decay', 'foreach', 'maximize', 'capturable', 'differentiable'),
    "RMSprop": ('params', 'lr', 'alpha', 'eps', 'weight_decay', 'momentum', 'centered', 'capturable', 'foreach', 'maximize', 'differentiable'),
    "LBFGS": ('params', 'lr', 'max_iter', 'max_eval', 'tolerance_grad', 'tolerance_change', 'history_size', 'line_search_fn'),
    "Rprop": ('params', 'lr', 'etas', 'step_sizes', 'capturable', 'foreach', 'maximize', 'differentiable'),
    "ASGD": ('params', 'lr', 'lambd', 'alpha', 't0', 'weight_decay', 'foreach', 'maximize', 'differentiable', 'capturable'),
    "SparseAdam": ('params', 'lr', 'betas', 'eps', 'maximize'),
    "Adafactor": ('params', 'lr', 'beta2_decay', 'eps', 'd', 'weight_decay', 'foreach', 'maximize'),
}


# the defining modules' names of what torch.nn exports (`torch.nn.parameter.Parameter`,
# `torch.nn.modules.module.Module`): the same objects as torch.nn's (tests/engine/
# test_library_conformance.py checks each is, on the installed torch)
PUBLIC_NAMES: dict[str, str] = {
    "torch.nn.parameter.Parameter": "torch.nn.Parameter",
    "torch.nn.parameter.Buffer": "torch.nn.Buffer",
    "torch.nn.modules.module.Module": "torch.nn.Module",
    "torch.nn.modules.container.Sequential": "torch.nn.Sequential",
    "torch.nn.modules.container.ModuleList": "torch.nn.ModuleList",
    "torch.nn.modules.container.ModuleDict": "torch.nn.ModuleDict",
    "torch.nn.modules.linear.Linear": "torch.nn.Linear",
    "torch.nn.modules.conv.Conv2d": "torch.nn.Conv2d",
}
