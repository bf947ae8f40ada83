"""NASA Li-ion battery SOH prediction with MVIP-Trans (Tianyou-Bai/NASA_Li-ion_Battery_SOH_Prediction_with_MVIP-Trans, re-typed from the issue's traceback: soh_train.py's experiment() loop calling y_pred, _, _ = model(inputs), the ViT-style model whose forward starts with x = self.to_patch_embedding(img)): the per-cycle voltage/current/temperature curves read from the .mat files are float64 NumPy arrays, the multi-variable images built from them stay float64 through torch.from_numpy, and the float32 patch-embedding Linear refuses them
source: https://github.com/Tianyou-Bai/NASA_Li-ion_Battery_SOH_Prediction_with_MVIP-Trans/issues/2
reported-error: RuntimeError in soh_train.py experiment() -> model(inputs) -> forward -> x = self.to_patch_embedding(img) -> Sequential -> Linear (the reporter: "only changing float64 to float32 lets it run; does it affect the final result?")
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 106
root-cause: line 69
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
rng = np.random.default_rng(0)

BATTERIES = ["B0005", "B0006", "B0007", "B0018"]
NOMINAL_CAPACITY = 2.0  # Ah
POINTS = 256            # each discharge curve resampled to 256 points -> one 16x16 channel


# ---- data: what scipy.io.loadmat gives for each discharge cycle (float64 arrays) -------------------------------
def load_battery(name: str):
    """Stand-in for loadmat(f'{name}.mat'): per discharge cycle, Voltage_measured, Current_measured,
    Temperature_measured over time, and the measured Capacity (all float64, as MATLAB doubles)."""
    n_cycles = int(rng.integers(110, 140))
    fade = rng.uniform(0.25, 0.35)
    cycles = []
    for k in range(n_cycles):
        capacity = NOMINAL_CAPACITY * (1.0 - fade * k / n_cycles) + rng.normal(0, 0.01)
        n = int(rng.integers(300, 400))
        t = np.linspace(0.0, 3600.0 * capacity / 2.0, n)
        v = 4.2 - 1.5 * (t / t[-1]) ** 3 - 0.2 * t / t[-1] + rng.normal(0, 0.005, n)
        i = -2.0 + rng.normal(0, 0.01, n)
        temp = 24.0 + 14.0 * t / t[-1] + rng.normal(0, 0.1, n)
        cycles.append({"Time": t, "Voltage_measured": v, "Current_measured": i,
                       "Temperature_measured": temp, "Capacity": capacity})
    return cycles


def resample(curve: np.ndarray, points: int = POINTS) -> np.ndarray:
    return np.interp(np.linspace(0, len(curve) - 1, points), np.arange(len(curve)), curve)


def build_images(cycles):
    """Multi-variable image per cycle: channels V, I, T, each a 16x16 grid; label SOH = C / C_nominal."""
    imgs, soh = [], []
    for c in cycles:
        chans = [resample(c[key]).reshape(16, 16)
                 for key in ("Voltage_measured", "Current_measured", "Temperature_measured")]
        imgs.append(np.stack(chans))
        soh.append(c["Capacity"] / NOMINAL_CAPACITY)
    imgs = np.asarray(imgs)
    mean = imgs.mean(axis=(0, 2, 3), keepdims=True)
    std = imgs.std(axis=(0, 2, 3), keepdims=True) + 1e-8
    return (imgs - mean) / std, np.asarray(soh)


def get_loaders(test_battery: str, batch_size: int = 16):
    train_x, train_y = [], []
    test_x = test_y = None
    for name in BATTERIES:
        x, y = build_images(load_battery(name))
        if name == test_battery:
            test_x, test_y = x, y
        else:
            train_x.append(x)
            train_y.append(y)
    train_x, train_y = np.concatenate(train_x), np.concatenate(train_y)
    train_ds = TensorDataset(torch.from_numpy(train_x), torch.from_numpy(train_y))  # root-cause
    test_ds = TensorDataset(torch.from_numpy(test_x), torch.from_numpy(test_y))
    return (DataLoader(train_ds, batch_size=batch_size, shuffle=True),
            DataLoader(test_ds, batch_size=batch_size, shuffle=False))


# ---- model: ViT over the multi-variable image ------------------------------------------------------------------
class Rearrange(nn.Module):
    """einops' Rearrange('b c (h p1) (w p2) -> b (h w) (p1 p2 c)')."""

    def __init__(self, p1: int, p2: int):
        super().__init__()
        self.p1, self.p2 = p1, p2

    def forward(self, x):
        b, c, hh, ww = x.shape
        h, w = hh // self.p1, ww // self.p2
        x = x.reshape(b, c, h, self.p1, w, self.p2).permute(0, 2, 4, 3, 5, 1)
        return x.reshape(b, h * w, self.p1 * self.p2 * c)


class MVIPTrans(nn.Module):
    def __init__(self, image_size=16, patch_size=4, channels=3, dim=64, depth=2, heads=4, mlp_dim=128):
        super().__init__()
        num_patches = (image_size // patch_size) ** 2
        patch_dim = channels * patch_size * patch_size
        self.to_patch_embedding = nn.Sequential(
            Rearrange(patch_size, patch_size),
            nn.Linear(patch_dim, dim),
        )
        self.pos_embedding = nn.Parameter(torch.randn(1, num_patches + 1, dim))
        self.cls_token = nn.Parameter(torch.randn(1, 1, dim))
        layer = nn.TransformerEncoderLayer(dim, heads, mlp_dim, dropout=0.1, batch_first=True)
        self.transformer = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.mlp_head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 1))

    def forward(self, img):
        x = self.to_patch_embedding(img)  # fails-here
        b, n, _ = x.shape
        x = torch.cat((self.cls_token.expand(b, -1, -1), x), dim=1)
        x = x + self.pos_embedding[:, : n + 1]
        feats = self.transformer(x)
        cls = feats[:, 0]
        return self.mlp_head(cls).squeeze(-1), cls, feats


def experiment(test_battery: str = "B0005", epochs: int = 3, lr: float = 1e-3):
    train_loader, test_loader = get_loaders(test_battery)
    model = MVIPTrans()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    criterion = nn.MSELoss()
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for inputs, labels in train_loader:
            optimizer.zero_grad()
            y_pred, _, _ = model(inputs)
            loss = criterion(y_pred, labels)
            loss.backward()
            optimizer.step()
            total += loss.item() * len(labels)
        print(f"epoch {epoch}: train mse {total / len(train_loader.dataset):.5f}")
    model.eval()
    preds, trues = [], []
    with torch.no_grad():
        for inputs, labels in test_loader:
            y_pred, _, _ = model(inputs)
            preds.append(y_pred)
            trues.append(labels)
    preds, trues = torch.cat(preds), torch.cat(trues)
    rmse = torch.sqrt(torch.mean((preds - trues) ** 2)).item()
    print(f"{test_battery}: test RMSE {rmse:.4f}")


experiment()
