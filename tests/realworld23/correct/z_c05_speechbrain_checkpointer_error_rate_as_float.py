"""Speech recognition recipe whose on_stage_end turns the np.mean validation error into a Python float before it goes into the checkpoint meta, so torch.load's weights_only default restores it
source: https://github.com/speechbrain/speechbrain/issues/2856
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

hparams = {"n_mels": 20, "n_tokens": 12, "lr": 1e-3, "number_of_epochs": 2, "save_folder": tempfile.mkdtemp()}


# ---- speechbrain/utils/checkpoints.py
class Checkpointer:
    def __init__(self, checkpoints_dir, recoverables):
        self.checkpoints_dir = checkpoints_dir
        self.recoverables = recoverables

    def save_and_keep_only(self, meta, name):
        path = os.path.join(self.checkpoints_dir, f"CKPT+{name}.ckpt")
        payload = {"meta": meta}
        payload.update({k: obj.state_dict() for k, obj in self.recoverables.items()})
        torch.save(payload, path)
        return path

    def recover_if_possible(self, path):
        ckpt = torch.load(path)
        for k, obj in self.recoverables.items():
            obj.load_state_dict(ckpt[k])
        return ckpt["meta"]


# ---- recipes/ASR/train.py
class ASRModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.GRU(hparams["n_mels"], 32, batch_first=True)
        self.out = nn.Linear(32, hparams["n_tokens"])

    def forward(self, feats):
        return self.out(self.enc(feats)[0])


class ASR:
    def __init__(self):
        self.modules = ASRModel()
        self.optimizer = torch.optim.Adam(self.modules.parameters(), lr=hparams["lr"])
        self.checkpointer = Checkpointer(hparams["save_folder"], {"model": self.modules, "optimizer": self.optimizer})

    def batches(self, n=4, seed=0):
        g = torch.Generator().manual_seed(seed)
        for _ in range(n):
            yield torch.randn(4, 30, hparams["n_mels"], generator=g), torch.randint(0, hparams["n_tokens"], (4, 30), generator=g)

    def fit_batch(self, feats, tokens):
        logits = self.modules(feats)
        loss = F.cross_entropy(logits.transpose(1, 2), tokens)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return (logits.argmax(-1) != tokens).float().mean(1).numpy()

    def on_stage_end(self, epoch, errors):
        stage_stats = {"error_rate": float(np.mean(errors))}
        return self.checkpointer.save_and_keep_only(meta={"error_rate": stage_stats["error_rate"], "epoch": epoch}, name=f"epoch{epoch}")

    def fit(self):
        path = None
        for epoch in range(hparams["number_of_epochs"]):
            errors = np.concatenate([self.fit_batch(f, t) for f, t in self.batches(seed=epoch)])
            path = self.on_stage_end(epoch, errors)
        return path


if __name__ == "__main__":
    torch.manual_seed(0)
    asr = ASR()
    best = asr.fit()
    meta = ASR().checkpointer.recover_if_possible(best)
    print("recovered epoch", meta["epoch"], "error rate", meta["error_rate"])
