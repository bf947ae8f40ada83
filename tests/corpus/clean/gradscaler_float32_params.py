"""AMP with gradient clipping: unscale_ first, then clip, then step."""
import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"


def make_model():
    return nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, 2)).to(device)


def train_step(model, optimizer, scaler, x, y):
    optimizer.zero_grad()
    with torch.autocast(device_type=device, dtype=torch.float16):
        logits = model(x)
    loss = nn.functional.cross_entropy(logits.float(), y)
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)
    nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    scaler.step(optimizer)
    scaler.update()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = make_model()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    scaler = torch.amp.GradScaler(device)
    for _ in range(5):
        x = torch.randn(32, 24, device=device)
        y = torch.randint(0, 2, (32,), device=device)
        train_step(model, optimizer, scaler, x, y)
