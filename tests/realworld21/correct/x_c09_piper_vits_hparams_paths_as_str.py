"""VITS voice training whose hyper_parameters keep the dataset paths as strings (str(path)), so resuming with the default weights_only torch.load accepts the checkpoint
source: https://github.com/rhasspy/piper/issues/718
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import io
import tempfile
from pathlib import Path

import torch
import torch.nn as nn


# ---- piper_train/vits/lightning.py
class VitsModel(nn.Module):
    def __init__(self, num_symbols=64, hidden=32, dataset=None, sample_rate=22050):
        super().__init__()
        self.hparams = {"num_symbols": num_symbols, "hidden": hidden, "dataset": dataset, "sample_rate": sample_rate}
        self.enc = nn.Embedding(num_symbols, hidden)
        self.dec = nn.GRU(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 80)

    def forward(self, phonemes):
        h, _ = self.dec(self.enc(phonemes))
        return self.out(h)


def training_step(model, optimizer, g):
    phonemes = torch.randint(0, 64, (4, 20), generator=g)
    mels = torch.randn(4, 20, 80, generator=g)
    loss = nn.functional.l1_loss(model(phonemes), mels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def save_checkpoint(model, optimizer, epoch, buf):
    torch.save({"epoch": epoch, "state_dict": model.state_dict(), "optimizer_states": [optimizer.state_dict()], "hyper_parameters": model.hparams}, buf)


# ---- piper_train/__main__.py
def main():
    cache_dir = Path(tempfile.mkdtemp())
    dataset = [str(cache_dir / "dataset.jsonl")]
    g = torch.Generator().manual_seed(0)
    model = VitsModel(dataset=dataset)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)
    for epoch in range(2):
        print(f"epoch {epoch}: loss {training_step(model, optimizer, g):.4f}")
    buf = io.BytesIO()
    save_checkpoint(model, optimizer, 1, buf)

    buf.seek(0)
    ckpt = torch.load(buf)
    resumed = VitsModel(**ckpt["hyper_parameters"])
    resumed.load_state_dict(ckpt["state_dict"])
    print("resumed at epoch", ckpt["epoch"])


if __name__ == "__main__":
    main()
