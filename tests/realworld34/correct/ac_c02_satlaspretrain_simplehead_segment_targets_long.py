"""SatlasPretrain SimpleHead fine-tuning with the upstream fix: the segment branch passes the stacked class masks with .long(), while the bin_segment branch keeps its .float() one-hot masks, which its loss_func turns into int64 indices with argmax before cross-entropy
source: https://github.com/allenai/satlaspretrain_models/issues/5
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Float for argument #2 'target' (SimpleHead.forward casts task_targets with .float() for the segment, bin segment and multi-label tasks; heads.py#L179)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


# ---- satlaspretrain_models/models/backbones.py (stand-in for the Swin-B + FPN backbone)
class TinyBackbone(nn.Module):
    def __init__(self, in_channels=3, out_channels=16):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(in_channels, out_channels, 3, padding=1), nn.ReLU(inplace=True))
        self.out_channels = [[4, out_channels]]

    def forward(self, x):
        return [self.conv(x)]


# ---- satlaspretrain_models/models/heads.py
class SimpleHead(torch.nn.Module):
    def __init__(self, task, backbone_channels, num_outputs=2):
        super(SimpleHead, self).__init__()
        self.task_type = task
        use_channels = backbone_channels[0][1]
        num_layers = 2
        self.num_outputs = num_outputs

        layers = []
        for _ in range(num_layers - 1):
            layers.append(torch.nn.Sequential(torch.nn.Conv2d(use_channels, use_channels, 3, padding=1),
                                              torch.nn.ReLU(inplace=True)))
        if self.task_type == 'segment':
            layers.append(torch.nn.Conv2d(use_channels, self.num_outputs, 3, padding=1))
            self.loss_func = lambda logits, targets: torch.nn.functional.cross_entropy(logits, targets, reduction='none')
        elif self.task_type == 'bin_segment':
            layers.append(torch.nn.Conv2d(use_channels, self.num_outputs, 3, padding=1))

            def loss_func(logits, targets):
                targets = targets.argmax(dim=1)
                return torch.nn.functional.cross_entropy(logits, targets, reduction='none')[:, None, :, :]
            self.loss_func = loss_func
        self.layers = torch.nn.Sequential(*layers)

    def forward(self, image_list, raw_features, targets=None):
        raw_outputs = self.layers(raw_features[0])
        loss = None
        if self.task_type == 'segment':
            outputs = torch.nn.functional.softmax(raw_outputs, dim=1)
            if targets is not None:
                task_targets = torch.stack([target['im'] for target in targets], dim=0)
                task_valid = torch.stack([target['valid_im'] for target in targets], dim=0)
                loss = self.loss_func(raw_outputs, task_targets.long()) * task_valid
                loss = loss.mean()
        elif self.task_type == 'bin_segment':
            outputs = torch.nn.functional.softmax(raw_outputs, dim=1)
            if targets is not None:
                task_targets = torch.stack([target['im'] for target in targets], dim=0)
                task_valid = torch.stack([target['valid_im'] for target in targets], dim=0)
                loss = self.loss_func(raw_outputs, task_targets.float())
                loss *= task_valid[:, None, :, :]
                loss = loss.mean()
        return outputs, loss


class Model(nn.Module):
    def __init__(self, num_categories, head="segment"):
        super().__init__()
        self.backbone = TinyBackbone()
        self.head = SimpleHead(head, self.backbone.out_channels, num_outputs=num_categories)

    def forward(self, imgs, targets=None):
        return self.head(imgs, self.backbone(imgs), targets)


# ---- fine-tuning script: land-cover masks (uint8 class ids per pixel, 255 = no data)
class LandCoverDataset(Dataset):
    def __init__(self, n=16, size=32, num_categories=4):
        g = torch.Generator().manual_seed(0)
        self.images = torch.rand(n, 3, size, size, generator=g)
        self.masks = torch.randint(0, num_categories, (n, size, size), generator=g).to(torch.uint8)
        self.masks[:, :4, :4] = 255

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        mask = self.masks[idx]
        valid = (mask != 255).float()
        return self.images[idx], {'im': torch.where(mask == 255, torch.zeros_like(mask), mask), 'valid_im': valid}


def collate(batch):
    return torch.stack([b[0] for b in batch]), [b[1] for b in batch]


if __name__ == "__main__":
    model = Model(num_categories=4, head="segment")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    loader = DataLoader(LandCoverDataset(), batch_size=4, shuffle=True, collate_fn=collate)
    for epoch in range(2):
        for imgs, targets in loader:
            outputs, loss = model(imgs, targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")

    # binary water / no-water head: one-hot float masks, argmax'd inside SimpleHead's loss_func
    bin_model = Model(num_categories=2, head="bin_segment")
    imgs = torch.rand(4, 3, 32, 32)
    onehot = torch.nn.functional.one_hot(torch.randint(0, 2, (4, 32, 32)), 2).permute(0, 3, 1, 2).to(torch.uint8)
    targets = [{'im': onehot[i], 'valid_im': torch.ones(32, 32)} for i in range(4)]
    outputs, loss = bin_model(imgs, targets)
    loss.backward()
    print(f"bin_segment loss {loss.item():.4f}")
