"""remora fine-tuning: the training checkpoint stores NumPy arrays (refine_kmer_levels), reloaded with torch.load under the weights_only default
source: https://github.com/nanoporetech/remora/issues/226
reported-error: UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy.core.multiarray._reconstruct was not an allowed global by default.
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an allowed global by default. ... at line 70
root-cause: line 70 (alt 51)
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


class network(nn.Module):
    _variable_width_possible = False

    def __init__(self, size=16, kmer_len=9, num_out=2):
        super().__init__()
        self.sig_conv = nn.Conv1d(1, 4, 5, padding=2)
        self.seq_conv = nn.Conv1d(kmer_len * 4, 16, 5, padding=2)
        self.fc = nn.Linear(20, num_out)

    def forward(self, sigs, seqs):
        h = torch.cat([self.sig_conv(sigs), self.seq_conv(seqs)], 1)
        return self.fc(h.mean(-1))


def save_model(model, ckpt_save_data, out_path, epoch, opt):
    ckpt_save_data["epoch"] = epoch + 1
    state_dict = model.state_dict()
    if "total_ops" in state_dict:
        del state_dict["total_ops"]
    ckpt_save_data["state_dict"] = state_dict
    ckpt_save_data["opt"] = opt.state_dict()
    torch.save(ckpt_save_data, os.path.join(out_path, f"model_{epoch + 1:06d}.checkpoint"))


def train_model(out_path, epochs=1):
    model = network()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    ckpt_save_data = {
        "model_name": "ConvLSTM_w_ref",
        "chunk_context": (50, 50),
        "kmer_context_bases": (4, 4),
        "base_pred": False,
        "mod_bases": "m",
        "mod_long_names": ["5mC"],
        "refine_kmer_center_idx": 4,
        "refine_kmer_levels": np.random.default_rng(0).normal(size=(64,)).astype(np.float32),  # root-cause-alt
        "refine_sd_arr": np.ones(4, dtype=np.float32),
    }
    for epoch in range(epochs):
        sigs, seqs = torch.randn(8, 1, 100), torch.randn(8, 36, 100)
        labels = torch.randint(0, 2, (8,))
        loss = nn.functional.cross_entropy(model(sigs, seqs), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        save_model(model, ckpt_save_data, out_path, epoch, opt)
    return os.path.join(out_path, f"model_{epochs:06d}.checkpoint")


# --- remora/model_util.py ----------------------------------------------------------------
def continue_from_checkpoint(ckp_path, model_path=None):
    """Load a checkpoint in order to continue training."""
    if not os.path.exists(ckp_path):
        raise FileNotFoundError(f"Checkpoint not found: {ckp_path}")
    ckpt = torch.load(ckp_path, map_location="cpu")  # root-cause # fails-here
    model = network()
    model.load_state_dict(ckpt["state_dict"])
    return ckpt, model


if __name__ == "__main__":
    out_path = tempfile.mkdtemp()
    ckp_path = train_model(out_path)            # run1, stopped after one epoch
    ckpt, model = continue_from_checkpoint(ckp_path)  # run2: --finetune-path
    print("resumed at epoch", ckpt["epoch"], "kmer levels", ckpt["refine_kmer_levels"].shape)
