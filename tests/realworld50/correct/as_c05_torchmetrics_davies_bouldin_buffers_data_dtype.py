"""Choosing the number of survey stations in RTK-GNSS fixes (ECEF metres, float64) with torch k-means and torchmetrics' functional davies_bouldin_score (Lightning-AI/torchmetrics #3467 as in as05) with the fix of PR #3468: the centroid and intra-distance buffers are allocated with dtype=data.dtype, so the float64 centroids keep their sub-millimetre digits, the index matches the float64 reference and the six markers are found; the float32 return of the degenerate case stays as it is
source: https://github.com/Lightning-AI/torchmetrics/issues/3467
reported-error: (none filed; the fixed situation of as05)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch

torch.manual_seed(0)
rng = np.random.default_rng(0)
out_dir = tempfile.mkdtemp()


# ---- torchmetrics.functional.clustering.davies_bouldin_score (1.9), validation left out
def davies_bouldin_score(data, labels):
    unique_labels, labels = torch.unique(labels, return_inverse=True)
    num_labels = len(unique_labels)
    num_samples, dim = data.shape
    intra_dists = torch.zeros(num_labels, device=data.device, dtype=data.dtype)
    centroids = torch.zeros((num_labels, dim), device=data.device, dtype=data.dtype)
    for k in range(num_labels):
        cluster_k = data[labels == k, :]
        centroids[k] = cluster_k.mean(dim=0)
        intra_dists[k] = (cluster_k - centroids[k]).pow(2.0).sum(dim=1).sqrt().mean()
    centroid_distances = torch.cdist(centroids, centroids)
    cond1 = torch.allclose(intra_dists, torch.zeros_like(intra_dists))
    cond2 = torch.allclose(centroid_distances, torch.zeros_like(centroid_distances))
    if cond1 or cond2:
        return torch.tensor(0.0, device=data.device, dtype=torch.float32)
    centroid_distances[centroid_distances == 0] = float("inf")
    combined_intra_dists = intra_dists.unsqueeze(0) + intra_dists.unsqueeze(1)
    scores = (combined_intra_dists / centroid_distances).max(dim=1).values
    return scores.mean()


def reference_davies_bouldin(x, labels):
    "the same index computed in NumPy float64, for the report"
    ks = np.unique(labels)
    cent = np.stack([x[labels == k].mean(0) for k in ks])
    intra = np.array([np.linalg.norm(x[labels == k] - cent[i], axis=1).mean() for i, k in enumerate(ks)])
    d = np.linalg.norm(cent[:, None] - cent[None], axis=-1)
    d[d == 0] = np.inf
    return ((intra[None] + intra[:, None]) / d).max(1).mean()


def kmeans(x, k, iters=100):
    "Lloyd's k-means with k-means++ seeding, on coordinates centred for the distance computations"
    xc = x - x.mean(0)
    centers = xc[torch.randint(0, x.shape[0], (1,))]
    while centers.shape[0] < k:
        d2 = torch.cdist(xc, centers).min(1).values ** 2
        centers = torch.cat([centers, xc[torch.multinomial(d2 / d2.sum(), 1)]])
    for _ in range(iters):
        assign = torch.cdist(xc, centers).argmin(1)
        new = torch.stack([xc[assign == j].mean(0) if (assign == j).any() else centers[j] for j in range(k)])
        if torch.allclose(new, centers):
            break
        centers = new
    inertia = float(((xc - centers[assign]) ** 2).sum())
    return assign, inertia


# ---- synthetic RTK fixes: 6 survey markers a few metres apart near Munich, 2 cm noise, in ECEF metres
R = 6378137.0
lat0, lon0 = np.radians(48.137), np.radians(11.575)
markers = []
for _ in range(6):
    lat, lon = lat0 + rng.normal(0, 5e-7), lon0 + rng.normal(0, 7e-7)
    markers.append([R * np.cos(lat) * np.cos(lon), R * np.cos(lat) * np.sin(lon), R * np.sin(lat)])
fixes = np.concatenate([m + rng.normal(0, 0.02, (100, 3)) for m in np.array(markers)])
log = pd.DataFrame(fixes, columns=["ecef_x", "ecef_y", "ecef_z"])
log.to_csv(os.path.join(out_dir, "rtk_fixes.csv"), index=False)

x = torch.from_numpy(pd.read_csv(os.path.join(out_dir, "rtk_fixes.csv")).to_numpy())  # float64 metres

results = {}
for k in range(2, 9):
    assign, inertia = min((kmeans(x, k) for _ in range(10)), key=lambda r: r[1])
    results[k] = (float(davies_bouldin_score(x, assign)), assign)
    print(f"k={k} inertia={inertia:.4f} davies_bouldin={results[k][0]:.4f}")

k_best = min(results, key=lambda k: results[k][0])
score, assign = results[k_best]
ref = reference_davies_bouldin(fixes, assign.numpy())
print(f"chosen k={k_best}: davies_bouldin_score {score:.4f}, float64 reference {ref:.4f}, "
      f"relative error {abs(score - ref) / ref:.1%}")
