"""Image-restoration trainer resumed on a CPU debugging box: restore_param_groups() copies the saved optimizer hyper-parameters back into the live param groups, including capturable=True from the original CUDA-graph run; Adam then asserts on the first step because capturable needs CUDA/XPU parameters and step tensors
source: https://github.com/open-mmlab/mmagic/issues/1988
reported-error: AssertionError when resuming: the capturable flag does not match where the params and state_steps live (If capturable=False, state_steps should not be CUDA tensors)
outcome: AssertionError: If capturable=True, params and state_steps must be on supported devices: ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']. at line 57
root-cause: line 39
expect: DG016
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

SAVED_META = {"iter": 1200, "param_groups": [{"lr": 2e-4, "betas": (0.9, 0.99), "capturable": True, "foreach": None}]}


class ResBlock(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.c1 = nn.Conv2d(ch, ch, 3, padding=1)
        self.c2 = nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, x):
        return x + self.c2(F.relu(self.c1(x)))


class Restorer(nn.Module):
    def __init__(self, ch=16, blocks=2):
        super().__init__()
        self.head = nn.Conv2d(3, ch, 3, padding=1)
        self.body = nn.Sequential(*[ResBlock(ch) for _ in range(blocks)])
        self.tail = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, x):
        return x + self.tail(self.body(self.head(x)))


def restore_param_groups(optimizer, saved_groups):
    for group, saved in zip(optimizer.param_groups, saved_groups):
        for key in ("lr", "betas", "capturable"):
            group[key] = saved[key]  # root-cause


def charbonnier(pred, target, eps=1e-3):
    return torch.sqrt((pred - target) ** 2 + eps ** 2).mean()


def main(iters=2):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Restorer().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    restore_param_groups(optimizer, SAVED_META["param_groups"])
    for it in range(SAVED_META["iter"], SAVED_META["iter"] + iters):
        gt = torch.rand(2, 3, 16, 16, device=device)
        lq = gt + 0.1 * torch.randn_like(gt)
        loss = charbonnier(model(lq), gt)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
        print(f"iter {it}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
