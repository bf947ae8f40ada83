"""ORN multi-view fusion: camera extrinsics inverted in NumPy reach torch.bmm as float64 next to float32 image-ray coordinates
source: https://github.com/CHUNYUWANG/imu-human-pose-pytorch/issues/8
reported-error: RuntimeError: expected scalar type Double but found Float (in batch_uv_to_global_with_multi_depth, at torch.bmm(inv_cam_extri_R, coords_img_frame_all_depth))
outcome: RuntimeError: expected scalar type Float but found Double at line 41
root-cause: line 28
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn


def load_cameras(n_views=4, seed=0):
    # calibration is normally parsed from the dataset's camera file: plain float64 numpy
    rng = np.random.default_rng(seed)
    cams = []
    for _ in range(n_views):
        q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
        cams.append({"R": q, "T": rng.normal(size=(3, 1)) * 1000.0,
                     "fx": 1145.0, "fy": 1144.0, "cx": 512.5, "cy": 515.4})
    return cams


class ORN(nn.Module):
    def __init__(self, cameras, depths):
        super().__init__()
        inv_R = np.stack([np.linalg.inv(c["R"]) for c in cameras])
        self.inv_cam_extri_R = torch.as_tensor(inv_R)  # root-cause
        self.inv_cam_extri_T = torch.as_tensor(np.stack([c["T"] for c in cameras])).float()
        self.intri = torch.tensor([[c["fx"], c["fy"], c["cx"], c["cy"]] for c in cameras], dtype=torch.float32)
        self.depths = torch.tensor(depths, dtype=torch.float32)
        self.refine = nn.Linear(3, 3)

    def batch_uv_to_global_with_multi_depth(self, uv):
        # uv: (n_views, n_joints, 2), float32 coordinates read off the 2D heatmaps
        fx, fy, cx, cy = self.intri.unbind(-1)
        x = (uv[..., 0] - cx[:, None]) / fx[:, None]
        y = (uv[..., 1] - cy[:, None]) / fy[:, None]
        ray = torch.stack([x, y, torch.ones_like(x)], dim=1)  # (n_views, 3, n_joints)
        coords_img_frame_all_depth = torch.cat([ray * d for d in self.depths], dim=2)
        coords_global = torch.bmm(self.inv_cam_extri_R, coords_img_frame_all_depth) + self.inv_cam_extri_T  # fails-here
        return coords_global

    def forward(self, uv):
        coords = self.batch_uv_to_global_with_multi_depth(uv)
        return self.refine(coords.transpose(1, 2))


def train(model, steps=5, n_joints=17):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.MSELoss()
    for step in range(steps):
        uv = torch.rand(4, n_joints, 2) * 1000.0
        target = torch.randn(4, n_joints * len(model.depths), 3)
        pred = model(uv)
        loss = criterion(pred, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print("step", step, "loss", loss.item())


if __name__ == "__main__":
    cameras = load_cameras()
    model = ORN(cameras, depths=[3000.0, 4000.0, 5000.0])
    train(model)
