"""The ALF LoRA evaluation of cl05 as PR #1521 fixes it: LoRA takes dtype = next(m.parameters()).dtype and creates _wA/_wB with torch.zeros(..., dtype=dtype), so the adapters of the bfloat16 base model are bfloat16, load_state_dict copies the float32 adapter checkpoint into them, and the unmerged and merged models score the held-out token ids alike
source: https://github.com/HorizonRobotics/alf/pull/1521
reported-error: (none; the fixed situation of cl05)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile
import types
from typing import Callable, List, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class LoRA(nn.Module):
    """Base class for LoRA (Low-Rank Adaptation): h = W_0 x + (alpha / r) B A x."""

    def __init__(self, m: nn.Module, rank: int = 16, weight: float = 1., name: str = 'LoRA'):
        super().__init__()
        for para in m.parameters():
            para.requires_grad = False
        self._name = name
        self._r = rank
        self._alpha = weight
        # place ``m`` in a list to avoid pytorch recursive tracking
        self._m = [m]
        dtype = next(m.parameters()).dtype
        self._merged = False

        # LoRA weight mats
        self._wA = None
        self._wB = None  # optional; only present if m.weight is huge
        nrows, ncols = self._decompose_weight_dims(m)
        if rank > ncols * nrows / (nrows + ncols):
            self._wA = nn.Parameter(torch.zeros(nrows, ncols, dtype=dtype))
        else:
            self._wA = nn.Parameter(torch.zeros(rank, ncols, dtype=dtype))
            self._wB = nn.Parameter(torch.zeros(nrows, rank, dtype=dtype))
        self.reset_parameters()
        self._adapt(m)

    def reset_parameters(self):
        if self._wB is None:
            nn.init.zeros_(self._wA)
        else:
            nn.init.xavier_uniform_(self._wA)
            nn.init.zeros_(self._wB)

    def _adapter_weight(self):
        w = self._wA
        if self._wB is not None:
            w = self._wB @ w
        w = w.reshape(self._m[0].weight.shape)
        return w * self.scaling

    @property
    def scaling(self) -> float:
        scaling = self._alpha
        if self._wB is not None:
            scaling /= self._r
        return scaling

    def _adapt(self, m: nn.Module):
        assert not hasattr(m, '_forward0'), "The module has already been adapted!"
        forward0 = m.forward
        adapter_forward = self.forward

        def _unmerged_forward(self, input):
            return forward0(input) + adapter_forward(input)

        m.forward = types.MethodType(_unmerged_forward, m)
        m._unmerged_forward = m.forward
        m._forward0 = forward0

    def merge(self):
        if self._merged:
            return
        m = self._m[0]
        m.weight.data.add_(self._adapter_weight())
        m.forward = m._forward0
        self._merged = True

    @classmethod
    def _decompose_weight_dims(cls, m: nn.Module) -> Tuple[int]:
        raise NotImplementedError()


class LinearAdapter(LoRA):
    """Adapter for linear layers."""

    @classmethod
    def can_adapt(cls, m: nn.Module) -> bool:
        return isinstance(m, nn.Linear)

    @classmethod
    def _decompose_weight_dims(cls, m: nn.Module):
        return m.out_features, m.in_features

    def forward(self, input):
        input = input @ self._wA.t()
        if self._wB is not None:
            input = input @ self._wB.t()
        return input * self.scaling


class PretraindModel(nn.Module):
    """A wrapper class for managing pretrained models: the base weights are frozen and only the adapters are
    trained, saved and loaded."""

    def __init__(self, model: nn.Module, adapter_cls: List[Callable] = [], name: str = 'PretrainedModel'):
        super().__init__()
        for para in model.parameters():
            para.requires_grad = False
        self._model = model
        self._adapters = nn.ModuleList()
        for m in self._model.modules():
            for acls in adapter_cls:
                if acls.can_adapt(m):
                    self._adapters.append(acls(m))
        self._name = name

    def merge_adapter(self):
        for a in self._adapters:
            a.merge()

    def forward(self, input):
        return self._model(input)

    def state_dict(self, *args, **kwargs):
        """Only the adapters' state dict: the large base model stays out of the checkpoints."""
        return self._adapters.state_dict(*args, **kwargs)

    def load_state_dict(self, *args, **kwargs):
        return self._adapters.load_state_dict(*args, **kwargs)


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln_1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.ln_2 = nn.LayerNorm(d)
        self.fc_in = nn.Linear(d, 4 * d)
        self.fc_out = nn.Linear(4 * d, d)

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = (t.view(b, s, self.heads, -1).transpose(1, 2) for t in self.qkv(self.ln_1(x)).chunk(3, -1))
        att = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.out(att.transpose(1, 2).reshape(b, s, d))
        return x + self.fc_out(F.gelu(self.fc_in(self.ln_2(x))))


class TinyLM(nn.Module):
    """The pretrained decoder-only LM (2 pre-LN blocks, 128-token vocabulary)."""

    def __init__(self, vocab=128, d=64, heads=4, layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, ids):
        x = self.embed(ids)
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.ln_f(x))


def load_pretrained(dtype):
    torch.manual_seed(1)  # the released weights
    return TinyLM().to(dtype)


def earlier_adapter_checkpoint(path):
    """What the earlier fine-tuning run left: PretraindModel.state_dict() of float32 adapters."""
    base = TinyLM()
    tuned = PretraindModel(base, [LinearAdapter])
    with torch.no_grad():
        for a in tuned._adapters:
            if a._wB is not None:
                a._wB.normal_(0, 0.02)
    torch.save(tuned.state_dict(), path)


@torch.no_grad()
def evaluate(model, batches):
    nll, n = 0.0, 0
    for ids in batches:
        logits = model(ids[:, :-1])
        nll += F.cross_entropy(logits.float().flatten(0, 1), ids[:, 1:].flatten(), reduction="sum").item()
        n += ids[:, 1:].numel()
    return nll / n


def main():
    ckpt = os.path.join(tempfile.mkdtemp(), "adapters.pt")
    earlier_adapter_checkpoint(ckpt)

    pretrained = PretraindModel(load_pretrained(torch.bfloat16), [LinearAdapter])
    pretrained.load_state_dict(torch.load(ckpt, map_location="cpu"))
    pretrained.eval()
    print(f"{len(pretrained._adapters)} LoRA adapters loaded from {os.path.basename(ckpt)}")

    g = torch.Generator().manual_seed(2)
    batches = [torch.randint(0, 128, (4, 33), generator=g) for _ in range(3)]
    ppl = torch.exp(torch.tensor(evaluate(pretrained, batches)))
    print(f"held-out perplexity with unmerged adapters: {ppl:.2f}")
    pretrained.merge_adapter()
    ppl_merged = torch.exp(torch.tensor(evaluate(pretrained, batches)))
    print(f"held-out perplexity with merged adapters: {ppl_merged:.2f}")


if __name__ == "__main__":
    main()
