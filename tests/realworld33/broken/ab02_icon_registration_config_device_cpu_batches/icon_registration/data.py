import torch


def get_synthetic_pairs(batch_size=8, side=32, n_batches=4, seed=0):
    g = torch.Generator().manual_seed(seed)
    batches = []
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, side), torch.linspace(-1, 1, side), indexing="ij")
    for _ in range(n_batches):
        cx = torch.rand(batch_size, 1, 1, generator=g) - 0.5
        cy = torch.rand(batch_size, 1, 1, generator=g) - 0.5
        r = 0.3 + 0.2 * torch.rand(batch_size, 1, 1, generator=g)
        moving = (((xx - cx) ** 2 + (yy - cy) ** 2) < r ** 2).float().unsqueeze(1)
        fixed = (((xx + cx) ** 2 + (yy + cy) ** 2) < r ** 2).float().unsqueeze(1)
        batches.append((moving, fixed))  # root-cause
    return batches
