"""Pixel2Mesh (noahcao) training on ShapeNet .dat files made with the repository's generate_data.py: the surface samples start as a float32 array but np.append of trimesh's float64 points and the camera transform make the saved points and normals float64; ShapeNet.__getitem__ casts the image to float32 but not the point cloud, default_collate keeps float64, and P2MLoss's chamfer distance between the float64 ground-truth points and the float32 predicted mesh vertices fails
source: https://github.com/noahcao/Pixel2Mesh/issues/17
reported-error: RuntimeError: expected scalar type Float but found Double (in P2MLoss.forward: dist1, dist2, idx1, idx2 = self.chamfer_dist(gt_coord, pred_coord[i]); "gt_coord: torch.float64, pred_coord torch.float32"; maintainer: "dig back to see where gt_coord comes from. A hot-fix ... is to convert gt_coord to float32 by gt_coord = gt_coord.float()")
outcome: RuntimeError: expected scalar type Float but found Double at line 163
root-cause: line 109
expect: DG004
"""
import os
import pickle
import tempfile
from types import SimpleNamespace

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.dataloader import default_collate

torch.manual_seed(0)
rng = np.random.default_rng(0)


# ---- datasets/preprocess/shapenet/generate_data.py (trimesh's sampling replaced by a sampled box surface) -------
def sample_surface_even(n):
    """trimesh.sample.sample_surface_even stand-in: float64 points on a box surface and their face normals."""
    face = rng.integers(0, 6, n)
    pts = rng.uniform(-1, 1, (n, 3)) * np.array([0.6, 0.3, 0.4])
    axis, sign = face // 2, np.where(face % 2 == 0, 1.0, -1.0)
    pts[np.arange(n), axis] = sign * np.array([0.6, 0.3, 0.4])[axis]
    nrm = np.zeros((n, 3))
    nrm[np.arange(n), axis] = sign
    return pts, nrm


def camera_info(param):
    theta = np.deg2rad(param[0])
    phi = np.deg2rad(param[1])

    camY = param[3] * np.sin(phi)
    temp = param[3] * np.cos(phi)
    camX = temp * np.cos(theta)
    camZ = temp * np.sin(theta)
    cam_pos = np.array([camX, camY, camZ])

    axisZ = cam_pos.copy()
    axisY = np.array([0, 1, 0])
    axisX = np.cross(axisY, axisZ)
    axisY = np.cross(axisZ, axisX)

    cam_mat = np.array([axisX, axisY, axisZ])
    cam_mat = cam_mat / np.linalg.norm(cam_mat, axis=1, keepdims=True)
    return cam_mat, cam_pos


def generate_data(root, label, model_id, n_views=3, n_samples=600):
    os.makedirs(os.path.join(root, "data", label), exist_ok=True)
    sample = np.zeros((0, 3), dtype=np.float32)
    normal = np.zeros((0, 3), dtype=np.float32)
    points, norm = sample_surface_even(n_samples)
    sample = np.append(sample, points, axis=0)
    normal = np.append(normal, norm, axis=0)

    # 2 tranform to camera view
    position = sample * 0.57
    names = []
    for index in range(n_views):
        param = [rng.uniform(0, 360), rng.uniform(20, 40), 0, rng.uniform(1.2, 1.6)]
        cam_mat, cam_pos = camera_info(param)
        pt_trans = np.dot(position - cam_pos, cam_mat.transpose())
        nom_trans = np.dot(normal, cam_mat.transpose())
        train_data = np.hstack((pt_trans, nom_trans))
        img = rng.integers(0, 256, (64, 64, 3)).astype(np.uint8)  # the rendering (224x224 in ShapeNet)
        filename = "%s_%02d.dat" % (model_id, index)
        with open(os.path.join(root, "data", label, filename), "wb") as f:
            pickle.dump((img, train_data), f, protocol=2)
        names.append("%s_%s" % (label, filename))
    return names


# ---- datasets/shapenet.py -----------------------------------------------------------------------------------------
labels_map = {"02691156": 0, "03001627": 4, "04379243": 10}


class ShapeNet(Dataset):
    """
    Dataset wrapping images and target meshes for ShapeNet dataset.
    """

    def __init__(self, file_root, file_list_name, mesh_pos, normalization):
        super().__init__()
        self.file_root = file_root
        # Read file list
        with open(os.path.join(self.file_root, "meta", file_list_name + ".txt"), "r") as fp:
            self.file_names = fp.read().split("\n")[:-1]
        self.normalization = normalization
        self.mesh_pos = mesh_pos

    def normalize_img(self, img):
        mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
        std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)
        return (img - mean) / std

    def __getitem__(self, index):
        label, filename = self.file_names[index].split("_", maxsplit=1)
        with open(os.path.join(self.file_root, "data", label, filename), "rb") as f:
            data = pickle.load(f, encoding="latin1")

        img, pts, normals = data[0].astype(np.float32) / 255.0, data[1][:, :3], data[1][:, 3:]  # root-cause
        pts -= np.array(self.mesh_pos)
        assert pts.shape[0] == normals.shape[0]
        length = pts.shape[0]

        img = torch.from_numpy(np.transpose(img, (2, 0, 1)))
        img_normalized = self.normalize_img(img) if self.normalization else img

        return {
            "images": img_normalized,
            "images_orig": img,
            "points": pts,
            "normals": normals,
            "labels": labels_map[label],
            "filename": filename,
            "length": length
        }

    def __len__(self):
        return len(self.file_names)


def get_shapenet_collate(num_points):
    def shapenet_collate(batch):
        if len(batch) > 1:
            all_equal = True
            for t in batch:
                if t["length"] != batch[0]["length"]:
                    all_equal = False
                    break
            points_orig, normals_orig = [], []
            if not all_equal:
                for t in batch:
                    pts, normal = t["points"], t["normals"]
                    length = pts.shape[0]
                    choices = np.resize(np.random.permutation(length), num_points)
                    t["points"], t["normals"] = pts[choices], normal[choices]
                    points_orig.append(torch.from_numpy(pts))
                    normals_orig.append(torch.from_numpy(normal))
                ret = default_collate(batch)
                ret["points_orig"] = points_orig
                ret["normals_orig"] = normals_orig
                return ret
        ret = default_collate(batch)
        ret["points_orig"] = ret["points"]
        ret["normals_orig"] = ret["normals"]
        return ret

    return shapenet_collate


# ---- models/layers/chamfer_wrapper.py (the CUDA extension replaced by a CPU nearest-neighbour search) ------------
class ChamferDist(nn.Module):
    def forward(self, xyz1, xyz2):
        d = torch.cdist(xyz1, xyz2) ** 2  # fails-here
        dist1, idx1 = d.min(dim=2)
        dist2, idx2 = d.min(dim=1)
        return dist1, dist2, idx1, idx2


# ---- the initial ellipsoid and a small P2MModel (image encoder + three graph-convolution deformation blocks) -----
class Ellipsoid(object):
    def __init__(self, mesh_pos, n=48, k=6):
        i = np.arange(n) + 0.5
        phi, theta = np.arccos(1 - 2 * i / n), np.pi * (1 + 5 ** 0.5) * i
        coord = np.stack([np.cos(theta) * np.sin(phi), np.sin(theta) * np.sin(phi), np.cos(phi)], 1) * [0.4, 0.2, 0.3]
        self.coord = torch.tensor(coord - np.array(mesh_pos), dtype=torch.float32)
        d = ((coord[:, None] - coord[None]) ** 2).sum(-1)
        nbr = np.argsort(d, axis=1)[:, 1:k + 1]
        adj = np.zeros((n, n), dtype=np.float32)
        adj[np.repeat(np.arange(n), k), nbr.ravel()] = 1
        adj = np.maximum(adj, adj.T)
        edges = np.array(np.nonzero(np.triu(adj))).T
        lap = -np.ones((n, 10), dtype=np.int64)
        for v in range(n):
            nb = np.flatnonzero(adj[v])[:8]
            lap[v, :len(nb)], lap[v, 8], lap[v, 9] = nb, v, len(nb)
        deg = adj.sum(1) + 1
        self.adj = torch.tensor((adj + np.eye(n)) / np.sqrt(deg[:, None] * deg[None, :]), dtype=torch.float32)
        self.edges = [torch.tensor(edges)] * 3
        self.laplace_idx = [torch.tensor(lap)] * 3


class GConv(nn.Module):
    def __init__(self, in_features, out_features, adj_mat):
        super().__init__()
        self.register_buffer("adj_mat", adj_mat)
        self.weight = nn.Parameter(torch.empty(in_features, out_features))
        self.loop_weight = nn.Parameter(torch.empty(in_features, out_features))
        self.bias = nn.Parameter(torch.zeros(out_features))
        nn.init.xavier_uniform_(self.weight)
        nn.init.xavier_uniform_(self.loop_weight)

    def forward(self, inputs):
        support = torch.matmul(inputs, self.weight)
        support_loop = torch.matmul(inputs, self.loop_weight)
        return torch.matmul(self.adj_mat, support) + support_loop + self.bias


class GBottleneck(nn.Module):
    def __init__(self, in_dim, hidden_dim, out_dim, adj_mat):
        super().__init__()
        self.conv1 = GConv(in_dim, hidden_dim, adj_mat)
        self.conv2 = GConv(hidden_dim, hidden_dim, adj_mat)
        self.conv3 = GConv(hidden_dim, out_dim, adj_mat)

    def forward(self, inputs):
        x = F.relu(self.conv1(inputs))
        x = F.relu(self.conv2(x)) + x
        return self.conv3(x), x


class P2MModel(nn.Module):
    def __init__(self, ellipsoid, hidden=32, feat=32):
        super().__init__()
        self.register_buffer("init_pts", ellipsoid.coord)
        self.nn_encoder = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, feat, 3, 2, 1),
                                        nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.gcns = nn.ModuleList([GBottleneck(feat + 3, hidden, 3, ellipsoid.adj),
                                   GBottleneck(feat + hidden + 3, hidden, 3, ellipsoid.adj),
                                   GBottleneck(feat + hidden + 3, hidden, 3, ellipsoid.adj)])

    def forward(self, img):
        batch_size = img.size(0)
        img_feats = self.nn_encoder(img)
        n = self.init_pts.size(0)
        glob = img_feats.unsqueeze(1).expand(batch_size, n, img_feats.size(1))
        x = self.init_pts.unsqueeze(0).expand(batch_size, -1, -1)
        pred_coord, pred_coord_before_deform, hidden = [], [], None
        for i, gcn in enumerate(self.gcns):
            inp = torch.cat([x, glob] + ([hidden] if hidden is not None else []), dim=2)
            delta, hidden = gcn(inp)
            pred_coord_before_deform.append(x)
            x = x + 0.1 * torch.tanh(delta)
            pred_coord.append(x)
        return {"pred_coord": pred_coord, "pred_coord_before_deform": pred_coord_before_deform}


# ---- models/losses/p2m.py -----------------------------------------------------------------------------------------
class P2MLoss(nn.Module):
    def __init__(self, options, ellipsoid):
        super().__init__()
        self.options = options
        self.l1_loss = nn.L1Loss(reduction='none')
        self.l2_loss = nn.MSELoss(reduction='mean')
        self.chamfer_dist = ChamferDist()
        self.laplace_idx = nn.ParameterList([
            nn.Parameter(idx, requires_grad=False) for idx in ellipsoid.laplace_idx])
        self.edges = nn.ParameterList([
            nn.Parameter(edges, requires_grad=False) for edges in ellipsoid.edges])

    def edge_regularization(self, pred, edges):
        return self.l2_loss(pred[:, edges[:, 0]], pred[:, edges[:, 1]]) * pred.size(-1)

    @staticmethod
    def laplace_coord(inputs, lap_idx):
        indices = lap_idx[:, :-2]
        invalid_mask = indices < 0
        all_valid_indices = indices.clone()
        all_valid_indices[invalid_mask] = 0  # do this to avoid negative indices

        vertices = inputs[:, all_valid_indices]
        vertices[:, invalid_mask] = 0
        neighbor_sum = torch.sum(vertices, 2)
        neighbor_count = lap_idx[:, -1].float()
        laplace = inputs - neighbor_sum / neighbor_count[None, :, None]

        return laplace

    def laplace_regularization(self, input1, input2, block_idx):
        lap1 = self.laplace_coord(input1, self.laplace_idx[block_idx])
        lap2 = self.laplace_coord(input2, self.laplace_idx[block_idx])
        laplace_loss = self.l2_loss(lap1, lap2) * lap1.size(-1)
        move_loss = self.l2_loss(input1, input2) * input1.size(-1) if block_idx > 0 else 0
        return laplace_loss, move_loss

    def normal_loss(self, gt_normal, indices, pred_points, adj_list):
        edges = F.normalize(pred_points[:, adj_list[:, 0]] - pred_points[:, adj_list[:, 1]], dim=2)
        nearest_normals = torch.stack([t[i] for t, i in zip(gt_normal, indices.long())])
        normals = F.normalize(nearest_normals[:, adj_list[:, 0]], dim=2)
        cosine = torch.abs(torch.sum(edges * normals, 2))
        return torch.mean(cosine)

    def forward(self, outputs, targets):
        chamfer_loss, edge_loss, normal_loss, lap_loss, move_loss = 0., 0., 0., 0., 0.
        lap_const = [0.2, 1., 1.]

        gt_coord, gt_normal = targets["points"], targets["normals"]  # root-cause-alt
        pred_coord, pred_coord_before_deform = outputs["pred_coord"], outputs["pred_coord_before_deform"]

        for i in range(3):
            dist1, dist2, idx1, idx2 = self.chamfer_dist(gt_coord, pred_coord[i])
            chamfer_loss += torch.mean(dist1) + torch.mean(dist2)
            normal_loss += self.normal_loss(gt_normal, idx2, pred_coord[i], self.edges[i])
            edge_loss += self.edge_regularization(pred_coord[i], self.edges[i])
            lap, move = self.laplace_regularization(pred_coord_before_deform[i],
                                                    pred_coord[i], i)
            lap_loss += lap_const[i] * lap
            move_loss += lap_const[i] * move

        loss = chamfer_loss + \
            self.options.weights.laplace * lap_loss + \
            self.options.weights.move * move_loss + \
            self.options.weights.edge * edge_loss + \
            self.options.weights.normal * normal_loss

        return loss, {
            "loss": loss,
            "loss_chamfer": chamfer_loss,
            "loss_edge": edge_loss,
            "loss_laplace": lap_loss,
            "loss_move": move_loss,
            "loss_normal": normal_loss,
        }


# ---- functions/trainer.py (train_step and the epoch loop) -------------------------------------------------------
def main():
    options = SimpleNamespace(
        dataset=SimpleNamespace(mesh_pos=[0., 0., -0.8], normalization=True, num_points=500),
        loss=SimpleNamespace(weights=SimpleNamespace(laplace=0.5, move=0.1, edge=0.1, normal=1.6e-4)),
        optim=SimpleNamespace(lr=1e-4), batch_size=2, num_epochs=2)
    root = tempfile.mkdtemp()
    os.makedirs(os.path.join(root, "meta"))
    names = []
    for label in labels_map:
        for m in range(2):
            names += generate_data(root, label, "model%02d" % m)
    with open(os.path.join(root, "meta", "train_tf.txt"), "w") as fp:
        fp.write("\n".join(names) + "\n")

    dataset = ShapeNet(root, "train_tf", options.dataset.mesh_pos, options.dataset.normalization)
    loader = DataLoader(dataset, batch_size=options.batch_size, shuffle=True,
                        collate_fn=get_shapenet_collate(options.dataset.num_points))
    ellipsoid = Ellipsoid(options.dataset.mesh_pos)
    model = P2MModel(ellipsoid)
    criterion = P2MLoss(options.loss, ellipsoid)
    optimizer = torch.optim.Adam(model.parameters(), lr=options.optim.lr)

    for epoch in range(options.num_epochs):
        model.train()
        for step, batch in enumerate(loader):
            out = model(batch["images"])
            loss, loss_summary = criterion(out, batch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print("epoch %d: loss %.5f chamfer %.5f" % (epoch, loss_summary["loss"].item(),
                                                     loss_summary["loss_chamfer"].item()))


main()
