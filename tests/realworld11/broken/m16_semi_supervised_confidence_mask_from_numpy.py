"""Semi-supervised expression-recognition step (Ada-CM-style): the model and batches live on the selected device, but the per-sample confidence mask is computed with NumPy on detached probabilities and rebuilt with torch.from_numpy without moving it, then multiplied into the cuda unlabeled loss
source: https://github.com/hangyu94/Ada-CM/issues/10
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (at the mask_ori line of the training step)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (the CPU mask times the cuda per-sample loss) at line 31; on CPU: ok
root-cause: line 19
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def adaptive_threshold(probs, base=0.6):
    return base + 0.3 * probs.mean()


def confidence_mask(probs_np, thr):
    return torch.from_numpy((probs_np.max(axis=1) >= thr).astype(np.float32))  # root-cause


def train_step(model, opt, x_l, y_l, x_u_weak, x_u_strong):
    logits_l = model(x_l)
    loss_x = F.cross_entropy(logits_l, y_l)
    with torch.no_grad():
        probs = torch.softmax(model(x_u_weak), dim=1)
    probs_np = probs.cpu().numpy()
    mask_ori = confidence_mask(probs_np, adaptive_threshold(probs_np))
    pseudo = probs.argmax(1)
    per_sample = F.cross_entropy(model(x_u_strong), pseudo, reduction="none")
    loss_u = (per_sample * mask_ori).mean()  # fails-here
    loss = loss_x + loss_u
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item(), float(mask_ori.mean())


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    model = nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 7)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for it in range(3):
        x_l = torch.randn(8, 1, 8, 8, device=device)
        y_l = torch.randint(0, 7, (8,), device=device)
        x_u = torch.randn(16, 1, 8, 8, device=device)
        loss, ratio = train_step(model, opt, x_l, y_l, x_u, x_u + 0.1 * torch.randn_like(x_u))
        print(f"iter {it}: loss {loss:.4f} mask ratio {ratio:.2f}")


if __name__ == "__main__":
    main()
