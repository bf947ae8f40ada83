"""The NKSR-style reconstruction of bz02 as the NKSR examples write it: the float64 points and normals read from the .ply file are converted with torch.from_numpy(np.asarray(...)).float() before they reach the reconstructor, so the float32 PointEncoder runs and the sphere scan is voxelised and scored; np.loadtxt's float64 table, the Python-float scale factor and the int64 voxel indices are kept
source: https://github.com/nv-tlabs/NKSR/issues/61
reported-error: (none filed; the fixed situation of bz02)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)


def write_scan_ply(path, n=2000):
    """A noisy scan of a unit sphere with normals, as an ASCII .ply (x y z nx ny nz per vertex)."""
    d = rng.normal(size=(n, 3))
    normals = d / np.linalg.norm(d, axis=1, keepdims=True)
    points = 2.5 * normals + rng.normal(0, 0.01, (n, 3)) + np.array([10.0, -4.0, 1.5])
    header = ["ply", "format ascii 1.0", f"element vertex {n}"]
    header += [f"property float {p}" for p in ("x", "y", "z", "nx", "ny", "nz")] + ["end_header"]
    with open(path, "w") as f:
        f.write("\n".join(header) + "\n")
        np.savetxt(f, np.concatenate([points, normals], axis=1), fmt="%.6f")


class PointCloud:
    """What open3d.io.read_point_cloud returns: Vector3dVector points/normals (float64 under np.asarray)."""

    def __init__(self, path):
        with open(path) as f:
            n_header = 0
            for line in f:
                n_header += 1
                if line.strip() == "end_header":
                    break
        table = np.loadtxt(path, skiprows=n_header)
        self.points, self.normals = table[:, :3], table[:, 3:6]


class SparseVoxelHierarchy:
    def __init__(self, xyz, voxel_size):
        self.voxel_size = voxel_size
        ijk = torch.floor(xyz / voxel_size).long()
        self.ijk, self.point_voxel = torch.unique(ijk, dim=0, return_inverse=True)

    def voxel_centers(self):
        return (self.ijk + 0.5) * self.voxel_size


class PointEncoder(nn.Module):
    """nksr.nn.encdec.PointEncoder: per-point MLP on [xyz local to its voxel, feature], max-pooled per voxel."""

    def __init__(self, dim_feat=3, hidden=32):
        super().__init__()
        self.fc_pos = nn.Linear(3 + dim_feat, 2 * hidden)
        self.block = nn.Sequential(nn.ReLU(), nn.Linear(2 * hidden, hidden))

    def forward(self, xyz, feat, svh, depth):
        pts_xyz = (xyz - svh.voxel_centers()[svh.point_voxel]) / svh.voxel_size
        pts_feature = feat
        pts_feature = self.fc_pos(torch.cat([pts_xyz, pts_feature], dim=1))
        pts_feature = self.block(pts_feature)
        out = torch.full((len(svh.ijk), pts_feature.shape[1]), -1e4)
        index = svh.point_voxel.unsqueeze(1).expand_as(pts_feature)
        return out.scatter_reduce(0, index, pts_feature, reduce="amax")


class NKSRNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = PointEncoder()
        self.sdf_head = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))


class Reconstructor:
    def __init__(self, device):
        self.device = device
        self.network = NKSRNetwork().to(device).eval()

    @torch.no_grad()
    def reconstruct(self, xyz, normal, voxel_size=0.1):
        center = xyz.mean(0)
        scale = (xyz - center).norm(dim=1).max().item() / 4.0
        print(f"Input scale factor: {scale:.4f}")
        xyz = (xyz - center) / scale
        svh = SparseVoxelHierarchy(xyz, voxel_size)
        feat = self.network.encoder(xyz, normal, svh, 0)
        sdf = self.network.sdf_head(feat).squeeze(-1)
        return svh, sdf


with tempfile.TemporaryDirectory() as tmp:
    ply_path = os.path.join(tmp, "scan.ply")
    write_scan_ply(ply_path)
    device = torch.device("cpu")

    pcd = PointCloud(ply_path)
    input_xyz = torch.from_numpy(np.asarray(pcd.points)).float().to(device)
    input_normal = torch.from_numpy(np.asarray(pcd.normals)).float().to(device)
    print(input_xyz.shape, input_normal.shape)

    reconstructor = Reconstructor(device)
    svh, sdf = reconstructor.reconstruct(input_xyz, input_normal)
    print(f"{len(svh.ijk)} voxels, sdf range [{sdf.min().item():.3f}, {sdf.max().item():.3f}]")
