"""Generate `server/dtypeguard/engine/library/refusals.py` by running the real torch.

Which dtypes torch operations refuse outright, and the words they refuse with: `x.mean()` of
an integer tensor, `torch.randn_like` of token ids, `argmax` of a bool mask, `masked_select`
with a long mask, `1 - mask` of a bool mask, a long `key_padding_mask`. The engine never
imports torch; `tests/engine/test_library_conformance.py` regenerates the table in memory and
fails when the committed file differs from what the installed torch does.

Usage: .venv/bin/python tools/gen_refusals.py [--check]
"""

from __future__ import annotations

import pathlib
import sys
import warnings
from collections.abc import Callable

OUT = pathlib.Path(__file__).resolve().parents[1] / "server/dtypeguard/engine/library/refusals.py"
DTYPES = ("int64", "int32", "int16", "int8", "uint8", "bool", "float16", "bfloat16", "float32", "float64")

# what each key stands for (the engine's name for the call) -> (what is refused, a probe that
# calls it with a tensor of the dtype in that role)
#   input: the tensor the operation works on; mask: its mask or condition; padding: a
#   Transformer forward's padding mask
Probe = Callable[[object], object]


def probes() -> dict[str, tuple[str, Probe]]:
    import torch
    import torch.nn.functional as F
    from torch import nn

    def x(t: torch.Tensor) -> torch.Tensor:
        return t

    ones = torch.ones(2, 3)

    def spd(t: torch.Tensor) -> torch.Tensor:  # a symmetric positive definite 3x3 of the dtype
        return (torch.eye(3) * 2 + 0.1).to(t.dtype)

    mha = nn.MultiheadAttention(4, 2)
    encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8), 1, enable_nested_tensor=False)
    decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(4, 2, 8), 1)
    seq = torch.ones(3, 2, 4)
    return {
        "mean": ("input", lambda t: x(t).mean()),
        "std": ("input", lambda t: x(t).std()),
        "var": ("input", lambda t: x(t).var()),
        "quantile": ("input", lambda t: x(t).quantile(0.5)),
        "softmax": ("input", lambda t: x(t).softmax(-1)),
        "log_softmax": ("input", lambda t: x(t).log_softmax(-1)),
        "norm": ("input", lambda t: x(t).norm()),
        "normalize": ("input", lambda t: F.normalize(x(t), dim=-1)),
        "randn_like": ("input", lambda t: torch.randn_like(x(t))),
        "rand_like": ("input", lambda t: torch.rand_like(x(t))),
        "normal_": ("input", lambda t: x(t).clone().normal_()),
        "uniform_": ("input", lambda t: x(t).clone().uniform_()),
        "multinomial": ("input", lambda t: torch.multinomial(x(t).flatten(), 1)),
        "cdist": ("input", lambda t: torch.cdist(x(t), x(t))),
        # the scores a class-index loss is given (`loss_fn(pred.long(), y)`, set 81)
        "cross_entropy": ("input", lambda t: F.cross_entropy(x(t), torch.tensor([0, 1]))),
        "nll_loss": ("input", lambda t: F.nll_loss(x(t), torch.tensor([0, 1]))),
        "argmax": ("input", lambda t: x(t).argmax()),
        "argmin": ("input", lambda t: x(t).argmin()),
        "topk": ("input", lambda t: x(t).topk(1)),
        "median": ("input", lambda t: x(t).median()),
        "neg": ("input", lambda t: -x(t)),
        "sub": ("input", lambda t: 1 - x(t)),
        # linear algebra and FFTs: no CPU kernels for half precision (nor for integers)
        "cholesky": ("input", lambda t: torch.linalg.cholesky(spd(t))),
        "inverse": ("input", lambda t: torch.linalg.inv(spd(t))),
        "det": ("input", lambda t: torch.linalg.det(spd(t))),
        "slogdet": ("input", lambda t: torch.linalg.slogdet(spd(t))),
        "logdet": ("input", lambda t: torch.logdet(spd(t))),
        "svd": ("input", lambda t: torch.linalg.svd(spd(t))),
        "qr": ("input", lambda t: torch.linalg.qr(spd(t))),
        "eigh": ("input", lambda t: torch.linalg.eigh(spd(t))),
        "solve": ("input", lambda t: torch.linalg.solve(spd(t), spd(t))),
        "fft": ("input", lambda t: torch.fft.fft(x(t))),
        "rfft": ("input", lambda t: torch.fft.rfft(x(t))),
        "MultivariateNormal": ("input", lambda t: torch.distributions.MultivariateNormal(torch.zeros(3, dtype=t.dtype), covariance_matrix=spd(t))),
        "Parameter": ("input", lambda t: nn.Parameter(x(t))),
        "requires_grad": ("input", lambda t: torch.zeros(2, dtype=x(t).dtype, requires_grad=True)),
        "requires_grad_": ("input", lambda t: x(t).clone().requires_grad_()),
        "masked_select": ("mask", lambda t: ones.masked_select(x(t))),
        "masked_fill": ("mask", lambda t: ones.masked_fill(x(t), 0.0)),
        "masked_fill_": ("mask", lambda t: ones.clone().masked_fill_(x(t), 0.0)),
        "masked_scatter": ("mask", lambda t: ones.masked_scatter(x(t), torch.ones(6))),
        "masked_scatter_": ("mask", lambda t: ones.clone().masked_scatter_(x(t), torch.ones(6))),
        "where": ("mask", lambda t: torch.where(x(t), ones, ones)),
        "key_padding_mask": ("padding", lambda t: mha(seq, seq, seq, key_padding_mask=x(t)[:, :3])),
        "src_key_padding_mask": ("padding", lambda t: encoder(seq, src_key_padding_mask=x(t)[:, :3])),
        "memory_key_padding_mask": ("padding", lambda t: decoder(seq, seq, memory_key_padding_mask=x(t)[:, :3])),
        "tgt_key_padding_mask": ("padding", lambda t: decoder(seq, seq, tgt_key_padding_mask=x(t)[:, :3])),
    }


def tables() -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    import torch

    warnings.filterwarnings("ignore")
    roles: dict[str, str] = {}
    refused: dict[str, dict[str, str]] = {}
    for key, (role, probe) in probes().items():
        roles[key] = role
        refused[key] = {}
        for name in DTYPES:
            dtype = getattr(torch, name)
            value = torch.ones(2, 3, dtype=dtype) if role != "mask" or name != "bool" else torch.ones(2, 3, dtype=torch.bool)
            if role == "padding" and name != "bool":
                value = torch.zeros(2, 3, dtype=dtype)
            try:
                probe(value)
            except Exception as error:
                refused[key][name] = f"{type(error).__name__}: {str(error).splitlines()[0]}"
    return roles, refused


def render(roles: dict[str, str], refused: dict[str, dict[str, str]]) -> str:
    lines = [
        '"""The dtypes torch operations refuse, and what they raise. GENERATED by tools/gen_refusals.py',
        "from the installed torch (CPU); do not edit by hand (the conformance test regenerates it).",
        "ROLES: which argument is refused (input: the tensor worked on; mask: its mask or condition;",
        'padding: a Transformer forward\'s padding mask)."""',
        "",
        "from __future__ import annotations",
        "",
        "ROLES: dict[str, str] = {",
        *(f"    {k!r}: {v!r}," for k, v in roles.items()),
        "}",
        "REFUSED: dict[str, dict[str, str]] = {",
    ]
    for key, by_dtype in refused.items():
        lines.append(f"    {key!r}: {{")
        lines.extend(f"        {d!r}: {e!r}," for d, e in by_dtype.items())
        lines.append("    },")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> int:
    text = render(*tables())
    if "--check" in sys.argv:
        same = OUT.read_text() == text
        print("up to date" if same else f"{OUT} differs from the installed torch")
        return 0 if same else 1
    OUT.write_text(text)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
