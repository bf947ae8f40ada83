"""Face super-resolution with a facial-landmark prior (mmagic DIC-style, GenerateFacialHeatmap transform): the heatmap transform draws Gaussian blobs with NumPy on a float64 grid and the pipeline's to-tensor step keeps that dtype, so the heatmap loss compares the float32 predicted heatmaps with a float64 target and silently computes in double
source: https://github.com/open-mmlab/mmagic/issues/1309
reported-error: [Bug] GenerateFacialHeatmap may return heatmap in float64 (the cached/generated heatmap is float64 while the rest of the pipeline and the model are float32)
outcome: ok (silent: the heatmap MSE at line 73 is computed in float64 against float32 predictions, printed as "heatmap loss dtype torch.float64")
root-cause: line 36
expect: DG008
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- mmagic/datasets/transforms/generate_facial_heatmap.py
class GenerateFacialHeatmap:
    def __init__(self, size=16, sigma=1.0):
        self.size, self.sigma = size, sigma
        self.cache = {}

    def generate_heatmap_from_landmarks(self, landmarks):
        yy, xx = np.mgrid[0 : self.size, 0 : self.size]
        maps = [np.exp(-((xx - x) ** 2 + (yy - y) ** 2) / (2 * self.sigma ** 2)) for x, y in landmarks]
        return np.stack(maps)

    def transform(self, results):
        key = results["key"]
        if key not in self.cache:
            self.cache[key] = self.generate_heatmap_from_landmarks(results["landmarks"])
        results["heatmap"] = self.cache[key]
        return results


def to_tensor(results):
    results["lq"] = torch.from_numpy(results["lq"].astype(np.float32))
    results["gt"] = torch.from_numpy(results["gt"].astype(np.float32))
    results["heatmap"] = torch.from_numpy(results["heatmap"])  # root-cause
    return results


# ---- mmagic/models/editors/dic/dic_net.py
class DICLite(nn.Module):
    def __init__(self, n_landmarks=5, ch=16):
        super().__init__()
        self.feat = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.ReLU())
        self.up = nn.Sequential(nn.Conv2d(ch, 3 * 4, 3, padding=1), nn.PixelShuffle(2))
        self.hourglass = nn.Conv2d(ch, n_landmarks, 3, padding=1)

    def forward(self, lq):
        f = self.feat(lq)
        return self.up(f), self.hourglass(f)


def sample(i, rng, heatmap_tf):
    lq = rng.random((3, 16, 16))
    results = {"key": f"img{i % 4}", "lq": lq, "gt": np.kron(lq, np.ones((1, 2, 2))),
               "landmarks": rng.uniform(2, 14, size=(5, 2))}
    return to_tensor(heatmap_tf.transform(results))


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    tf = GenerateFacialHeatmap()
    model = DICLite()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for it in range(8):
        batch = [sample(it * 2 + k, rng, tf) for k in range(2)]
        lq = torch.stack([b["lq"] for b in batch])
        gt = torch.stack([b["gt"] for b in batch])
        heatmap = torch.stack([b["heatmap"] for b in batch])
        sr, pred_heatmap = model(lq)
        loss_pix = F.l1_loss(sr, gt)
        loss_heatmap = F.mse_loss(pred_heatmap, heatmap)  # fails-here
        loss = loss_pix + 0.1 * loss_heatmap
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"pixel loss {loss_pix.item():.4f} heatmap loss {loss_heatmap.item():.4f}")
    print("heatmap loss dtype", loss_heatmap.dtype)
