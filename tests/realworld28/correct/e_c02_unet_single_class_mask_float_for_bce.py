"""Binary segmentation with milesial/Pytorch-UNet where BasicDataset still returns int64 masks (needed by the multi-class CrossEntropy branch) and the single-class branch converts them at the loss, criterion(masks_pred.squeeze(1), true_masks.float()), as upstream train.py does
source: https://github.com/milesial/Pytorch-UNet/issues/176
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


# ---- utils/data_loading.py
class BasicDataset(Dataset):
    def __init__(self, n=8, scale=1.0, mask_values=(0, 1)):
        rng = np.random.default_rng(0)
        self.images = rng.random((n, 3, 32, 32)).astype(np.float32)
        self.masks = (rng.random((n, 32, 32)) > 0.7).astype(np.uint8)
        self.mask_values = list(mask_values)

    def __len__(self):
        return len(self.images)

    @staticmethod
    def preprocess(mask_values, img, is_mask):
        if is_mask:
            mask = np.zeros(img.shape, dtype=np.int64)
            for i, v in enumerate(mask_values):
                mask[img == v] = i
            return mask
        return img

    def __getitem__(self, idx):
        img = self.preprocess(self.mask_values, self.images[idx], is_mask=False)
        mask = self.preprocess(self.mask_values, self.masks[idx], is_mask=True)
        return {
            "image": torch.as_tensor(img.copy()).float().contiguous(),
            "mask": torch.as_tensor(mask.copy()).long().contiguous(),
        }


# ---- unet/unet_model.py (two-level stand-in)
class UNet(nn.Module):
    def __init__(self, n_channels, n_classes):
        super().__init__()
        self.n_channels, self.n_classes = n_channels, n_classes
        self.inc = nn.Sequential(nn.Conv2d(n_channels, 16, 3, padding=1), nn.ReLU())
        self.down = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(32, 16, 2, stride=2)
        self.outc = nn.Conv2d(32, n_classes, 1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.up(self.down(x1))
        return self.outc(torch.cat([x1, x2], dim=1))


def dice_loss(input, target, epsilon=1e-6):
    inter = 2 * (input * target).sum()
    sets_sum = input.sum() + target.sum()
    return 1 - (inter + epsilon) / (sets_sum + epsilon)


# ---- train.py
def train_model(model, device, epochs=2, batch_size=4, learning_rate=1e-5):
    train_loader = DataLoader(BasicDataset(), batch_size=batch_size, shuffle=False)
    optimizer = torch.optim.RMSprop(model.parameters(), lr=learning_rate, weight_decay=1e-8, momentum=0.999)
    criterion = nn.CrossEntropyLoss() if model.n_classes > 1 else nn.BCEWithLogitsLoss()
    for epoch in range(1, epochs + 1):
        model.train()
        for batch in train_loader:
            images, true_masks = batch["image"], batch["mask"]
            images = images.to(device=device, dtype=torch.float32)
            true_masks = true_masks.to(device=device, dtype=torch.long)
            masks_pred = model(images)
            if model.n_classes == 1:
                loss = criterion(masks_pred.squeeze(1), true_masks.float())
                loss += dice_loss(F.sigmoid(masks_pred.squeeze(1)), true_masks.float())
            else:
                loss = criterion(masks_pred, true_masks)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = UNet(n_channels=3, n_classes=1).to(device=device)
    train_model(model, device)
