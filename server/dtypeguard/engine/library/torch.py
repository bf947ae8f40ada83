"""torch functions and Tensor methods whose result follows from their inputs, as data.

Rows: (name, signature, result rule, probe). `{t}`/`{u}` in a probe stand for tensors of each
dtype the conformance test tries (2x2, CPU). Results keep the input's device. Overloaded
functions (`torch.max(x)` / `torch.max(x, dim)` / `torch.max(x, y)`), the factories that
follow the default dtype and device (`zeros`, `tensor`, ...), `.to(...)` and the module,
optimizer and data classes stay in `call_effects.py`: a signature cannot say what they do.
"""

from __future__ import annotations

from dtypeguard.engine.library.spec import (
    Entry,
    Result,
    divided,
    fixed,
    floating,
    promote,
    same,
    squared,
    summed,
    table,
)

T = "tensor"


def _integral(arg: str) -> Result:
    """floor/ceil/round/trunc: the dtype is kept, but the values are now whole numbers."""
    return Result("integral", T, arg=arg)


_X = "(input, *, out=None)"
_SAME = ("flatten", "squeeze", "unsqueeze", "t", "clone", "abs", "neg", "tril", "triu", "flip", "roll", "narrow", "index_select", "gather", "masked_fill", "repeat_interleave", "tile", "transpose", "permute", "reshape", "detach")
_SAME_SIG = {
    "flatten": "(input, start_dim=0, end_dim=-1)", "squeeze": "(input, dim=None)", "unsqueeze": "(input, dim)",
    "t": "(input)", "clone": "(input, *, memory_format=None)", "abs": _X, "neg": _X, "tril": "(input, diagonal=0, *, out=None)",
    "triu": "(input, diagonal=0, *, out=None)", "flip": "(input, dims)", "roll": "(input, shifts, dims=None)",
    "narrow": "(input, dim, start, length)", "index_select": "(input, dim, index, *, out=None)",
    "gather": "(input, dim, index, *, sparse_grad=False, out=None)", "masked_fill": "(input, mask, value)",
    "clamp": "(input, min=None, max=None, *, out=None)", "clip": "(input, min=None, max=None, *, out=None)",
    "repeat_interleave": "(input, repeats, dim=None, *, output_size=None)", "tile": "(input, dims)",
    "transpose": "(input, dim0, dim1)", "permute": "(input, dims)", "reshape": "(input, shape)", "detach": "(input)",
}
_SAME_PROBE = {
    "flatten": "torch.flatten({t})", "squeeze": "torch.squeeze({t})", "unsqueeze": "torch.unsqueeze({t}, 0)", "t": "torch.t({t})",
    "clone": "torch.clone({t})", "abs": "torch.abs({t})", "neg": "torch.neg({t})", "tril": "torch.tril({t})", "triu": "torch.triu({t})",
    "flip": "torch.flip({t}, [0])", "roll": "torch.roll({t}, 1)", "narrow": "torch.narrow({t}, 0, 0, 1)",
    "index_select": "torch.index_select({t}, 0, torch.tensor([0]))", "gather": "torch.gather({t}, 0, torch.tensor([[0, 1]]))",
    "masked_fill": "torch.masked_fill({t}, torch.ones(2, 2, dtype=torch.bool), 0)", "clamp": "torch.clamp({t}, 0, 1)",
    "clip": "torch.clip({t}, 0, 1)", "repeat_interleave": "torch.repeat_interleave({t}, 2)", "tile": "torch.tile({t}, (2,))",
    "transpose": "torch.transpose({t}, 0, 1)", "permute": "torch.permute({t}, (1, 0))", "reshape": "torch.reshape({t}, (4,))",
    "detach": "torch.detach({t})",
}
_FLOAT = ("exp", "log", "sqrt", "sin", "cos", "tan", "tanh", "sigmoid", "erf", "log1p", "expm1", "rsqrt", "reciprocal", "atan", "asin", "acos", "sinh", "cosh")
_FUNCTIONAL_SAME = {
    "relu": "(input, inplace=False)", "gelu": "(input, approximate='none')", "silu": "(input, inplace=False)",
    "leaky_relu": "(input, negative_slope=0.01, inplace=False)", "dropout": "(input, p=0.5, training=True, inplace=False)",
    "normalize": "(input, p=2.0, dim=1, eps=1e-12, out=None)", "pad": "(input, pad, mode='constant', value=None)",
    "softmax": "(input, dim=None, _stacklevel=3, dtype=None)", "log_softmax": "(input, dim=None, _stacklevel=3, dtype=None)",
    "elu": "(input, alpha=1.0, inplace=False)",
    "softplus": "(input, beta=1.0, threshold=20.0)", "mish": "(input, inplace=False)", "hardswish": "(input, inplace=False)",
    "hardsigmoid": "(input, inplace=False)", "relu6": "(input, inplace=False)", "selu": "(input, inplace=False)",
    "celu": "(input, alpha=1.0, inplace=False)", "logsigmoid": "(input)",
    "hardtanh": "(input, min_val=-1.0, max_val=1.0, inplace=False)",
    "max_pool2d": "(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False)",
    "avg_pool2d": "(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None)",
    "adaptive_avg_pool2d": "(input, output_size)",
    "interpolate": "(input, size=None, scale_factor=None, mode='nearest', align_corners=None, recompute_scale_factor=None, antialias=False)",
}
_FUNCTIONAL_PROBE = {
    "relu": "F.relu({t})", "gelu": "F.gelu({t})", "silu": "F.silu({t})", "leaky_relu": "F.leaky_relu({t})",
    "dropout": "F.dropout({t})", "normalize": "F.normalize({t})", "pad": "F.pad({t}, (1, 1))",
    "softmax": "F.softmax({t}, dim=1)", "log_softmax": "F.log_softmax({t}, dim=1)", "elu": "F.elu({t})",
    "softplus": "F.softplus({t})", "mish": "F.mish({t})", "hardswish": "F.hardswish({t})", "hardsigmoid": "F.hardsigmoid({t})",
    "relu6": "F.relu6({t})", "selu": "F.selu({t})", "celu": "F.celu({t})", "logsigmoid": "F.logsigmoid({t})",
    "hardtanh": "F.hardtanh({t})",
    "max_pool2d": "F.max_pool2d({t}[None, None], 2)", "avg_pool2d": "F.avg_pool2d({t}[None, None], 2)",
    "adaptive_avg_pool2d": "F.adaptive_avg_pool2d({t}[None, None], 1)", "interpolate": "F.interpolate({t}[None, None], scale_factor=2)",
}

FUNCTIONS: dict[str, Entry] = {
    **table("torch", [
        *[(name, _SAME_SIG[name], same(T, "input"), _SAME_PROBE[name]) for name in _SAME],
        *[(name, _X, floating(T, "input", ""), f"torch.{name}({{t}})") for name in _FLOAT],
        *[(name, "(input)", same(T, "input"), f"torch.{name}({{t}})") for name in ("relu", "sign", "sgn")],
        ("diag_embed", "(input, offset=0, dim1=-2, dim2=-1)", same(T, "input"), "torch.diag_embed({t})"),
        *[(name, "(input, dim, dtype=None)", floating(T, "input"), f"torch.{name}({{t}}, 1)") for name in ("softmax", "log_softmax")],
        ("pow", "(input, exponent, *, out=None)", promote(T, "input,exponent"), "torch.pow({t}, {u})"),
        ("div", "(input, other, *, rounding_mode=None, out=None)", divided(T, "input,other"), "torch.div({t}, {u})"),
        ("atan2", "(input, other, *, out=None)", floating(T, "input,other", ""), "torch.atan2({t}, {u})"),
        ("clamp", "(input, min=None, max=None, *, out=None)", promote(T, "input,min,max"), "torch.clamp({t}, 0, 1)"),
        ("clip", "(input, min=None, max=None, *, out=None)", promote(T, "input,min,max"), "torch.clip({t}, 0, 1)"),
        ("cat", "(tensors, dim=0, *, out=None)", promote(T, "tensors"), "torch.cat([{t}, {u}])"),
        ("concat", "(tensors, dim=0, *, out=None)", promote(T, "tensors"), "torch.concat([{t}, {u}])"),
        ("concatenate", "(tensors, axis=0, out=None)", promote(T, "tensors"), "torch.concatenate([{t}, {u}])"),
        ("stack", "(tensors, dim=0, *, out=None)", promote(T, "tensors"), "torch.stack([{t}, {u}])"),
        ("hstack", "(tensors, *, out=None)", promote(T, "tensors"), "torch.hstack([{t}, {u}])"),
        ("vstack", "(tensors, *, out=None)", promote(T, "tensors"), "torch.vstack([{t}, {u}])"),
        ("where", "(condition, input, other, *, out=None)", promote(T, "input,other"), "torch.where({t} > 0, {t}, {u})"),
        ("cosine_similarity", "(x1, x2, dim=1, eps=1e-08)", promote(T, "x1,x2"), "torch.cosine_similarity({t}, {u})"),
        ("matmul", "(input, other, *, out=None)", promote(T, "input,other"), "torch.matmul({t}, {u})"),
        ("mm", "(input, mat2, *, out=None)", promote(T, "input,mat2"), "torch.mm({t}, {u})"),
        # a product of several matrices: like `mm`, one dtype for all of them
        ("linalg.multi_dot", "(tensors, *, out=None)", promote(T, "tensors"), "torch.linalg.multi_dot([{t}, {u}])"),
        ("chain_matmul", "(*matrices, out=None)", promote(T, "matrices"), "torch.chain_matmul({t}, {u})"),
        # sparse tensors: the values' dtype; a sparse product, like a dense one, refuses mixed dtypes
        ("sparse_coo_tensor", "(indices, values, size=None, *, dtype=None, device=None, pin_memory=False, requires_grad=False, check_invariants=None, is_coalesced=None)",
         same(T, "values", "dtype"), "torch.sparse_coo_tensor(torch.tensor([[0], [0]]), {t}[0, :1], (1, 1)).to_dense()"),
        ("spmm", "(input, mat2)", promote(T, "input,mat2"), "torch.spmm({t}.to_sparse(), {u})"),
        ("sparse.mm", "(mat1, mat2, reduce=None)", promote(T, "mat1,mat2"), "torch.sparse.mm({t}.to_sparse(), {u})"),
        ("bmm", "(input, mat2, *, out=None)", promote(T, "input,mat2"), "torch.bmm({t}[None], {u}[None])"),
        ("outer", "(input, vec2, *, out=None)", promote(T, "input,vec2"), "torch.outer({t}[0], {u}[0])"),
        ("einsum", "(equation, *operands)", promote(T, "operands"), "torch.einsum('ij,jk->ik', {t}, {u})"),
        ("tensordot", "(a, b, dims=2, out=None)", promote(T, "a,b"), "torch.tensordot({t}, {u}, dims=1)"),
        ("inner", "(input, other, *, out=None)", promote(T, "input,other"), "torch.inner({t}, {u})"),
        ("dot", "(input, tensor, *, out=None)", promote(T, "input,tensor"), "torch.dot({t}[0], {u}[0])"),
        ("mean", "(input, dim=None, keepdim=False, *, dtype=None, out=None)", floating(T, "input"), "torch.mean({t})"),
        ("std", "(input, dim=None, *, correction=1, keepdim=False, out=None)", floating(T, "input", ""), "torch.std({t})"),
        ("var", "(input, dim=None, *, correction=1, keepdim=False, out=None)", floating(T, "input", ""), "torch.var({t})"),
        ("sum", "(input, dim=None, keepdim=False, *, dtype=None, out=None)", summed(T, "input"), "torch.sum({t})"),
        ("cumsum", "(input, dim, *, dtype=None, out=None)", summed(T, "input"), "torch.cumsum({t}, 0)"),
        ("prod", "(input, dim=None, keepdim=False, *, dtype=None)", summed(T, "input"), "torch.prod({t}, 1)"),
        ("cumprod", "(input, dim, *, dtype=None, out=None)", summed(T, "input"), "torch.cumprod({t}, 0)"),
        ("logsumexp", "(input, dim, keepdim=False, *, out=None)", floating(T, "input", ""), "torch.logsumexp({t}, 0)"),
        ("argmax", "(input, dim=None, keepdim=False)", fixed(T, "int64", ""), "torch.argmax({t})"),
        ("argmin", "(input, dim=None, keepdim=False)", fixed(T, "int64", ""), "torch.argmin({t})"),
        ("argsort", "(input, dim=-1, descending=False, stable=False)", fixed(T, "int64", ""), "torch.argsort({t})"),
        ("bucketize", "(input, boundaries, *, out_int32=False, right=False, out=None)", fixed(T, "int64", ""), "torch.bucketize({t}, torch.tensor([0.5]))"),
        *[(name, _X, _integral("input"), f"torch.{name}({{t}})") for name in ("floor", "ceil", "round", "trunc")],
        ("zeros_like", "(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None)", same(T, "input", "dtype"), "torch.zeros_like({t})"),
        ("ones_like", "(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None)", same(T, "input", "dtype"), "torch.ones_like({t})"),
        ("empty_like", "(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None)", same(T, "input", "dtype"), "torch.empty_like({t})"),
        ("full_like", "(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None)", same(T, "input", "dtype"), "torch.full_like({t}, 1)"),
        ("rand_like", "(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None)", same(T, "input", "dtype"), "torch.rand_like({t})"),
        ("randn_like", "(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None)", same(T, "input", "dtype"), "torch.randn_like({t})"),
        # often called in real training code (counted over the fetched repos), each probed
        ("maximum", "(input, other, *, out=None)", promote(T, "input,other"), "torch.maximum({t}, {u})"),
        ("minimum", "(input, other, *, out=None)", promote(T, "input,other"), "torch.minimum({t}, {u})"),
        ("mul", "(input, other, *, out=None)", promote(T, "input,other"), "torch.mul({t}, {u})"),
        ("add", "(input, other, *, alpha=1, out=None)", promote(T, "input,other"), "torch.add({t}, {u})"),
        ("sub", "(input, other, *, alpha=1, out=None)", promote(T, "input,other"), "torch.sub({t}, {u})"),
        ("lerp", "(input, end, weight, *, out=None)", promote(T, "input,end"), "torch.lerp({t}, {u}, 0.5)"),
        ("histc", "(input, bins=100, min=0, max=0, *, out=None)", same(T, "input"), "torch.histc({t})"),
        ("norm", "(input, p='fro', dim=None, keepdim=False, out=None, dtype=None)", floating(T, "input"), "torch.norm({t})"),
        ("diag", "(input, diagonal=0, *, out=None)", same(T, "input"), "torch.diag({t})"),
        ("diagonal", "(input, offset=0, dim1=0, dim2=1)", same(T, "input"), "torch.diagonal({t})"),
        ("cov", "(input, *, correction=1, fweights=None, aweights=None)", floating(T, "input", ""), "torch.cov({t})"),
        ("quantile", "(input, q, dim=None, keepdim=False, *, interpolation='linear', out=None)", same(T, "input"), "torch.quantile({t}, 0.5)"),
        ("amax", "(input, dim=(), keepdim=False, *, out=None)", same(T, "input"), "torch.amax({t})"),
        ("amin", "(input, dim=(), keepdim=False, *, out=None)", same(T, "input"), "torch.amin({t})"),
        ("movedim", "(input, source, destination)", same(T, "input"), "torch.movedim({t}, 0, 1)"),
        ("select", "(input, dim, index)", same(T, "input"), "torch.select({t}, 0, 0)"),
        ("square", "(input, *, out=None)", squared(T, "input"), "torch.square({t})"),  # (bool gives int64)
        ("logical_not", "(input, *, out=None)", fixed(T, "bool", "", "input"), "torch.logical_not({t})"),
        *[(name, "(input, other, *, out=None)", fixed(T, "bool", "", "input,other"), f"torch.{name}({{t}}, {{u}})") for name in ("logical_and", "logical_or", "logical_xor")],
        *[(name, "(input, other, *, out=None)", fixed(T, "bool", "", "input,other"), f"torch.{name}({{t}}, {{u}})") for name in ("eq", "ne", "gt", "ge", "lt", "le")],
        *[(name, "(input)", fixed(T, "bool", ""), f"torch.{name}({{t}})") for name in ("isnan", "isinf", "isfinite")],
        ("cdist", "(x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary')", promote(T, "x1,x2"), "torch.cdist({t}, {u})"),
        # linear algebra keeps the matrix's dtype; the decompositions give their factors as a tuple
        ("linalg.eigh", "(A, UPLO='L', *, out=None)", same("tensors2", "A"), "torch.linalg.eigh({t})[1]"),
        ("linalg.eigvalsh", "(A, UPLO='L', *, out=None)", same(T, "A"), "torch.linalg.eigvalsh({t})"),
        ("linalg.qr", "(A, mode='reduced', *, out=None)", same("tensors2", "A"), "torch.linalg.qr({t})[0]"),
        ("linalg.svd", "(A, full_matrices=True, *, driver=None, out=None)", same("tensors3", "A"), "torch.linalg.svd({t})[1]"),
        ("linalg.inv", "(A, *, out=None)", same(T, "A"), "torch.linalg.inv({t} + torch.eye(2, dtype={t}.dtype))"),
        ("linalg.pinv", "(A, *, atol=None, rtol=None, hermitian=False, out=None)", same(T, "A"), "torch.linalg.pinv({t})"),
        ("pinverse", "(input, rcond=1e-15, hermitian=False)", same(T, "input"), "torch.pinverse({t})"),
        ("inverse", "(input, *, out=None)", same(T, "input"), "torch.inverse({t} + torch.eye(2, dtype={t}.dtype))"),
        ("linalg.cholesky", "(A, *, upper=False, out=None)", same(T, "A"), "torch.linalg.cholesky({t} + torch.eye(2, dtype={t}.dtype))"),
        ("linalg.solve", "(A, B, *, left=True, out=None)", promote(T, "A,B"), "torch.linalg.solve({t} + torch.eye(2, dtype={t}.dtype), {u})"),
        ("linalg.vector_norm", "(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None)", floating(T, "x"), "torch.linalg.vector_norm({t})"),
    ]),
    **table("torch.nn.functional", [
        *[(name, sig, same(T, "input", "dtype" if "dtype=" in sig else ""), _FUNCTIONAL_PROBE[name]) for name, sig in _FUNCTIONAL_SAME.items()],
        ("one_hot", "(tensor, num_classes=-1)", fixed(T, "int64", "", "tensor"), "F.one_hot({t}.long().abs() % 2)"),
        # no promotion: input and weight must share a dtype (and a device), else they fail
        ("linear", "(input, weight, bias=None)", promote(T, "input,weight"), "F.linear({t}, {u})"),
        ("cosine_similarity", "(x1, x2, dim=1, eps=1e-08)", promote(T, "x1,x2"), "F.cosine_similarity({t}, {u})"),
        ("conv1d", "(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)", promote(T, "input,weight"), "F.conv1d({t}.reshape(1, 1, 4), {u}.reshape(1, 1, 4))"),
        ("conv2d", "(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)", promote(T, "input,weight"), "F.conv2d({t}.reshape(1, 1, 2, 2), {u}.reshape(1, 1, 2, 2))"),
        ("conv3d", "(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)", promote(T, "input,weight"), "F.conv3d({t}.reshape(1, 1, 2, 2, 1), {u}.reshape(1, 1, 2, 2, 1))"),
        ("sigmoid", "(input)", floating(T, "input", ""), "F.sigmoid({t})"),
        ("tanh", "(input)", floating(T, "input", ""), "F.tanh({t})"),
    ]),
    **table("torch.nn.utils.rnn", [
        # the first sequence's dtype (not a promotion: int32 then int64 gives int32): known when they share one
        ("pad_sequence", "(sequences, batch_first=False, padding_value=0.0, padding_side='right')", Result("alike", T, arg="sequences"),
         "torch.nn.utils.rnn.pad_sequence([{t}, {u}])"),
    ]),
}

_METHOD_SAME = ("view", "reshape", "unsqueeze", "squeeze", "permute", "transpose", "contiguous", "clone", "detach", "flatten", "t", "requires_grad_", "view_as", "reshape_as", "expand", "expand_as", "repeat", "abs", "relu", "neg", "flip", "roll", "narrow", "index_select", "masked_fill", "fill_", "zero_", "max", "min", "sign", "sgn", "unfold", "gather")
_METHOD_PROMOTE = {"clamp": "(self, min=None, max=None)", "clip": "(self, min=None, max=None)"}
_METHOD_PROBE = {
    "view": "{t}.view(4)", "reshape": "{t}.reshape(4)", "unsqueeze": "{t}.unsqueeze(0)", "squeeze": "{t}.squeeze()",
    "permute": "{t}.permute(1, 0)", "transpose": "{t}.transpose(0, 1)", "contiguous": "{t}.contiguous()", "clone": "{t}.clone()",
    "detach": "{t}.detach()", "flatten": "{t}.flatten()", "t": "{t}.t()", "requires_grad_": "{t}.float().requires_grad_()",
    "view_as": "{t}.view_as({t})", "reshape_as": "{t}.reshape_as({t})", "expand": "{t}.expand(2, 2)", "expand_as": "{t}.expand_as({t})",
    "repeat": "{t}.repeat(2, 1)", "abs": "{t}.abs()", "relu": "{t}.relu()", "neg": "{t}.neg()",
    "clamp": "{t}.clamp(0, 1)", "clip": "{t}.clip(0, 1)", "flip": "{t}.flip(0)", "roll": "{t}.roll(1)", "narrow": "{t}.narrow(0, 0, 1)",
    "index_select": "{t}.index_select(0, torch.tensor([0]))", "masked_fill": "{t}.masked_fill({t} > 0, 0)", "fill_": "{t}.clone().fill_(1)",
    "zero_": "{t}.clone().zero_()", "max": "{t}.max()", "min": "{t}.min()", "sign": "{t}.sign()", "sgn": "{t}.sgn()",
    "unfold": "{t}.unfold(0, 1, 1)", "gather": "{t}.gather(0, torch.tensor([[0, 1]]))",
}
_CASTS = {"float": "float32", "double": "float64", "half": "float16", "bfloat16": "bfloat16", "long": "int64", "int": "int32", "short": "int16", "byte": "uint8", "char": "int8", "bool": "bool"}

# ops whose result `torch.autocast` gives in its lower dtype (bfloat16/float16), whatever the
# float inputs: checked against CPU autocast by tests/engine/test_library_conformance.py.
# `inner` of two 1-D tensors takes the `dot` path, which CPU autocast leaves in float32, so
# the engine lowers `inner` only when both operands are known to be at least 2-D.
AUTOCAST_LOWERED = frozenset({"mm", "bmm", "matmul", "@", "addmm", "baddbmm", "einsum", "tensordot", "inner"})
AUTOCAST_KEPT = frozenset({"dot", "mv", "outer", "add", "mul"})  # (checked to stay float32 on CPU)

# The attention masks a Transformer stack tests for being causal (`_detect_is_causal_mask`):
# a causal one is replaced by `is_causal=True` when no key padding mask is given, so a CPU
# causal mask (`nn.Transformer.generate_square_subsequent_mask(n)` makes one) works with a
# model on the GPU (checked on an H200, torch 2.11; a zeros mask or a padding mask there fails).
# Position in the call, keyword, and the key padding mask that keeps the mask if given.
CAUSAL_MASK_ARGS: dict[str, tuple[tuple[int, str, str], ...]] = {
    "TransformerEncoder": ((1, "mask", "src_key_padding_mask"),),
    "TransformerDecoder": ((2, "tgt_mask", "tgt_key_padding_mask"),),
    "Transformer": ((2, "src_mask", "src_key_padding_mask"), (3, "tgt_mask", "tgt_key_padding_mask")),
}

METHODS: dict[str, Entry] = table("Tensor", [
    *[(name, "(self, *args, **kwargs)", same(T, "self"), _METHOD_PROBE[name]) for name in _METHOD_SAME],
    *[(name, sig, promote(T, "self,min,max"), _METHOD_PROBE[name]) for name, sig in _METHOD_PROMOTE.items()],
    *[(name, "(self, memory_format=None)", fixed(T, dtype, ""), f"{{t}}.{name}()") for name, dtype in _CASTS.items()],
    *[(name, "(self)", floating(T, "self", ""), f"{{t}}.{name}()") for name in ("exp", "log", "sqrt", "sigmoid", "tanh", "sin", "cos", "tan", "log1p", "expm1", "log2", "log10", "rsqrt", "exp2", "reciprocal", "erf", "atan", "asin", "acos", "sinh", "cosh")],
    ("to_dense", "(self, dtype=None, *, masked_grad=None)", same(T, "self", "dtype"), "{t}.to_sparse().to_dense()"),
    ("to_sparse", "(self, *args, **kwargs)", same(T, "self"), "{t}.to_sparse().to_dense()"),
    ("softmax", "(self, dim, dtype=None)", floating(T, "self"), "{t}.softmax(0)"),
    ("log_softmax", "(self, dim, dtype=None)", floating(T, "self"), "{t}.log_softmax(0)"),
    ("div", "(self, other, *, rounding_mode=None)", divided(T, "self,other"), "{t}.div({u})"),
    ("true_divide", "(self, other)", floating(T, "self,other", ""), "{t}.true_divide({u})"),
    ("mul", "(self, other)", promote(T, "self,other"), "{t}.mul({u})"),
    ("add", "(self, other, *, alpha=1)", promote(T, "self,other"), "{t}.add({u})"),
    ("sub", "(self, other, *, alpha=1)", promote(T, "self,other"), "{t}.sub({u})"),
    ("pow", "(self, exponent)", promote(T, "self,exponent"), "{t}.pow({u})"),
    ("mean", "(self, dim=None, keepdim=False, *, dtype=None)", floating(T, "self"), "{t}.mean()"),
    ("std", "(self, dim=None, *, correction=1, keepdim=False)", floating(T, "self", ""), "{t}.std()"),
    ("var", "(self, dim=None, *, correction=1, keepdim=False)", floating(T, "self", ""), "{t}.var()"),
    ("norm", "(self, p='fro', dim=None, keepdim=False, dtype=None)", floating(T, "self"), "{t}.norm()"),
    ("sum", "(self, dim=None, keepdim=False, *, dtype=None)", summed(T, "self"), "{t}.sum()"),
    ("cumsum", "(self, dim, *, dtype=None)", summed(T, "self"), "{t}.cumsum(0)"),
    ("cumprod", "(self, dim, *, dtype=None)", summed(T, "self"), "{t}.cumprod(0)"),
    ("argmax", "(self, dim=None, keepdim=False)", fixed(T, "int64", ""), "{t}.argmax()"),
    ("argmin", "(self, dim=None, keepdim=False)", fixed(T, "int64", ""), "{t}.argmin()"),
    ("argsort", "(self, dim=-1, descending=False)", fixed(T, "int64", ""), "{t}.argsort()"),
    ("nonzero", "(self, *, as_tuple=False)", fixed(T, "int64", ""), "{t}.nonzero()"),
    *[(name, "(self)", _integral("self"), f"{{t}}.{name}()") for name in ("floor", "ceil", "round", "trunc")],
    # in-place ops keep the tensor's dtype (they fail where the result would need another one)
    *[(name, "(self, *args, **kwargs)", same(T, "self"), f"{{t}}.clone().{name}({args})") for name, args in (
        ("clamp_", "0, 1"), ("clip_", "0, 1"), ("mul_", "{u}"), ("add_", "{u}"), ("sub_", "{u}"), ("div_", "{u}"), ("pow_", "2"),
        ("abs_", ""), ("neg_", ""), ("sqrt_", ""), ("exp_", ""), ("log_", ""), ("sigmoid_", ""), ("tanh_", ""), ("sin_", ""), ("cos_", ""),
        ("uniform_", ""), ("normal_", ""), ("masked_fill_", "{t} > 0, 0"), ("copy_", "{u}"),
    )],
    # `x.new_zeros(n, n)`: a new tensor of x's dtype (and device) unless `dtype=` says otherwise;
    # `new_tensor` too, whatever its data (a float mask of a half tensor is half)
    *[(name, f"(self, {size}, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False)", same(T, "self", "dtype"), f"{{t}}.{name}({probe})")
      for name, size, probe in (("new_zeros", "*size", "2, 3"), ("new_ones", "*size", "2"), ("new_empty", "*size", "(2, 3)"),
                                ("new_full", "size, fill_value", "(2,), 7"), ("new_tensor", "data", "[[1, 2]]"))],
    # often called in real training code (counted over the fetched repos), each probed
    ("type_as", "(self, other)", same(T, "other"), "{t}.type_as({u})"),  # other's dtype (and device)
    ("unflatten", "(self, dim, sizes)", same(T, "self"), "{t}.reshape(4).unflatten(0, (2, 2))"),
    ("select", "(self, dim, index)", same(T, "self"), "{t}.select(0, 0)"),
    ("movedim", "(self, source, destination)", same(T, "self"), "{t}.movedim(0, 1)"),
    ("swapaxes", "(self, axis0, axis1)", same(T, "self"), "{t}.swapaxes(0, 1)"),
    ("diag", "(self, diagonal=0)", same(T, "self"), "{t}.diag()"),
    ("diagonal", "(self, offset=0, dim1=0, dim2=1)", same(T, "self"), "{t}.diagonal()"),
    ("tril", "(self, diagonal=0)", same(T, "self"), "{t}.tril()"),
    ("triu", "(self, diagonal=0)", same(T, "self"), "{t}.triu()"),
    ("repeat_interleave", "(self, repeats, dim=None, *, output_size=None)", same(T, "self"), "{t}.repeat_interleave(2)"),
    ("tile", "(self, dims)", same(T, "self"), "{t}.tile((2,))"),
    ("amax", "(self, dim=(), keepdim=False)", same(T, "self"), "{t}.amax()"),
    ("amin", "(self, dim=(), keepdim=False)", same(T, "self"), "{t}.amin()"),
    ("square", "(self)", squared(T, "self"), "{t}.square()"),
    ("where", "(self, condition, other)", promote(T, "self,other"), "{t}.where({t} > 0, {u})"),
    ("prod", "(self, dim=None, keepdim=False, *, dtype=None)", summed(T, "self"), "{t}.prod()"),
    ("logsumexp", "(self, dim, keepdim=False)", floating(T, "self", ""), "{t}.logsumexp(0)"),
    ("clamp_min", "(self, min)", promote(T, "self,min"), "{t}.clamp_min(0)"),
    ("logical_not", "(self)", fixed(T, "bool", ""), "{t}.logical_not()"),
    *[(name, "(self, other)", fixed(T, "bool", ""), f"{{t}}.{name}({{u}})") for name in ("logical_and", "logical_or", "logical_xor")],
    # comparisons as methods (`token_ids.gt(0)`, `labels.eq(pad)`): a bool mask, as the operators give
    *[(name, "(self, other)", fixed(T, "bool", ""), f"{{t}}.{name}({{u}})") for name in ("eq", "ne", "gt", "ge", "lt", "le")],
    *[(name, "(self)", fixed(T, "bool", ""), f"{{t}}.{name}()") for name in ("isnan", "isinf", "isfinite")],
    ("clamp_max", "(self, max)", promote(T, "self,max"), "{t}.clamp_max(1)"),
    ("item", "(self)", same("pyscalar", "self"), "torch.tensor([{t}[0, 0].item()])"),
    ("tolist", "(self)", same("pylist", "self"), "torch.tensor({t}.tolist())"),
])


# `torch.finfo(dtype)`'s numbers (tests/engine/test_library_conformance.py compares each with torch)
FINFO: dict[str, dict[str, float]] = {
    "float16": {"max": 65504.0, "min": -65504.0, "eps": 0.0009765625, "tiny": 6.103515625e-05},
    "bfloat16": {"max": 3.3895313892515355e38, "min": -3.3895313892515355e38, "eps": 0.0078125, "tiny": 1.1754943508222875e-38},
    "float32": {"max": 3.4028234663852886e38, "min": -3.4028234663852886e38, "eps": 1.1920928955078125e-07, "tiny": 1.1754943508222875e-38},
    "float64": {"max": 1.7976931348623157e308, "min": -1.7976931348623157e308, "eps": 2.220446049250313e-16, "tiny": 2.2250738585072014e-308},
}
