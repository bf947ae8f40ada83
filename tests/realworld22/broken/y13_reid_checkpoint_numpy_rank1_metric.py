"""Person re-identification (torchreid layout): the engine's save_checkpoint stores the evaluation rank-1 accuracy next to the weights, and that accuracy comes out of the NumPy CMC computation as a numpy.float64 scalar; load_pretrained_weights later reads the file with torch.load's default weights_only=True, which refuses the NumPy scalar
source: https://github.com/KaiyangZhou/deep-person-reid/issues/592
reported-error: _pickle.UnpicklingError: Weights only load failed ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default (torchreid.utils.load_pretrained_weights -> load_checkpoint on PyTorch 2.6)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. ... at line 34
root-cause: line 64
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn

SAVE_DIR = tempfile.mkdtemp()


# ---- torchreid/metrics/rank.py
def eval_cmc(distmat, q_pids, g_pids, max_rank=5):
    indices = np.argsort(distmat, axis=1)
    matches = (g_pids[indices] == q_pids[:, np.newaxis]).astype(np.int32)
    cmc = matches.cumsum(1).clip(max=1)
    return cmc.mean(0)[:max_rank]


# ---- torchreid/utils/torchtools.py
def save_checkpoint(state, save_dir):
    fpath = os.path.join(save_dir, f"model.pth.tar-{state['epoch']}")
    torch.save(state, fpath)
    return fpath


def load_checkpoint(fpath):
    return torch.load(fpath, map_location="cpu")  # fails-here


def load_pretrained_weights(model, weight_path):
    checkpoint = load_checkpoint(weight_path)
    state_dict = checkpoint.get("state_dict", checkpoint)
    model.load_state_dict(state_dict)
    return checkpoint


# ---- torchreid/models/osnet_tiny.py
class TinyReID(nn.Module):
    def __init__(self, num_ids=10, feat=32):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, feat))
        self.classifier = nn.Linear(feat, num_ids)

    def forward(self, x):
        f = self.backbone(x)
        return f if not self.training else self.classifier(f)


def run_epoch_and_eval(model, epoch):
    model.eval()
    with torch.no_grad():
        q = model(torch.rand(6, 3, 32, 16))
        gal = model(torch.rand(12, 3, 32, 16))
    distmat = torch.cdist(q, gal).numpy()
    cmc = eval_cmc(distmat, np.arange(6) % 3, np.arange(12) % 3)
    rank1 = cmc[0]
    return save_checkpoint({"state_dict": model.state_dict(), "epoch": epoch, "rank1": rank1}, SAVE_DIR)  # root-cause


if __name__ == "__main__":
    torch.manual_seed(0)
    path = run_epoch_and_eval(TinyReID(), epoch=1)
    deploy = TinyReID()
    ckpt = load_pretrained_weights(deploy, path)
    print("loaded weights, rank-1 was", float(ckpt["rank1"]))
