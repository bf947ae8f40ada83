"""Multi-view fusion module that gathers each view's neighbouring views with index_select; the neighbour index is rebuilt in forward() with torch.tensor(self.neighbors) and no device, so on a GPU the CUDA view features are indexed with a CPU index tensor
source: https://github.com/bronemos/view-fusion/issues/4
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument index in method wrapper_CUDA__index_select)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument index in method wrapper_CUDA__index_select) (not run on a GPU here) at line 32; on CPU: ok
root-cause: line 31
expect: DG009
"""
import torch
import torch.nn as nn


class ViewEncoder(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
                                 nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, dim))

    def forward(self, views):
        b, v = views.shape[:2]
        return self.net(views.flatten(0, 1)).view(b, v, -1)


class NeighborFusion(nn.Module):
    def __init__(self, n_views=6, dim=32):
        super().__init__()
        self.neighbors = [[(i - 1) % n_views, (i + 1) % n_views] for i in range(n_views)]
        self.mix = nn.Linear(3 * dim, dim)

    def forward(self, feats):
        b, v, d = feats.shape
        idx = torch.tensor(self.neighbors).flatten()  # root-cause
        nbr = feats.index_select(1, idx).view(b, v, 2 * d)  # fails-here
        return self.mix(torch.cat([feats, nbr], dim=-1))


class ViewFusionNet(nn.Module):
    def __init__(self, n_views=6, dim=32, n_classes=5):
        super().__init__()
        self.encoder = ViewEncoder(dim)
        self.fusion = NeighborFusion(n_views, dim)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, views):
        return self.head(self.fusion(self.encoder(views)).mean(1))


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = ViewFusionNet().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(3):
        views = torch.rand(4, 6, 3, 32, 32, device=device)
        labels = torch.randint(0, 5, (4,), device=device)
        loss = nn.functional.cross_entropy(model(views), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss {loss.item():.4f}")
