"""An NKSR-style surface reconstruction of a scanned point cloud (re-typed: Reconstructor.reconstruct normalising the input by its scale factor, a voxel hierarchy, the PointEncoder whose fc_pos takes [local xyz, normal] per point): the cloud is read from an ASCII .ply file into float64 arrays, as open3d's read_point_cloud gives them, and turned into tensors with torch.from_numpy(...) and no cast, so the float32 encoder receives float64 points
source: https://github.com/nv-tlabs/NKSR/issues/61
reported-error: "input_xyz = torch.from_numpy(np.asarray(pcd.points)).to(device) ... field = reconstructor.reconstruct(input_xyz, input_normal) ... File nksr/nn/encdec.py, line 102, in forward: pts_feature = self.fc_pos(torch.cat([pts_xyz, pts_feature], dim=1)) ... RuntimeError: mat1 and mat2 must have the same dtype"
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 66
root-cause: line 103
expect: DG004
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
        pts_feature = self.fc_pos(torch.cat([pts_xyz, pts_feature], dim=1))  # fails-here
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
    input_xyz = torch.from_numpy(np.asarray(pcd.points)).to(device)  # root-cause
    input_normal = torch.from_numpy(np.asarray(pcd.normals)).to(device)  # root-cause-alt
    print(input_xyz.shape, input_normal.shape)

    reconstructor = Reconstructor(device)
    svh, sdf = reconstructor.reconstruct(input_xyz, input_normal)
    print(f"{len(svh.ijk)} voxels, sdf range [{sdf.min().item():.3f}, {sdf.max().item():.3f}]")
