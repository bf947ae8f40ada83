"""Image-prompt adapter: ImageProjector keeps a fixed PCA projection as a plain tensor attribute made with torch.from_numpy in __init__ (neither nn.Parameter nor register_buffer), so model.to(device) leaves it on the CPU and torch.mm in forward mixes cuda:0 and cpu
source: https://github.com/Shakker-Labs/ComfyUI-IPAdapter-Flux/issues/47
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument mat2 in method wrapper_CUDA_mm)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (torch.mm of the CUDA image embeddings with the CPU projection; not run on a GPU here) at line 23; on CPU: ok
root-cause: line 18
expect: DG009
"""
import os

import numpy as np
import torch
import torch.nn as nn


class ImageProjector(nn.Module):
    def __init__(self, components, n_tokens=4, dim=32):
        super().__init__()
        self.proj = torch.from_numpy(components.astype(np.float32))  # root-cause
        self.to_tokens = nn.Linear(components.shape[1], n_tokens * dim)
        self.n_tokens, self.dim = n_tokens, dim

    def forward(self, image_embeds):
        z = torch.mm(image_embeds, self.proj)  # fails-here
        return self.to_tokens(z).view(-1, self.n_tokens, self.dim)


class AdapterTrainer:
    def __init__(self, model, device):
        self.device = device
        self.model = model.to(device)
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=1e-4)

    def train_step(self, embeds, text_tokens):
        tokens = self.model(embeds.to(self.device))
        loss = (tokens.mean(1) - text_tokens.to(self.device)).pow(2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


device = torch.device(os.environ.get("ADAPTER_DEVICE", "cuda" if torch.cuda.is_available() else "cpu"))
rng = np.random.default_rng(0)
clip_embeds = rng.normal(size=(256, 64))
_, _, vt = np.linalg.svd(clip_embeds - clip_embeds.mean(0), full_matrices=False)
trainer = AdapterTrainer(ImageProjector(vt[:16].T), device)
for step in range(3):
    e = torch.from_numpy(clip_embeds[step * 32:(step + 1) * 32].astype(np.float32))
    print("loss", trainer.train_step(e, torch.randn(32, 32)))
