"""Spine-segmentation predictor whose training loop stores the dataset's intensity normalisation statistics as NumPy arrays (np.percentile / np.mean results) in the checkpoint; the inference helper loads it with torch.load(..., map_location=cpu) under the weights_only=True default and the unpickler refuses the ndarray reconstructor
source: https://github.com/Hendrik-code/spineps/issues/49
reported-error: checkpoint loading needs weights_only=False with new PyTorch versions (torch.load(..., map_location=torch.device("cpu"), weights_only=False) missing in the predictor)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an allowed global by default. ... at line 56
root-cause: line 50
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


def synthetic_volumes(n=6, seed=0):
    rng = np.random.default_rng(seed)
    vols = rng.gamma(2.0, 300.0, size=(n, 1, 16, 16, 16))
    masks = (vols > np.percentile(vols, 70)).astype(np.int64)[:, 0]
    return vols, masks


def intensity_stats(vols):
    lo, hi = np.percentile(vols, [0.5, 99.5])
    clipped = np.clip(vols, lo, hi)
    return {"clip": np.array([lo, hi]), "mean": clipped.mean(axis=(0, 2, 3, 4)), "std": clipped.std(axis=(0, 2, 3, 4))}


def normalise(vols, stats):
    v = np.clip(vols, *stats["clip"])
    return torch.from_numpy(((v - stats["mean"][:, None, None, None]) / stats["std"][:, None, None, None]).astype(np.float32))


def make_net():
    return nn.Sequential(nn.Conv3d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv3d(8, 2, 1))


def train_fold(fold_dir, epochs=2):
    vols, masks = synthetic_volumes()
    stats = intensity_stats(vols)
    net = make_net()
    opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    x, y = normalise(vols, stats), torch.from_numpy(masks)
    for _ in range(epochs):
        loss = nn.functional.cross_entropy(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    os.makedirs(fold_dir, exist_ok=True)
    torch.save({"network_weights": net.state_dict(), "norm_stats": stats}, os.path.join(fold_dir, "checkpoint_final.pth"))  # root-cause
    return loss.item()


def load_predictor(model_training_output_dir, f=0, checkpoint_name="checkpoint_final.pth"):
    path = os.path.join(model_training_output_dir, f"fold_{f}", checkpoint_name)
    checkpoint = torch.load(path, map_location=torch.device("cpu"))  # fails-here
    net = make_net()
    net.load_state_dict(checkpoint["network_weights"])
    return net.eval(), checkpoint["norm_stats"]


if __name__ == "__main__":
    out = tempfile.mkdtemp()
    print(f"train loss {train_fold(os.path.join(out, 'fold_0')):.4f}")
    net, stats = load_predictor(out)
    vols, _ = synthetic_volumes(n=1, seed=5)
    with torch.no_grad():
        print("foreground voxels", int(net(normalise(vols, stats)).argmax(1).sum()))
