"""The Auto3DSeg DiNTS search-then-train run of ci01 as PR #413 fixes it: the training stage reads the searched architecture codes with torch.load(arch_ckpt_path, map_location=device, weights_only=False) (the file is the run's own search output, still holding the NumPy arrays dints_space.decode() returns), builds the DiNTS network from them and trains it
source: https://github.com/Project-MONAI/research-contributions/issues/411
reported-error: (none; the fixed situation of ci01, network.yaml's arch_ckpt loaded with weights_only=False)
outcome: ok
root-cause: -
expect: none
"""
import atexit
import os
import shutil
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
rng = np.random.default_rng(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
bundle_root = tempfile.mkdtemp(prefix="dints_0_")
atexit.register(shutil.rmtree, bundle_root, True)
os.makedirs(os.path.join(bundle_root, "scripts"), exist_ok=True)

NUM_BLOCKS, NUM_DEPTHS, NUM_OPS = 4, 3, 3
PATCH = (16, 16, 16)


# ---- synthetic CT patches: int16 HU volumes, ScaleIntensityRanged(-1000..1000 -> 0..1), integer organ labels -------
def make_case():
    hu = rng.normal(-700, 120, PATCH).astype(np.int16)
    label = np.zeros(PATCH, np.int64)
    c = rng.integers(4, 12, 3)
    label[c[0] - 3:c[0] + 3, c[1] - 3:c[1] + 3, c[2] - 3:c[2] + 3] = 1
    hu[label == 1] = rng.normal(60, 20, int((label == 1).sum())).astype(np.int16)
    image = np.clip((hu.astype(np.float32) + 1000.0) / 2000.0, 0.0, 1.0)
    return torch.from_numpy(image)[None], torch.from_numpy(label)[None]


cases = [make_case() for _ in range(6)]


# ---- monai.networks.nets.dints stand-ins ---------------------------------------------------------------------------
class TopologySearch(nn.Module):
    """Architecture parameters of the search space; decode() gives the codes as NumPy arrays, as MONAI's does."""

    def __init__(self, num_blocks=NUM_BLOCKS, num_depths=NUM_DEPTHS, device="cpu"):
        super().__init__()
        self.num_blocks, self.num_depths = num_blocks, num_depths
        self.log_alpha_a = nn.Parameter(torch.zeros(num_blocks, num_depths, device=device).normal_(1, 0.01))
        self.log_alpha_c = nn.Parameter(torch.zeros(num_blocks, num_depths, NUM_OPS, device=device).normal_(1, 0.01))

    def get_prob_a(self):
        return torch.sigmoid(self.log_alpha_a)

    def decode(self):
        probs = self.get_prob_a().data.cpu().numpy()
        arch_code_a_max = (probs > 0.5).astype(int)
        arch_code_c = torch.argmax(F.softmax(self.log_alpha_c, -1), -1).data.cpu().numpy()
        arch_code_a = np.zeros((self.num_blocks, self.num_depths))
        best = probs.argmax(-1)
        arch_code_a[np.arange(self.num_blocks), best] = 1
        node_a = np.zeros((self.num_blocks + 1, self.num_depths))
        node_a[0, :] = 1
        node_a[1:, :] = arch_code_a
        return node_a, arch_code_a, arch_code_c, arch_code_a_max


class DiNTS(nn.Module):
    def __init__(self, dints_space, in_channels, num_classes, node_a):
        super().__init__()
        self.dints_space = dints_space
        self.stem = nn.Conv3d(in_channels, 8, 3, padding=1)
        self.cells = nn.ModuleList(nn.ModuleList(nn.Conv3d(8, 8, 3, padding=1) for _ in range(NUM_OPS))
                                   for _ in range(dints_space.num_blocks))
        self.head = nn.Conv3d(8, num_classes, 1)
        self.register_buffer("node_a", torch.as_tensor(node_a, dtype=torch.float32))

    def forward(self, x):
        h = F.relu(self.stem(x))
        w = F.softmax(self.dints_space.log_alpha_c, -1).mean(1)
        for blk, ops in enumerate(self.cells):
            h = h + sum(w[blk, k] * F.relu(op(h)) for k, op in enumerate(ops))
        return self.head(h)


class TopologyInstance(nn.Module):
    def __init__(self, arch_code, num_blocks=NUM_BLOCKS, num_depths=NUM_DEPTHS, device="cpu"):
        super().__init__()
        self.num_blocks, self.num_depths = num_blocks, num_depths
        arch_code_a, arch_code_c = arch_code
        self.arch_code_a = torch.from_numpy(arch_code_a).to(device)
        self.log_alpha_c = nn.Parameter(F.one_hot(torch.from_numpy(arch_code_c).to(torch.int64), NUM_OPS).float()
                                        .to(device), requires_grad=False)


def dice_ce(logits, label):
    ce = F.cross_entropy(logits, label[:, 0])
    p = torch.softmax(logits, 1)[:, 1]
    g = (label[:, 0] == 1).float()
    dice = 1 - (2 * (p * g).sum() + 1e-5) / (p.sum() + g.sum() + 1e-5)
    return ce + dice


# ---- scripts/search.py (run): weights and architecture updates, validation, the arch-code files --------------------
def search_run(arch_path, num_epochs=2):
    dints_space = TopologySearch(device=device)
    model = DiNTS(dints_space, in_channels=1, num_classes=2, node_a=np.ones((NUM_BLOCKS + 1, NUM_DEPTHS))).to(device)
    optimizer = torch.optim.SGD([p for n, p in model.named_parameters() if "log_alpha" not in n], lr=0.05)
    arch_optimizer = torch.optim.Adam([dints_space.log_alpha_a, dints_space.log_alpha_c], lr=0.01)
    best_metric, best_metric_epoch, idx_iter = -1, -1, 0
    for epoch in range(num_epochs):
        for image, label in cases:
            image, label = image[None].to(device), label[None].to(device)
            loss = dice_ce(model(image), label)
            optimizer.zero_grad()
            arch_optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            arch_optimizer.step()
            idx_iter += 1
        with torch.no_grad():
            metric = torch.zeros(2, device=device)
            for image, label in cases[:2]:
                pred = model(image[None].to(device)).argmax(1)
                g = label.to(device)[0] == 1
                metric[0] += 2 * (pred[0].bool() & g).sum() / (pred[0].bool().sum() + g.sum() + 1e-5)
                metric[1] += 1
        metric = metric.tolist()
        avg_metric = metric[0] / metric[1]
        print(f"epoch {epoch + 1}: avg_metric {avg_metric:.4f}")
        if avg_metric > best_metric:
            best_metric, best_metric_epoch = avg_metric, epoch + 1
        (node_a_d, arch_code_a_d, arch_code_c_d, arch_code_a_max_d) = dints_space.decode()
        torch.save(
            {
                "code_a": arch_code_a_d,
                "code_a_max": arch_code_a_max_d,
                "code_c": arch_code_c_d,
                "best_dsc": best_metric,
                "best_path": best_metric_epoch,
                "dsc": avg_metric,
                "epochs": epoch + 1,
                "iter_num": idx_iter,
                "node_a": node_a_d,
            },
            os.path.join(arch_path, "search_code_latest.pt"),
        )


# ---- scripts/algo.py: the searched architecture is copied into the bundle for training ----------------------------
arch_path = os.path.join(bundle_root, "arch")
os.makedirs(arch_path, exist_ok=True)
search_run(arch_path)
shutil.copy(os.path.join(arch_path, "search_code_latest.pt"), os.path.join(bundle_root, "scripts", "arch_code.pth"))


# ---- scripts/train.py: configs/network.yaml's training_network section, resolved by the ConfigParser ---------------
def get_training_network(bundle_root, input_channels=1, output_classes=2):
    arch_ckpt_path = bundle_root + "/scripts/arch_code.pth"
    arch_ckpt = torch.load(arch_ckpt_path, map_location=device, weights_only=False)
    dints_space = TopologyInstance(arch_code=[arch_ckpt["code_a"], arch_ckpt["code_c"]], device=device)
    return DiNTS(dints_space, in_channels=input_channels, num_classes=output_classes, node_a=arch_ckpt["node_a"])


model = get_training_network(bundle_root).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for epoch in range(2):
    epoch_loss = 0.0
    for image, label in cases:
        loss = dice_ce(model(image[None].to(device)), label[None].to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        epoch_loss += loss.item()
    print(f"train epoch {epoch + 1} average loss: {epoch_loss / len(cases):.4f}")
