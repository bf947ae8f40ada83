"""Complex-valued vision transformer on MNIST-like digits (torchcvnn examples' vit_mnist.py re-typed without torchvision/torchcvnn): the real-valued patch embedder (RMSNorm + Conv2d built with dtype=torch.float32) turns images into the Fourier domain with fft2 and feeds complex64 attention layers, but the plain train() path converts the images to cdtype = torch.complex64 in the dataset transform, so the float32 Conv2d receives complex64 input
source: https://github.com/torchcvnn/examples/issues/13
reported-error: "In mnist_conv/vit_mnist.py, lighting_train(0) works correctly, but train() throws a data type mismatch error ... the embedder receives complex64 inputs, which leads to RuntimeError: Input type (c10::complex<float>) and bias type (float) should be the same" (maintainer: the data is converted to complex by the DFT in PatchEmbedding's forward, so the input should be float32; line 236 must be changed to torch.float32)
outcome: RuntimeError: Input type (c10::complex<float>) and bias type (float) should be the same at line 99
root-cause: line 154
expect: DG004
"""
import math
import random

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, Subset

torch.manual_seed(0)
random.seed(0)


# --- torchcvnn.nn pieces (re-typed, small) ---
class CRMSNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, z):
        return z * torch.rsqrt((z.abs() ** 2).mean(-1, keepdim=True) + 1e-6) * self.weight


class CGELU(nn.Module):
    def forward(self, z):
        return torch.complex(nn.functional.gelu(z.real), nn.functional.gelu(z.imag))


class Mod(nn.Module):
    def forward(self, z):
        return z.abs()


class CMultiheadAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.dk = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim, dtype=torch.complex64)
        self.out = nn.Linear(dim, dim, dtype=torch.complex64)

    def forward(self, z):
        B, N, D = z.shape
        q, k, v = self.qkv(z).view(B, N, 3, self.heads, self.dk).permute(2, 0, 3, 1, 4)
        scores = torch.softmax((q @ k.conj().transpose(-2, -1)).real / math.sqrt(self.dk), dim=-1)
        return self.out((scores.to(v.dtype) @ v).transpose(1, 2).reshape(B, N, D))


class ViTLayer(nn.Module):
    def __init__(self, dim, heads, mlp_dim):
        super().__init__()
        self.norm1, self.norm2 = CRMSNorm(dim), CRMSNorm(dim)
        self.attn = CMultiheadAttention(dim, heads)
        self.mlp = nn.Sequential(nn.Linear(dim, mlp_dim, dtype=torch.complex64), CGELU(), nn.Linear(mlp_dim, dim, dtype=torch.complex64))

    def forward(self, z):
        z = z + self.attn(self.norm1(z))
        return z + self.mlp(self.norm2(z))


class ViT(nn.Module):
    def __init__(self, patch_embedder, num_layers, num_heads, hidden_dim, mlp_dim):
        super().__init__()
        self.patch_embedder = patch_embedder
        self.layers = nn.Sequential(*[ViTLayer(hidden_dim, num_heads, mlp_dim) for _ in range(num_layers)])
        self.norm = CRMSNorm(hidden_dim)

    def forward(self, x):
        embedding = self.patch_embedder(x)  # (B, hidden_dim, nH, nW), complex
        return self.norm(self.layers(embedding.flatten(2).transpose(1, 2)))


# --- vit_mnist.py (re-typed) ---
class PatchEmbedder(nn.Module):
    def __init__(self, image_size, cin, hidden_dim, patch_size, norm_layer=nn.RMSNorm, dtype=torch.complex64):
        super().__init__()
        factory_kwargs = {"dtype": dtype}
        self.embedder = nn.Sequential(
            norm_layer([cin, image_size, image_size], **factory_kwargs),
            nn.Conv2d(cin, hidden_dim, kernel_size=patch_size, stride=patch_size, **factory_kwargs),
            norm_layer([hidden_dim, image_size // patch_size, image_size // patch_size], **factory_kwargs),
        )

    def rope_embedding(self, H, W, hidden_dim):
        pos_H, pos_W = torch.arange(H, dtype=torch.float32), torch.arange(W, dtype=torch.float32)
        theta_t = 100 ** (torch.arange(0, hidden_dim, 2, dtype=torch.float32) / (hidden_dim / 2))
        emb = torch.exp(1j * theta_t)
        embeddings = torch.zeros(hidden_dim, H, W, dtype=torch.complex64)
        embeddings[0::2, :, :] = (emb[:, None] ** pos_H[None, :])[:, :, None]
        embeddings[1::2, :, :] = (emb[:, None] ** pos_W[None, :])[:, None, :]
        return embeddings

    def forward(self, x):
        patch_embeddings = self.embedder(x)  # fails-here
        patch_embeddings = torch.fft.fft2(patch_embeddings)
        H, W = patch_embeddings.shape[2:]
        return patch_embeddings + self.rope_embedding(H, W, patch_embeddings.shape[1])


class Model(nn.Module):
    def __init__(self, hidden_dim=32, patch_size=7):
        super().__init__()
        embedder = PatchEmbedder(28, 1, hidden_dim, patch_size, norm_layer=nn.RMSNorm, dtype=torch.float32)
        self.backbone = ViT(embedder, num_layers=2, num_heads=4, hidden_dim=hidden_dim, mlp_dim=4 * hidden_dim)
        self.head = nn.Sequential(nn.Linear(hidden_dim, 10, dtype=torch.complex64), Mod())

    def forward(self, x):
        return self.head(self.backbone(x).mean(dim=1))


class SyntheticMNIST(Dataset):
    """uint8 28x28 digit-like images (one stroke pattern per class); transform as in torchvision datasets."""

    def __init__(self, n, seed, transform):
        g = np.random.default_rng(seed)
        self.labels = g.integers(0, 10, n)
        self.images = np.zeros((n, 28, 28), dtype=np.uint8)
        for i, c in enumerate(self.labels):
            r, col = 4 + 2 * c + g.integers(-1, 2), 4 + (3 * c) % 20 + g.integers(-1, 2)
            self.images[i, r:r + 3, 4:24] = 255
            self.images[i, 4:24, col:col + 3] = 200
        self.transform = transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        img = torch.from_numpy(self.images[idx])[None]  # PILToTensor: (1, 28, 28) uint8
        return self.transform(img), int(self.labels[idx])


def train_epoch(model, loader, f_loss, optim):
    model.train()
    total, correct, n = 0.0, 0, 0
    for inputs, targets in loader:
        outputs = model(inputs)
        loss = f_loss(outputs, targets)
        optim.zero_grad()
        loss.backward()
        optim.step()
        total += loss.item() * inputs.shape[0]
        correct += (outputs.argmax(dim=1) == targets).sum().item()
        n += inputs.shape[0]
    return total / n, correct / n


def train():
    valid_ratio, batch_size, epochs = 0.1, 16, 2
    cdtype = torch.complex64  # root-cause
    train_valid_dataset = SyntheticMNIST(320, seed=0, transform=lambda img: img.to(cdtype))  # ToDtype(cdtype)  # root-cause-alt
    all_indices = list(range(len(train_valid_dataset)))
    random.shuffle(all_indices)
    split_idx = int(valid_ratio * len(train_valid_dataset))
    train_loader = DataLoader(Subset(train_valid_dataset, all_indices[split_idx:]), batch_size=batch_size, shuffle=True)
    model = Model()
    f_loss = nn.CrossEntropyLoss()
    optim = torch.optim.Adam(model.parameters(), lr=3e-3)
    for e in range(epochs):
        train_loss, train_acc = train_epoch(model, train_loader, f_loss, optim)
        print(f"[Step {e}] Train : CE {train_loss:5.2f} Acc {train_acc:5.2f}")


train()
