"""from_pretrained(torch_dtype=torch.float16) sets the global default dtype, the checkpoint load then fails and the reset never runs; the fallback model built afterwards is silently float16
source: https://github.com/huggingface/transformers/issues/28461
reported-error: silent: PyTorch's default dtype stays at the "wrong" value after an exception while loading a model, breaking later code
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Float and Half at line 22
root-cause: line 28
expect: DG001
"""
import os
import tempfile

import torch
import torch.nn as nn


class SentimentHead(nn.Module):
    def __init__(self, dim=32, n_labels=2):
        super().__init__()
        self.pre = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, n_labels)

    def forward(self, x):
        return self.out(torch.tanh(self.pre(x)))  # fails-here

    @classmethod
    def from_pretrained(cls, path, torch_dtype=None):
        if torch_dtype is not None:
            dtype_orig = torch.get_default_dtype()
            torch.set_default_dtype(torch_dtype)  # root-cause
        model = cls()
        state_dict = torch.load(os.path.join(path, "pytorch_model.bin"), map_location="cpu")
        model.load_state_dict(state_dict)
        if torch_dtype is not None:
            torch.set_default_dtype(dtype_orig)
        return model


def load_model(path):
    try:
        return SentimentHead.from_pretrained(path, torch_dtype=torch.float16)
    except (OSError, RuntimeError) as err:
        print("could not load pretrained head (%s), training from scratch" % type(err).__name__)
        return SentimentHead()


def main():
    ckpt_dir = tempfile.mkdtemp()  # empty: the download did not happen
    model = load_model(ckpt_dir)
    print("parameter dtype:", next(model.parameters()).dtype)
    features = torch.randn(64, 32, dtype=torch.float32)  # sentence embeddings from an fp32 encoder
    labels = torch.randint(0, 2, (64,))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for epoch in range(3):
        loss = nn.functional.cross_entropy(model(features).float(), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
