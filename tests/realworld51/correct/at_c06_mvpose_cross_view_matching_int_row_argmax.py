"""Multi-view multi-person 3D pose estimation in the style of zju3dv/mvpose (#43 as in at06) with the person index taken from an integer row: the binary match matrix stays a bool tensor (match_mat[...] > 0.9 over the bool transitive closure), row.sum() counts its matches, and pid = row.int().argmax() picks the first matched person, so the matched detections are triangulated and scored against the ground truth; the int32 camera index array and the float32 affinities stay as they are
source: https://github.com/zju3dv/mvpose/issues/43
reported-error: (none filed; the fixed situation of at06)
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

torch.manual_seed(3)
rng = np.random.default_rng(3)
out_dir = tempfile.mkdtemp()
JOINTS, NUM_PEOPLE, NUM_CAMS, APP_DIM = 17, 3, 3, 24

# ---- scene: three people, three calibrated cameras around them ----
people3d = [rng.normal([x, y, 0.9], [0.15, 0.15, 0.45], (JOINTS, 3)) for x, y in [(-1.0, 0.5), (0.3, -0.8), (1.2, 0.9)]]
appearance = rng.normal(0, 1, (NUM_PEOPLE, APP_DIM))  # clothing colours etc. seen by the ReID network


def camera(angle, dist=6.0, f=800.0):
    c = np.array([dist * np.cos(angle), dist * np.sin(angle), 1.5])
    z = -c / np.linalg.norm(c)
    x = np.cross(z, [0, 0, 1.0])
    x /= np.linalg.norm(x)
    R = np.stack([x, np.cross(z, x), z])
    K = np.array([[f, 0, 640], [0, f, 360], [0, 0, 1.0]])
    return K @ np.hstack([R, -R @ c[:, None]]), c


cams = [camera(a) for a in (0.2, 2.3, 4.3)]
P = np.stack([c[0] for c in cams])


def project(Pm, X):
    Xh = np.hstack([X, np.ones((len(X), 1))]) @ Pm.T
    return Xh[:, :2] / Xh[:, 2:]


def fundamental(P1, C1, P2):
    e2 = P2 @ np.append(C1, 1.0)
    ex = np.array([[0, -e2[2], e2[1]], [e2[2], 0, -e2[0]], [-e2[1], e2[0], 0]])
    return ex @ P2 @ np.linalg.pinv(P1)


Fs = np.zeros((NUM_CAMS, NUM_CAMS, 3, 3))
for i in range(NUM_CAMS):
    for j in range(NUM_CAMS):
        if i != j:
            Fs[i, j] = fundamental(P[i], cams[i][1], P[j])

# detections per view: 2D poses (shuffled order per camera) and appearance crops
pose_list, crop_list, gt_ids, dimGroup = [], [], [], [0]
for cam_id in range(NUM_CAMS):
    order = rng.permutation(NUM_PEOPLE)
    for pid in order:
        pose_list.append(project(P[cam_id], people3d[pid]) + rng.normal(0, 2.0, (JOINTS, 2)))
        crop_list.append(appearance[pid] + rng.normal(0, 0.3, APP_DIM))
        gt_ids.append(pid)
    dimGroup.append(dimGroup[-1] + NUM_PEOPLE)
pose_mat = np.stack(pose_list)


# ---- appearance: a small ReID embedding trained with an identity classifier ----
class ReIDNet(nn.Module):
    def __init__(self, num_ids=64):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(APP_DIM, 64), nn.ReLU(), nn.Linear(64, 32))
        self.classifier = nn.Linear(32, num_ids)

    def forward(self, x):
        return F.normalize(self.backbone(x), dim=1)


reid = ReIDNet()
opt = torch.optim.SGD(reid.parameters(), lr=0.1, momentum=0.9)
train_app = rng.normal(0, 1, (64, APP_DIM))
for step in range(150):
    ids = torch.from_numpy(rng.integers(0, 64, 32))
    crops = torch.from_numpy(train_app[ids.numpy()] + rng.normal(0, 0.3, (32, APP_DIM))).float()
    loss = F.cross_entropy(reid.classifier(reid(crops)) * 10, ids)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"reid loss {loss.item():.4f}")
torch.save(reid.state_dict(), os.path.join(out_dir, "reid.pth"))


def projected_distance(pts0, pts1, F_):
    lines = np.einsum("ij,pkj->pki", F_, np.concatenate([pts0, np.ones(pts0.shape[:2] + (1,))], axis=2))
    p1 = np.concatenate([pts1, np.ones(pts1.shape[:2] + (1,))], axis=2)
    num = np.abs(np.einsum("pki,qki->pqk", lines, p1))
    return (num / np.linalg.norm(lines[:, None, :, :2], axis=-1)).mean(-1)


def geometry_affinity(points_set, Fs, dimGroup):
    M = points_set.shape[0]
    distance_matrix = np.ones((M, M), dtype=np.float32) * 25
    np.fill_diagonal(distance_matrix, 0)
    for h in range(len(dimGroup) - 1):
        for k in range(h + 1, len(dimGroup) - 1):
            a, b = slice(dimGroup[h], dimGroup[h + 1]), slice(dimGroup[k], dimGroup[k + 1])
            d = (projected_distance(points_set[a], points_set[b], Fs[h, k])
                 + projected_distance(points_set[b], points_set[a], Fs[k, h]).T) / 2
            distance_matrix[a, b], distance_matrix[b, a] = d, d.T
    affinity = -(distance_matrix - distance_matrix.mean()) / distance_matrix.std()
    return 1 / (1 + np.exp(-5 * affinity))


def proj2pav(y):
    y[y < 0] = 0
    x = torch.zeros_like(y)
    if torch.sum(y) < 1:
        return x + y
    u, _ = torch.sort(y, descending=True)
    sv = torch.cumsum(u, 0)
    rho = torch.nonzero(u > (sv - 1) / torch.arange(1, len(u) + 1, dtype=u.dtype)).reshape(-1)[-1]
    theta = torch.clamp((sv[rho] - 1) / (rho.float() + 1), min=0)
    return x + torch.clamp(y - theta, min=0)


def myproj2dpam(Y, iters=10):
    X = Y
    for _ in range(iters):
        for i in range(X.shape[0]):
            X[i, :] = proj2pav(X[i, :])
        for j in range(X.shape[1]):
            X[:, j] = proj2pav(X[:, j])
    return X


def transform_closure(X_bin):
    """Transitive closure of the pairwise matches (Floyd-Warshall on a bool matrix)."""
    closure = X_bin.copy()
    for k in range(len(closure)):
        closure |= closure[:, k:k + 1] & closure[k:k + 1, :]
    return closure


def matchSVT(S, dimGroup, alpha=0.5, _lambda=50, mu=64, maxIter=200, tol=5e-4):
    N = S.shape[0]
    S[torch.arange(N), torch.arange(N)] = 0
    S = (S + S.t()) / 2
    X, Y, W = S.clone(), torch.zeros_like(S), alpha - S
    for _ in range(maxIter):
        X0 = X
        U, s, V = torch.svd(1.0 / mu * Y + X)
        diagS = torch.clamp(s - _lambda / mu, min=0)
        Q = U @ diagS.diag() @ V.t()
        X = Q - (W + Y) / mu
        for i in range(len(dimGroup) - 1):
            X[dimGroup[i]:dimGroup[i + 1], dimGroup[i]:dimGroup[i + 1]] = 0
        X[torch.arange(N), torch.arange(N)] = 1
        X = X.clamp(0, 1)
        for i in range(len(dimGroup) - 1):
            for j in range(len(dimGroup) - 1):
                if i != j:
                    r, c = slice(dimGroup[i], dimGroup[i + 1]), slice(dimGroup[j], dimGroup[j + 1])
                    X[r, c] = myproj2dpam(X[r, c].clone())
        X = (X + X.t()) / 2
        Y = Y + mu * (X - Q)
        pRes, dRes = torch.norm(X - Q) / N, mu * torch.norm(X - X0) / N
        if pRes < tol and dRes < tol:
            break
        mu = 2 * mu if pRes > 10 * dRes else (mu / 2 if dRes > 10 * pRes else mu)
    X_bin = (X + X.t()) / 2 > 0.5
    return torch.tensor(transform_closure(X_bin.numpy()))


def triangulate(views, points):
    A = np.concatenate([np.stack([pt[0] * P[v][2] - P[v][0], pt[1] * P[v][2] - P[v][1]]) for v, pt in zip(views, points)])
    return np.linalg.svd(A)[2][-1][:3] / np.linalg.svd(A)[2][-1][3]


# ---- _estimate3d ----
reid.eval()
with torch.no_grad():
    emb = reid(torch.from_numpy(np.stack(crop_list)).float())
affinity_mat = (emb @ emb.t()).clamp(min=0)
geo_affinity_mat = torch.tensor(geometry_affinity(pose_mat.copy(), Fs, dimGroup))
W = torch.sqrt(affinity_mat * geo_affinity_mat)  # 'geometry mean'
W[torch.isnan(W)] = 0
sub_imgid2cam = np.zeros(pose_mat.shape[0], dtype=np.int32)
for idx in range(len(dimGroup) - 1):
    sub_imgid2cam[dimGroup[idx]:dimGroup[idx + 1]] = idx

match_mat = matchSVT(W, dimGroup)
bin_match = match_mat[:, torch.nonzero(torch.sum(match_mat, dim=0) > 1.9).squeeze()] > 0.9
bin_match = bin_match.reshape(W.shape[0], -1)
matched_list = [[] for _ in range(bin_match.shape[1])]
for sub_imgid, row in enumerate(bin_match):
    if row.sum() != 0:
        pid = row.int().argmax()
        matched_list[pid].append(sub_imgid)

errors = []
for person in matched_list:
    if len(person) < 2:
        continue
    views = [int(sub_imgid2cam[i]) for i in person]
    pose3d = np.stack([triangulate(views, [pose_mat[i][j] for i in person]) for j in range(JOINTS)])
    gt = people3d[gt_ids[person[0]]]
    errors.append(np.linalg.norm(pose3d - gt, axis=1).mean())
    print(f"person from detections {person}: MPJPE {1000 * errors[-1]:.1f} mm")
print(f"{len(errors)} people reconstructed, mean MPJPE {1000 * np.mean(errors):.1f} mm")
