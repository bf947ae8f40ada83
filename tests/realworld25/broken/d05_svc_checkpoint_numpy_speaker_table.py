"""so-vits-svc-fork-style voice conversion: save_checkpoint() stores the speaker-embedding table and the f0 statistics as numpy arrays next to the generator state_dict, and the inference-side load_checkpoint() (torch.load with the weights_only default of torch >= 2.6) refuses to unpickle them
source: https://github.com/voicepaw/so-vits-svc-fork/issues/348
reported-error: UnpicklingError: Weights only load failed. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. WeightsUnpickler error: Unsupported class numpy.core.multiarray._reconstruct
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an allowed global by default. ... at line 47
root-cause: line 42
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn

HPARAMS = {"train": {"learning_rate": 2e-4, "epochs": 2, "batch_size": 4},
           "data": {"n_mels": 16, "hop_length": 64}, "model": {"hidden": 32, "n_speakers": 3, "gin": 8}}
LOG_DIR = tempfile.mkdtemp()


# ---- models.py
class SynthesizerTrn(nn.Module):
    def __init__(self, n_mels, hidden, n_speakers, gin):
        super().__init__()
        self.emb_g = nn.Embedding(n_speakers, gin)
        self.enc_p = nn.Conv1d(n_mels + 1, hidden, 3, padding=1)
        self.cond = nn.Linear(gin, hidden)
        self.dec = nn.Conv1d(hidden, n_mels, 3, padding=1)

    def forward(self, mel, f0, sid):
        g = self.cond(self.emb_g(sid)).unsqueeze(-1)
        h = torch.relu(self.enc_p(torch.cat([mel, f0.unsqueeze(1)], dim=1)) + g)
        return self.dec(h)


# ---- utils.py
def save_checkpoint(model, optimizer, learning_rate, iteration, speaker_stats, checkpoint_path):
    torch.save({
        "model": model.state_dict(),
        "iteration": iteration,
        "optimizer": optimizer.state_dict(),
        "learning_rate": learning_rate,
        "spk_f0_mean": speaker_stats,  # root-cause
    }, checkpoint_path)


def load_checkpoint(checkpoint_path, model):
    checkpoint_dict = torch.load(checkpoint_path, map_location="cpu")  # fails-here
    model.load_state_dict(checkpoint_dict["model"])
    return model, checkpoint_dict["spk_f0_mean"], checkpoint_dict["iteration"]


# ---- train.py
def train(hps):
    rng = np.random.default_rng(0)
    m = hps["model"]
    net_g = SynthesizerTrn(hps["data"]["n_mels"], m["hidden"], m["n_speakers"], m["gin"])
    optim_g = torch.optim.AdamW(net_g.parameters(), hps["train"]["learning_rate"], betas=(0.8, 0.99))
    f0_table = rng.uniform(100.0, 300.0, size=(m["n_speakers"], 200))
    spk_f0_mean = f0_table.mean(axis=1)
    for epoch in range(hps["train"]["epochs"]):
        mel = torch.randn(hps["train"]["batch_size"], hps["data"]["n_mels"], 40)
        sid = torch.randint(0, m["n_speakers"], (hps["train"]["batch_size"],))
        f0 = torch.from_numpy(f0_table[sid.numpy(), :40]).float() / 300.0
        loss = nn.functional.l1_loss(net_g(mel, f0, sid), mel)
        optim_g.zero_grad()
        loss.backward()
        optim_g.step()
        print(f"epoch {epoch} loss_mel {loss.item():.4f}")
    path = os.path.join(LOG_DIR, "G_200.pth")
    save_checkpoint(net_g, optim_g, hps["train"]["learning_rate"], 200, spk_f0_mean, path)
    return path


# ---- inference/infer_tool.py
class Svc:
    def __init__(self, net_g_path, hps):
        m = hps["model"]
        self.net_g_ms = SynthesizerTrn(hps["data"]["n_mels"], m["hidden"], m["n_speakers"], m["gin"])
        self.net_g_ms, self.spk_f0_mean, _ = load_checkpoint(net_g_path, self.net_g_ms)
        self.net_g_ms.eval()

    def infer(self, speaker, mel, transpose=0):
        f0 = torch.full((1, mel.shape[-1]), float(self.spk_f0_mean[speaker]) * 2 ** (transpose / 12) / 300.0)
        with torch.no_grad():
            return self.net_g_ms(mel, f0, torch.tensor([speaker]))


if __name__ == "__main__":
    torch.manual_seed(0)
    ckpt = train(HPARAMS)
    svc = Svc(ckpt, HPARAMS)
    out = svc.infer(1, torch.randn(1, HPARAMS["data"]["n_mels"], 50), transpose=2)
    print("converted", tuple(out.shape))
