"""A free-space segmentation pipeline in the reporter's three scripts (re-typed: tensor.py turning cv2-read RGB frames into float tensors and grayscale label images into binary mask tensors, both saved with torch.save; load.py reading them back; the training script's SegmentationDataset, BasicUNet, BCEWithLogitsLoss and train_model): the binary masks are stored as uint8 tensors, the DataLoader batches them as ByteTensors and BCEWithLogitsLoss cannot write its float result into the Byte target's dtype
source: https://github.com/rollthecloudinc/hedge/issues/308
reported-error: a RuntimeError in torch.binary_cross_entropy_with_logits while training BasicUNet; the thread's diagnosis: "the model outputs are of type Float ... while the masks seem to be of type Byte (used for binary masks during preprocessing) ... convert the mask tensors to type torch.float before passing them to the loss function"
outcome: RuntimeError: result type Float can't be cast to the desired output type Byte at line 106
root-cause: line 36
expect: DG007
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
rng = np.random.default_rng(0)


# ---------------- tensor.py ----------------
def to_tensor(image):
    """transforms.ToTensor() for an HWC uint8 ndarray: CHW float32 in [0, 1]."""
    return torch.from_numpy(np.ascontiguousarray(image.transpose(2, 0, 1))).float().div(255)


def load_and_process_image(image):
    """Load an image and convert it to a PyTorch tensor (cv2.imread result passed in)."""
    image_tensor = to_tensor(image)  # Converts to [C, H, W] format
    return image_tensor


def load_and_process_mask(mask):
    """Convert a grayscale label image (free space = 255) to a binary PyTorch tensor."""
    binary_mask = (mask > 127).astype(np.uint8)  # free space 1, everything else 0
    binary_mask_tensor = torch.from_numpy(binary_mask)  # root-cause
    return binary_mask_tensor


def save_tensors(frames, label_images, out_dir):
    image_tensors = [load_and_process_image(f) for f in frames]
    mask_tensors = [load_and_process_mask(m) for m in label_images]
    torch.save(image_tensors, os.path.join(out_dir, "image_tensors.pt"))
    torch.save(mask_tensors, os.path.join(out_dir, "mask_tensors.pt"))


# ---------------- load.py ----------------
def load_tensors(image_tensor_path, mask_tensor_path):
    image_tensors = torch.load(image_tensor_path)
    print(f"Successfully loaded {len(image_tensors)} image tensors from '{os.path.basename(image_tensor_path)}'")
    mask_tensors = torch.load(mask_tensor_path)
    print(f"Successfully loaded {len(mask_tensors)} mask tensors from '{os.path.basename(mask_tensor_path)}'")
    return image_tensors, mask_tensors


# ---------------- training script ----------------
class SegmentationDataset(Dataset):
    def __init__(self, images, masks):
        self.images = images
        self.masks = masks

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        image = self.images[idx]
        mask = self.masks[idx]
        if len(mask.shape) == 2:
            mask = mask.unsqueeze(0)  # Add channel dimension (1 x H x W)
        return image, mask


class BasicUNet(nn.Module):
    def __init__(self, in_channels=3, out_channels=1):
        super().__init__()

        def block(cin, cout):
            return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.ReLU(inplace=True),
                                 nn.Conv2d(cout, cout, 3, padding=1), nn.ReLU(inplace=True))

        self.enc1 = block(in_channels, 16)
        self.enc2 = block(16, 32)
        self.pool = nn.MaxPool2d(2)
        self.up = nn.ConvTranspose2d(32, 16, 2, stride=2)
        self.dec1 = block(32, 16)
        self.out = nn.Conv2d(16, out_channels, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(self.pool(e1))
        d1 = self.dec1(torch.cat([self.up(e2), e1], dim=1))
        return self.out(d1)


def train_model(model, train_loader, val_loader, epochs, criterion, optimizer, device):
    print(f"Training started on {device}...")
    model.to(device)
    for epoch in range(epochs):
        model.train()
        train_loss = 0.0
        for images, masks in train_loader:
            images = images.to(device)
            masks = masks.to(device)  # root-cause-alt
            optimizer.zero_grad()
            outputs = model(images)
            loss = criterion(outputs, masks)  # fails-here
            loss.backward()
            optimizer.step()
            train_loss += loss.item()
        model.eval()
        val_loss = 0.0
        with torch.no_grad():
            for images, masks in val_loader:
                images, masks = images.to(device), masks.to(device)
                val_loss += criterion(model(images), masks).item()
        print(f"Epoch {epoch + 1}/{epochs}: train loss {train_loss / len(train_loader):.4f}, "
              f"val loss {val_loss / len(val_loader):.4f}")
    return model


def synthetic_indoor_frames(n=10, h=32, w=48):
    """cv2.imread stand-ins: BGR uint8 frames and grayscale labels (floor = 255)."""
    frames, labels = [], []
    for _ in range(n):
        frame = rng.integers(0, 256, size=(h, w, 3), dtype=np.uint8)
        label = np.zeros((h, w), dtype=np.uint8)
        horizon = int(rng.integers(h // 3, 2 * h // 3))
        label[horizon:, :] = 255
        frame[horizon:, :, 1] = np.clip(frame[horizon:, :, 1].astype(int) + 60, 0, 255).astype(np.uint8)
        frames.append(frame)
        labels.append(label)
    return frames, labels


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as out_dir:
        frames, labels = synthetic_indoor_frames()
        save_tensors(frames, labels, out_dir)
        image_tensors, mask_tensors = load_tensors(os.path.join(out_dir, "image_tensors.pt"),
                                                   os.path.join(out_dir, "mask_tensors.pt"))
        dataset = SegmentationDataset(image_tensors, mask_tensors)
        train_set, val_set = torch.utils.data.random_split(dataset, [8, 2], generator=torch.Generator().manual_seed(0))
        train_loader = DataLoader(train_set, batch_size=4, shuffle=True)
        val_loader = DataLoader(val_set, batch_size=2)
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = BasicUNet(in_channels=3, out_channels=1)
        criterion = nn.BCEWithLogitsLoss()
        optimizer = optim.Adam(model.parameters(), lr=1e-3)
        model = train_model(model, train_loader, val_loader, 2, criterion, optimizer, device)
        torch.save(model.state_dict(), os.path.join(out_dir, "basic_unet.pth"))
