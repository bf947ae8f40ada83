"""ICON registration training (Project-MONAI/research-contributions ICON layout: icon_registration/config.py picks the device once, the package's networks and the training loop read config.device): the network is moved to config.device, but the synthetic image pairs built in icon_registration/data.py stay on the CPU, so on a GPU machine the first convolution gets a CPU batch and CUDA weights
source: https://github.com/Project-MONAI/research-contributions/blob/3e985cf002daa8ea7858f6c1834ab2a07edfcae9/ICON/icon_registration/config.py
reported-error: (the repository's config module itself; ICON's own train loop calls .to(config.device) on each batch, the variant's data module returns the batches without it and fails on CUDA with RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same)
outcome: cuda-only: RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same or input should be a MKLDNN tensor and weight is a dense tensor (wording varies with the torch version) at icon_registration/networks.py:16; on CPU: ok
root-cause: icon_registration/data.py:14
expect: DG009
"""
import torch

import icon_registration as icon
from icon_registration import config

net = icon.InverseConsistentNet(icon.RegisNet(), lmbda=0.5)
net.to(config.device)
net.train()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)

batches = icon.get_synthetic_pairs(batch_size=8, side=32, n_batches=4)
for epoch in range(2):
    for moving_image, fixed_image in batches:
        optimizer.zero_grad()
        loss = net(moving_image, fixed_image)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
