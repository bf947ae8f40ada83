"""The mmengine-style two-process gloo run of bv04 with the fix of PR #309: all_reduce(op='mean') divides out of place (data_on_device = data_on_device / world_size) and copies the result back into the buffer, so the int64 bucket (BatchNorm num_batches_tracked) gets its averaged count back as int64 and the float buffers (running_mean, running_var) are averaged; the type-bucketed coalesced all-reduce over every buffer and the in-place copy_ back are kept
source: https://github.com/open-mmlab/mmengine/pull/309
reported-error: (none filed; the fixed situation of bv04)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile
from collections import OrderedDict

import torch
import torch.distributed as torch_dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


# ---- mmengine/dist/dist.py (re-typed) -----------------------------------------------------
def get_world_size():
    return torch_dist.get_world_size() if torch_dist.is_available() and torch_dist.is_initialized() else 1


def is_distributed():
    return torch_dist.is_available() and torch_dist.is_initialized()


def all_reduce(data, op="sum"):
    world_size = get_world_size()
    if world_size > 1:
        data_on_device = data
        # pytorch does not support 'mean' operation so we fall back to support it with 'sum' operation.
        if op.lower() == "mean":
            torch_dist.all_reduce(data_on_device, torch_dist.ReduceOp.SUM)
            # When the type of `data_on_device` is int64, `data_on_device.div_(world_size)` will appear
            # RuntimeError: result type Float can't be cast to the desired output type Long.
            data_on_device = data_on_device / world_size
        else:
            torch_dist.all_reduce(data_on_device, torch_dist.ReduceOp.SUM)
        data.copy_(data_on_device)


def _all_reduce_coalesced(tensors, op="sum"):
    buckets = OrderedDict()
    for tensor in tensors:
        tp = tensor.type()
        if tp not in buckets:
            buckets[tp] = []
        buckets[tp].append(tensor)
    for bucket in buckets.values():
        flat_tensors = _flatten_dense_tensors(bucket)
        all_reduce(flat_tensors, op=op)
        for tensor, synced in zip(bucket, _unflatten_dense_tensors(flat_tensors, bucket)):
            tensor.copy_(synced)


def all_reduce_params(params, coalesce=True, op="sum"):
    if get_world_size() == 1:
        return
    params_data = [param.data for param in params]
    if coalesce:
        _all_reduce_coalesced(params_data, op=op)
    else:
        for tensor in params_data:
            all_reduce(tensor, op=op)


# ---- mmengine/hooks/sync_buffer_hook.py (re-typed) ----------------------------------------
class SyncBuffersHook:
    """Synchronize model buffers such as running_mean and running_var in BN at the end of each epoch."""

    def __init__(self):
        self.distributed = is_distributed()

    def after_train_epoch(self, runner):
        if self.distributed:
            all_reduce_params(runner.model.buffers(), op="mean")


class Runner:
    def __init__(self, model, hooks, rank, max_epochs=2):
        self.model, self.hooks, self.rank, self.max_epochs = model, hooks, rank, max_epochs
        self.optim = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

    def train(self, batches):
        for epoch in range(self.max_epochs):
            self.model.train()
            for x, y in batches:
                loss = F.cross_entropy(self.model(x), y)
                self.optim.zero_grad()
                loss.backward()
                for p in self.model.parameters():  # the DDP gradient average
                    torch_dist.all_reduce(p.grad)
                    p.grad /= get_world_size()
                self.optim.step()
            for hook in self.hooks:
                hook.after_train_epoch(self)
            if self.rank == 0:
                print(f"epoch {epoch}: loss {loss.item():.4f}, "
                      f"running_mean[0] {self.model[1].running_mean[0].item():.4f}")


def worker(rank, world_size, init_file):
    torch_dist.init_process_group("gloo", init_method=f"file://{init_file}", rank=rank, world_size=world_size)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                          nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 4))
    g = torch.Generator().manual_seed(100 + rank)
    batches = [(torch.randn(6, 3, 8, 8, generator=g), torch.randint(0, 4, (6,), generator=g)) for _ in range(3)]
    runner = Runner(model, [SyncBuffersHook()], rank)
    try:
        runner.train(batches)
        counter = model[1].num_batches_tracked
        assert counter.dtype == torch.int64 and counter.item() == 6, counter
    finally:
        torch_dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    with tempfile.TemporaryDirectory() as tmp:
        mp.spawn(worker, args=(2, os.path.join(tmp, "dist_init")), nprocs=2, join=True)
