"""The DDP embedding training of bw04 (pytorch/pytorch #84525) with a gather_list that matches what is sent: the float16 embeddings are all_gathered into torch.zeros_like(a) buffers (float16 too) and widened with .float() only after the collective, so both CPU ranks get every embedding and rank 0 reports the 1-NN accuracy; the float16 cast for the traffic, the int64 label gather and torch.from_numpy(...).float() inputs are kept
source: https://github.com/pytorch/pytorch/issues/84525
reported-error: "torch.distributed.all_gather should raise a TypeError if the tensors in tensor_list are not the same type as the gathered tensors. Otherwise, we end up with a silent bug where the gathered tensors are not equivalent to the tensor on each process" (nccl: a = torch.zeros(1, 5).cuda(gpu).half() + gpu gathered into [torch.zeros(1, 5).cuda(gpu) ...] gives 2.0039, 32.0625, ...; gloo on torch 2.13 refuses the mix instead)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

WORLD_SIZE = 2
EMB_DIM = 16


class Encoder(nn.Module):
    def __init__(self, n_in=24, n_classes=6):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_in, 64), nn.ReLU(), nn.Linear(64, EMB_DIM))
        self.cls = nn.Linear(EMB_DIM, n_classes)

    def embed(self, x):
        return F.normalize(self.body(x), dim=-1)

    def forward(self, x):
        return self.cls(self.embed(x))


def make_data(n, seed):
    rng = np.random.default_rng(seed)
    centers = np.random.default_rng(123).normal(0, 1, (6, 24))
    y = rng.integers(0, 6, n)
    x = centers[y] + 0.8 * rng.normal(0, 1, (n, 24))
    return TensorDataset(torch.from_numpy(x).float(), torch.from_numpy(y))


def gather_embeddings(model, loader, rank, world_size):
    feats, labels = [], []
    with torch.no_grad():
        for x, y in loader:
            feats.append(model.module.embed(x))
            labels.append(y)
    a = torch.cat(feats).half()
    gather_list = [torch.zeros_like(a) for _ in range(world_size)]
    dist.all_gather(gather_list, a)
    label_list = [torch.zeros(a.shape[0], dtype=torch.long) for _ in range(world_size)]
    dist.all_gather(label_list, torch.cat(labels))
    return torch.cat(gather_list).float(), torch.cat(label_list)


def worker(rank, world_size, init_file):
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method="file://" + init_file, rank=rank, world_size=world_size)
    torch.manual_seed(0)
    train_set, val_set = make_data(512, seed=1), make_data(128, seed=2)
    train_loader = DataLoader(train_set, batch_size=32, sampler=DistributedSampler(train_set, shuffle=True))
    val_loader = DataLoader(val_set, batch_size=32, sampler=DistributedSampler(val_set, shuffle=False))
    model = nn.parallel.DistributedDataParallel(Encoder())
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(3):
        train_loader.sampler.set_epoch(epoch)
        model.train()
        for x, y in train_loader:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        emb, lab = gather_embeddings(model, val_loader, rank, world_size)
        if rank == 0:
            sims = emb @ emb.T
            sims.fill_diagonal_(-2.0)
            top1 = (lab[sims.argmax(1)] == lab).float().mean().item()
            print(f"epoch {epoch}: loss {loss.item():.3f}, gathered {emb.shape[0]} embeddings, "
                  f"1-NN accuracy {100 * top1:.1f}%", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    init_file = os.path.join(tempfile.mkdtemp(), "dist_init")
    mp.spawn(worker, args=(WORLD_SIZE, init_file), nprocs=WORLD_SIZE)
