"""SuperGlue keypoint-matching training with DistributedDataParallel (re-typed from SuperGlue_PyTorch_MultiGPU_implementation's train_DistributedDataParallel.py over HeatherJiaZG's SuperGlue-pytorch: keypoint encoder, attentional GNN, log-space optimal transport, loss over all_matches) on two CPU ranks (gloo, mp.spawn, DistributedSampler): the model is wrapped in DDP as float32 and `superglue.double().train()` runs at the top of every epoch, after the wrap and, from the second epoch on, after optimizer steps
source: https://github.com/Jazihars/SuperGlue_PyTorch_MultiGPU_implementation/issues/1
reported-error: "File train_DistributedDataParallel.py, line 306: Loss.backward() ... RuntimeError: output with backend CUDA and dtype Float doesn't match the desired backend CUDA and dtype Double"
outcome: ok (silent: no error and no warning on torch 2.13 with gloo; after the cast the float64 gradients no longer land in the float32 buckets DDP built at wrap time, so they are never averaged and the two replicas drift apart: "replica divergence after 3 epochs: max |rank0 - rank1| = 2.9e-02" over the parameters, where bw_c03 prints 0.0e+00)
root-cause: line 208
expect: DG015
"""
import os
import tempfile

import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.optim as optim
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler

WORLD_SIZE = 2
DESC_DIM = 32


# --- models/superglue.py (HeatherJiaZG training fork, shrunk) ---
def MLP(channels):
    layers = []
    for i in range(1, len(channels)):
        layers.append(nn.Conv1d(channels[i - 1], channels[i], kernel_size=1, bias=True))
        if i < len(channels) - 1:
            layers.append(nn.BatchNorm1d(channels[i]))
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


def normalize_keypoints(kpts, image_shape):
    _, _, height, width = image_shape
    one = kpts.new_tensor(1)
    size = torch.stack([one * width, one * height])[None]
    center = size / 2
    scaling = size.max(1, keepdim=True).values * 0.7
    return (kpts - center[:, None, :]) / scaling[:, None, :]


class KeypointEncoder(nn.Module):
    def __init__(self, feature_dim, layers):
        super().__init__()
        self.encoder = MLP([3] + layers + [feature_dim])
        nn.init.constant_(self.encoder[-1].bias, 0.0)

    def forward(self, kpts, scores):
        return self.encoder(torch.cat([kpts.transpose(1, 2), scores.unsqueeze(1)], dim=1))


def attention(query, key, value):
    dim = query.shape[1]
    scores = torch.einsum("bdhn,bdhm->bhnm", query, key) / dim ** 0.5
    prob = torch.nn.functional.softmax(scores, dim=-1)
    return torch.einsum("bhnm,bdhm->bdhn", prob, value), prob


class MultiHeadedAttention(nn.Module):
    def __init__(self, num_heads, d_model):
        super().__init__()
        self.dim, self.num_heads = d_model // num_heads, num_heads
        self.merge = nn.Conv1d(d_model, d_model, kernel_size=1)
        self.proj = nn.ModuleList([nn.Conv1d(d_model, d_model, kernel_size=1) for _ in range(3)])

    def forward(self, query, key, value):
        batch_dim = query.size(0)
        query, key, value = [l(x).view(batch_dim, self.dim, self.num_heads, -1)
                             for l, x in zip(self.proj, (query, key, value))]
        x, _ = attention(query, key, value)
        return self.merge(x.contiguous().view(batch_dim, self.dim * self.num_heads, -1))


class AttentionalPropagation(nn.Module):
    def __init__(self, feature_dim, num_heads):
        super().__init__()
        self.attn = MultiHeadedAttention(num_heads, feature_dim)
        self.mlp = MLP([feature_dim * 2, feature_dim * 2, feature_dim])
        nn.init.constant_(self.mlp[-1].bias, 0.0)

    def forward(self, x, source):
        return self.mlp(torch.cat([x, self.attn(x, source, source)], dim=1))


class AttentionalGNN(nn.Module):
    def __init__(self, feature_dim, layer_names):
        super().__init__()
        self.layers = nn.ModuleList([AttentionalPropagation(feature_dim, 4) for _ in range(len(layer_names))])
        self.names = layer_names

    def forward(self, desc0, desc1):
        for layer, name in zip(self.layers, self.names):
            src0, src1 = (desc1, desc0) if name == "cross" else (desc0, desc1)
            delta0, delta1 = layer(desc0, src0), layer(desc1, src1)
            desc0, desc1 = desc0 + delta0, desc1 + delta1
        return desc0, desc1


def log_sinkhorn_iterations(Z, log_mu, log_nu, iters):
    u, v = torch.zeros_like(log_mu), torch.zeros_like(log_nu)
    for _ in range(iters):
        u = log_mu - torch.logsumexp(Z + v.unsqueeze(1), dim=2)
        v = log_nu - torch.logsumexp(Z + u.unsqueeze(2), dim=1)
    return Z + u.unsqueeze(2) + v.unsqueeze(1)


def log_optimal_transport(scores, alpha, iters):
    b, m, n = scores.shape
    one = scores.new_tensor(1)
    ms, ns = (m * one).to(scores), (n * one).to(scores)
    bins0 = alpha.expand(b, m, 1)
    bins1 = alpha.expand(b, 1, n)
    alpha = alpha.expand(b, 1, 1)
    couplings = torch.cat([torch.cat([scores, bins0], -1), torch.cat([bins1, alpha], -1)], 1)
    norm = -(ms + ns).log()
    log_mu = torch.cat([norm.expand(m), ns.log()[None] + norm])
    log_nu = torch.cat([norm.expand(n), ms.log()[None] + norm])
    log_mu, log_nu = log_mu[None].expand(b, -1), log_nu[None].expand(b, -1)
    return log_sinkhorn_iterations(couplings, log_mu, log_nu, iters) - norm


class SuperGlue(nn.Module):
    default_config = {"descriptor_dim": DESC_DIM, "keypoint_encoder": [16, 32], "GNN_layers": ["self", "cross"] * 2,
                      "sinkhorn_iterations": 20, "match_threshold": 0.2}

    def __init__(self, config):
        super().__init__()
        self.config = {**self.default_config, **config}
        self.kenc = KeypointEncoder(self.config["descriptor_dim"], self.config["keypoint_encoder"])
        self.gnn = AttentionalGNN(self.config["descriptor_dim"], self.config["GNN_layers"])
        self.final_proj = nn.Conv1d(self.config["descriptor_dim"], self.config["descriptor_dim"], kernel_size=1)
        self.register_parameter("bin_score", nn.Parameter(torch.tensor(1.0)))

    def forward(self, data):
        desc0, desc1 = data["descriptors0"].double(), data["descriptors1"].double()
        kpts0, kpts1 = data["keypoints0"].double(), data["keypoints1"].double()
        desc0, desc1 = desc0.transpose(0, 1), desc1.transpose(0, 1)
        kpts0, kpts1 = torch.reshape(kpts0, (1, -1, 2)), torch.reshape(kpts1, (1, -1, 2))
        kpts0 = normalize_keypoints(kpts0, data["image0"].shape)
        kpts1 = normalize_keypoints(kpts1, data["image1"].shape)
        desc0 = desc0 + self.kenc(kpts0, torch.transpose(data["scores0"], 0, 1))
        desc1 = desc1 + self.kenc(kpts1, torch.transpose(data["scores1"], 0, 1))
        desc0, desc1 = self.gnn(desc0, desc1)
        mdesc0, mdesc1 = self.final_proj(desc0), self.final_proj(desc1)
        scores = torch.einsum("bdn,bdm->bnm", mdesc0, mdesc1) / self.config["descriptor_dim"] ** 0.5
        scores = log_optimal_transport(scores, self.bin_score, iters=self.config["sinkhorn_iterations"])
        max0 = scores[:, :-1, :-1].max(2)
        all_matches = data["all_matches"].permute(1, 2, 0)
        loss = []
        for i in range(len(all_matches[0])):
            x, y = all_matches[0][i][0], all_matches[0][i][1]
            loss.append(-torch.log(scores[0][x][y].exp()))
        loss_mean = torch.reshape(torch.mean(torch.stack(loss)), (1, -1))
        return {"matches0": max0.indices[0], "loss": loss_mean[0], "skip_train": False}


# --- load_data.py: SparseDataset (synthetic keypoints: image 1 is a rotated, shifted copy of image 0) ---
class SparseDataset(Dataset):
    def __init__(self, n_pairs, n_kpts=48, seed=0):
        rng = np.random.default_rng(seed)
        self.items = []
        for _ in range(n_pairs):
            k0 = rng.uniform(0, 160, (n_kpts, 2))
            th = rng.uniform(-0.3, 0.3)
            rot = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]])
            perm = rng.permutation(n_kpts)
            k1 = ((k0 - 80) @ rot.T + 80 + rng.normal(0, 1.0, (n_kpts, 2)))[perm]
            d0 = rng.normal(0, 1, (n_kpts, DESC_DIM))
            d1 = (d0 + 0.3 * rng.normal(0, 1, (n_kpts, DESC_DIM)))[perm]
            inv = np.argsort(perm)
            self.items.append({
                "keypoints0": list(k0), "keypoints1": list(k1),
                "descriptors0": list(d0.T), "descriptors1": list(d1.T),
                "scores0": list(np.ones(n_kpts)), "scores1": list(np.ones(n_kpts)),
                "image0": torch.zeros(1, 160, 160), "image1": torch.zeros(1, 160, 160),
                "all_matches": list(np.stack([np.arange(n_kpts), inv])),
                "file_name": f"pair_{len(self.items)}"})

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        return self.items[idx]


def main_worker(rank, world_size, init_file, epochs):
    torch.set_num_threads(1)
    dist.init_process_group(backend="gloo", init_method="file://" + init_file, world_size=world_size, rank=rank)
    dist.barrier()
    seed = 0 + dist.get_rank()
    torch.manual_seed(seed)
    np.random.seed(seed)

    train_dataset = SparseDataset(16)
    train_sampler = DistributedSampler(train_dataset, num_replicas=dist.get_world_size(), rank=dist.get_rank(),
                                       shuffle=True)
    train_loader = DataLoader(dataset=train_dataset, sampler=train_sampler, batch_size=1, drop_last=True)
    superglue = SuperGlue({"sinkhorn_iterations": 20, "match_threshold": 0.2})
    superglue = DDP(superglue, find_unused_parameters=True)
    optimizer = optim.Adam(superglue.parameters(), lr=1e-3)

    for epoch in range(1, epochs + 1):
        train_loader.sampler.set_epoch(epoch)
        epoch_loss = 0
        superglue.double().train()  # root-cause
        for i, pred in enumerate(train_loader):
            for k in pred:
                if k != "file_name" and k != "image0" and k != "image1":
                    pred[k] = pred[k] if type(pred[k]) == torch.Tensor else torch.stack(pred[k])
            data = superglue(pred)
            for k, v in pred.items():
                pred[k] = v[0]
            pred = {**pred, **data}
            if pred["skip_train"] == True:  # noqa: E712  (image has no keypoint)
                continue
            Loss = pred["loss"]
            epoch_loss += Loss.item()
            optimizer.zero_grad()
            Loss.backward()
            optimizer.step()
        if rank == 0:
            print(f"Epoch [{epoch}/{epochs}] done. Epoch Loss {epoch_loss / len(train_loader):.4f}", flush=True)

    flat = torch.cat([p.detach().reshape(-1) for p in superglue.module.parameters()])
    gathered = [torch.zeros_like(flat) for _ in range(world_size)]
    dist.all_gather(gathered, flat)
    if rank == 0:
        drift = (gathered[0] - gathered[1]).abs().max().item()
        print(f"replica divergence after {epochs} epochs: max |rank0 - rank1| = {drift:.1e}", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    init_file = os.path.join(tempfile.mkdtemp(), "dist_init")
    mp.spawn(main_worker, args=(WORLD_SIZE, init_file, 3), nprocs=WORLD_SIZE)
