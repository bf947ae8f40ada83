"""The X-ARES-style clip-level probe of az02 (jimbozhang/xares PR #24) with the PR's fix: cast_to_tensor returns y.long() for integer targets, so the int32 labels that collate_with_lengths_wds builds on Windows/NumPy 1.x reach the Mlp's CrossEntropyLoss as int64; the int32 collate (np.array of Python ints under the platform's 32-bit default), torch.tensor of that int32 array and the float32 embeddings are kept
source: https://github.com/jimbozhang/xares/pull/24
reported-error: (none filed; the fixed situation of az02)
outcome: ok
root-cause: -
expect: none
"""
from typing import Iterable, List

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)

# The report is from Windows with NumPy 1.x, where the default integer (C long) is 32 bits, so np.array of
# Python ints is int32 there. This run is Linux + NumPy 2 (int64 default): the platform's default is applied here.
PLATFORM_DEFAULT_INT = np.int32


def np_array_platform(seq):
    arr = np.array(seq)
    return arr.astype(PLATFORM_DEFAULT_INT) if arr.dtype.kind == "i" else arr


def pad(tensorlist: List[torch.Tensor], padding_value: float = 0.0):
    lengths = [t.shape[-1] for t in tensorlist]
    out_dims = (len(tensorlist),) + tensorlist[0].shape[:-1] + (max(lengths),)
    out_tensor = torch.full(out_dims, fill_value=padding_value, dtype=tensorlist[0].dtype)
    for i, tensor in enumerate(tensorlist):
        out_tensor[i, ..., : tensor.shape[-1]] = tensor
    return out_tensor, torch.as_tensor(lengths)


def collate_with_lengths_wds(samples: List[Iterable], combine_scalars=True, flatten=True, combine_tensors=True):
    """xares.audiowebdataset.collate_with_lengths_wds: scalars and arrays are stacked with np.array."""
    batched = list(zip(*samples))
    result = []
    for b in batched:
        if isinstance(b[0], (int, float)):
            if combine_scalars:
                b = np_array_platform(list(b))
        elif isinstance(b[0], torch.Tensor):
            if combine_tensors:
                b = pad(list(b))
        elif isinstance(b[0], np.ndarray):
            if combine_tensors:
                b = np_array_platform(list(b))
        else:
            b = list(b)
        if flatten and not isinstance(b, list):
            result.extend(b)
        else:
            result.append(b)
    return result


def length_to_mask(length):
    idx = torch.arange(length.amax().item(), device=length.device)
    return idx.unsqueeze(0) < length.unsqueeze(-1)


def masked_mean(x, x_length, dim: int = -1):
    mask = length_to_mask(x_length)
    mask = mask.view((len(mask),) + (1,) * (x.ndim - 2) + (mask.shape[-1],))
    return (x * mask).sum(dim) / mask.sum(dim)


def cast_to_tensor(y: Iterable):
    y = y if isinstance(y, torch.Tensor) else torch.tensor(y)
    return y.float() if y.is_floating_point() else y.long()


def prepare_clip_task_batch(batch, device="cpu"):
    (x, x_length), y, _ = batch
    x = masked_mean(x, x_length=x_length, dim=-1)
    y = cast_to_tensor(y)
    return x.to(device), y.to(device)


class Mlp(nn.Module):
    """xares.models.simple.Mlp: LayerNorm + Linear probe, the criterion named in the task config."""

    def __init__(self, in_features, out_features=None, criterion="CrossEntropyLoss"):
        super().__init__()
        out_features = out_features or in_features
        self.ln = nn.LayerNorm(in_features)
        self.fc = nn.Linear(in_features, out_features)
        self.criterion = getattr(nn, criterion)() if isinstance(criterion, str) else criterion

    def forward(self, x, y=None, return_loss=False):
        x = self.fc(self.ln(x))
        if y is not None and return_loss:
            return self.criterion(x, y)
        return x, y


class Trainer:
    """The train step of xares.trainer.Trainer (ignite engine left out)."""

    def __init__(self, model, lr=3e-3, max_epochs=3):
        self.model, self.max_epochs = model, max_epochs
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.prepare_batch_function = prepare_clip_task_batch

    def train_step(self, batch):
        self.model.train()
        self.optimizer.zero_grad()
        loss = self.model(*self.prepare_batch_function(batch, "cpu"), return_loss=True)
        loss.backward()
        self.optimizer.step()
        return {"loss": loss.item()}

    def run(self, dl_train):
        for epoch in range(self.max_epochs):
            for batch in dl_train:
                out = self.train_step(batch)
            print(f"epoch {epoch + 1}: loss {out['loss']:.4f}")


# An ESC-50-like clip task: the encoded shards hold (embedding (D, T), {"target": class name}, key) per clip.
CLASSES = ["dog", "rain", "siren", "clock_tick", "crackling_fire"]
label_processor = lambda x: CLASSES.index(x["target"])  # noqa: E731  (task config: class name -> index)
D = 48
shard = []
for i in range(40):
    T = int(rng.integers(20, 40))
    emb = torch.from_numpy(rng.standard_normal((D, T)).astype(np.float32))
    shard.append((emb, label_processor({"target": CLASSES[i % len(CLASSES)]}), f"clip-{i:03d}"))


def make_loader(samples, batch_size=8):
    for start in range(0, len(samples), batch_size):
        yield collate_with_lengths_wds(samples[start:start + batch_size], flatten=False)


trainer = Trainer(Mlp(in_features=D, out_features=len(CLASSES), criterion="CrossEntropyLoss"))
trainer.run(list(make_loader(shard)))
