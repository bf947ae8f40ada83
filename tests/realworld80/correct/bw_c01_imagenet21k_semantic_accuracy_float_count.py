"""The ImageNet-21K-P semantic-softmax DDP run of bw01 (Alibaba-MIIL/ImageNet21K #34) with the fix of commit d86519d: AccuracySemanticSoftmaxMet casts num_valids_total to float before the two ranks all-reduce it, so reduce_tensor's in-place division by the world size works and the semantic top-1 accuracy is printed after each epoch; the int64 torch.sum of the bool valid-masks, the in-place rt /= n of the float tensors and the int64 labels from torch.from_numpy are kept
source: https://github.com/Alibaba-MIIL/ImageNet21K/issues/34
reported-error: "I have got a casting error because of these two lines of code. num_valids_total is int. rt /= n RuntimeError: result type Float can't be cast to the desired output type Long" (fixed by commit d86519d: num_valids_total = num_valids_total.float())
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


# --- src_files/helper_functions/distributed.py ---
def num_distrib():
    return int(os.environ.get("WORLD_SIZE", 0))


def is_master():
    return not dist.is_initialized() or dist.get_rank() == 0


def print_at_master(msg):
    if is_master():
        print(msg, flush=True)


def setup_distrib(rank, init_file):
    if num_distrib() > 1:
        dist.init_process_group(backend="gloo", init_method="file://" + init_file, rank=rank, world_size=num_distrib())


def to_ddp(model):
    if num_distrib() > 1:
        model = nn.parallel.DistributedDataParallel(model)
    return model


def reduce_tensor(tensor, n):
    rt = tensor.clone()
    dist.all_reduce(rt, op=dist.ReduceOp.SUM)
    rt /= n
    return rt


# --- src_files/semantic/semantics.py ---
class ImageNet21kSemanticSoftmax:
    def __init__(self, tree):
        self.class_tree_list = tree["class_tree_list"]
        num_classes = len(self.class_tree_list)
        self.class_depth = torch.zeros(num_classes)
        for i in range(num_classes):
            self.class_depth[i] = len(self.class_tree_list[i]) - 1
        max_depth = int(torch.max(self.class_depth).item())
        hist_tree = torch.histc(self.class_depth, bins=max_depth + 1, min=0, max=max_depth).int()
        cls = torch.tensor(np.arange(num_classes))
        self.hierarchy_indices_list = []
        for i in range(max_depth):
            if hist_tree[i] > 1:
                self.hierarchy_indices_list.append(cls[self.class_depth == i].long())
        self.normalization_factor_list = torch.zeros_like(hist_tree)
        for i in range(max_depth):
            self.normalization_factor_list[i] = torch.sum(hist_tree[i:], dim=0)
        self.normalization_factor_list = (self.normalization_factor_list[0] / self.normalization_factor_list).clamp_(max=20.0)

    def split_logits_to_semantic_logits(self, logits):
        return [logits[:, ind] for ind in self.hierarchy_indices_list]

    def convert_targets_to_semantic_targets(self, targets_original):
        targets = targets_original.cpu().detach()
        semantic_targets_list = torch.zeros((targets.shape[0], len(self.hierarchy_indices_list))) - 1
        for i, target in enumerate(targets):
            cls_multi_list = self.class_tree_list[target]
            hir_levels = len(cls_multi_list)
            for j, cls in enumerate(cls_multi_list):
                if len(self.hierarchy_indices_list) <= hir_levels - j - 1:
                    continue
                ind_valid = self.hierarchy_indices_list[hir_levels - j - 1] == cls
                semantic_targets_list[i, hir_levels - j - 1] = torch.where(ind_valid)[0]
        return semantic_targets_list.long().to(device=targets_original.device)


# --- src_files/semantic/semantic_loss.py ---
class SemanticSoftmaxLoss(nn.Module):
    def __init__(self, processor, label_smooth=0.2):
        super().__init__()
        self.processor, self.label_smooth = processor, label_smooth

    def forward(self, logits, targets):
        semantic_logit_list = self.processor.split_logits_to_semantic_logits(logits)
        semantic_targets_tensor = self.processor.convert_targets_to_semantic_targets(targets)
        total_sum = 0
        for i, logits_i in enumerate(semantic_logit_list):
            targets_i = semantic_targets_tensor[:, i]
            log_preds = F.log_softmax(logits_i, dim=1)
            targets_i_valid = targets_i.clone()
            targets_i_valid[targets_i_valid < 0] = 0
            num_classes = logits_i.size()[-1]
            targets_classes = torch.zeros_like(logits_i).scatter_(1, targets_i_valid.unsqueeze(1), 1)
            targets_classes.mul_(1 - self.label_smooth).add_(self.label_smooth / num_classes)
            cross_entropy_loss_tot = -targets_classes.mul(log_preds)
            cross_entropy_loss_tot *= (targets_i >= 0).unsqueeze(1)
            total_sum += cross_entropy_loss_tot.sum(dim=-1).mean() * self.processor.normalization_factor_list[i]
        return total_sum


# --- src_files/semantic/metrics.py ---
class AccuracySemanticSoftmaxMet:
    def __init__(self, processor):
        self.processor = processor
        self.total, self.count = 0.0, 0

    def reset(self):
        self.total, self.count = 0.0, 0

    def accumulate(self, logits, targs):
        with torch.no_grad():
            semantic_logit_list = self.processor.split_logits_to_semantic_logits(logits)
            semantic_targets_tensor = self.processor.convert_targets_to_semantic_targets(targs)
            accuracy_list, accuracy_valid_list = [], []
            result = 0
            for i in range(len(semantic_logit_list)):
                logits_i = semantic_logit_list[i]
                targets_i = semantic_targets_tensor[:, i]
                pred_i = logits_i.argmax(dim=-1)
                ind_valid = targets_i >= 0
                num_valids = torch.sum(ind_valid)
                accuracy_valid_list.append(num_valids)
                if num_valids > 0:
                    accuracy_list.append((pred_i[ind_valid] == targets_i[ind_valid]).float().mean())
                else:
                    accuracy_list.append(0)
                result += accuracy_list[-1] * accuracy_valid_list[-1]
            num_valids_total = sum(accuracy_valid_list)

        result = result.detach()
        num_valids_total = num_valids_total.detach()
        num_valids_total = num_valids_total.float()
        if num_distrib() > 1:
            result = reduce_tensor(result, num_distrib())
            num_valids_total = reduce_tensor(num_valids_total, num_distrib())
        self.total += result.item()
        self.count += num_valids_total.item()

    @property
    def value(self):
        return self.total / self.count * 100 if self.count != 0 else None


def make_tree():
    """A 4-level class tree (3 roots, 2 children each): class_tree_list[c] lists c and its ancestors, leaf first."""
    tree, parents, level = [], [None] * 3, []
    for c in range(3):
        tree.append([c])
        level.append(c)
    for _depth in range(3):
        nxt = []
        for p in level:
            for _ in range(2):
                c = len(tree)
                tree.append([c] + tree[p])
                nxt.append(c)
        level = nxt
    return {"class_tree_list": tree}


def validate_21k(val_loader, model, met):
    print_at_master("starting validation")
    model.eval()
    met.reset()
    with torch.no_grad():
        for inputs, target in val_loader:
            logits = model(inputs).float()
            met.accumulate(logits, target)
    print_at_master("Validation results:")
    print_at_master("Semantic Acc_Top1 [%] {:.2f} ".format(met.value))
    model.train()


def worker(rank, init_file):
    torch.set_num_threads(1)
    setup_distrib(rank, init_file)
    torch.manual_seed(0)
    tree = make_tree()
    num_classes = len(tree["class_tree_list"])
    leaves = [c for c, path in enumerate(tree["class_tree_list"]) if len(path) == 4]
    rng = np.random.default_rng(0)
    centers = rng.normal(0, 1, (num_classes, 32)).astype(np.float32)
    y = rng.choice(leaves, 1024)
    x = (centers[y] + 0.7 * rng.normal(0, 1, (1024, 32))).astype(np.float32)
    train_set = TensorDataset(torch.from_numpy(x[:768]), torch.from_numpy(y[:768]))
    val_set = TensorDataset(torch.from_numpy(x[768:]), torch.from_numpy(y[768:]))
    train_loader = DataLoader(train_set, batch_size=32, sampler=DistributedSampler(train_set, shuffle=True))
    val_loader = DataLoader(val_set, batch_size=64, sampler=DistributedSampler(val_set, shuffle=False))

    model = to_ddp(nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, num_classes)))
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    processor = ImageNet21kSemanticSoftmax(tree)
    loss_fn = SemanticSoftmaxLoss(processor)
    met = AccuracySemanticSoftmaxMet(processor)
    for epoch in range(2):
        train_loader.sampler.set_epoch(epoch)
        print_at_master(f"\nEpoch {epoch}")
        for inputs, target in train_loader:
            loss = loss_fn(model(inputs), target)
            model.zero_grad()
            loss.backward()
            optimizer.step()
        print_at_master(f"last train loss {loss.item():.3f}")
        validate_21k(val_loader, model, met)
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ["WORLD_SIZE"] = str(WORLD_SIZE)
    init_file = os.path.join(tempfile.mkdtemp(), "dist_init")
    mp.spawn(worker, args=(init_file,), nprocs=WORLD_SIZE)
