"""hgraph2graph training meters: np.array over CUDA accuracy tensors
source: https://github.com/wengong-jin/hgraph2graph/issues/40
reported-error: TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first
outcome: cuda-only: TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first. at line 51; on CPU: ok
root-cause: line 34
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')


class HierVAE(nn.Module):
    def __init__(self, vocab=40, hidden=32, latent=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, hidden)
        self.enc = nn.GRU(hidden, hidden, batch_first=True)
        self.mu = nn.Linear(hidden, latent)
        self.logvar = nn.Linear(hidden, latent)
        self.dec = nn.Linear(latent, vocab)

    def forward(self, tokens, beta):
        _, h = self.enc(self.emb(tokens))
        h = h[-1]
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        kl_div = -0.5 * torch.sum(1.0 + logvar - mu * mu - torch.exp(logvar)) / tokens.size(0)
        logits = self.dec(z)
        target = tokens[:, 0]
        loss = F.cross_entropy(logits, target)
        wacc = (logits.argmax(-1) == target).float().mean()  # root-cause
        iacc = tacc = sacc = wacc
        return loss + beta * kl_div, kl_div.item(), wacc, iacc, tacc, sacc


model = HierVAE().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
meters = np.zeros(6)
for epoch in range(1):
    print(f'Epoch {epoch} training...')
    for total_step in range(1, 9):
        batch = torch.randint(0, 40, (16, 12), device=device)
        model.zero_grad()
        loss, kl_div, wacc, iacc, tacc, sacc = model(batch, beta=0.1)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()
        meters = meters + np.array([kl_div, loss.item(), wacc * 100, iacc * 100, tacc * 100, sacc * 100])  # fails-here
        if total_step % 4 == 0:
            meters /= 4
            print("[%d] Beta: %.3f, KL: %.2f, loss: %.3f, Word: %.2f, %.2f, Topo: %.2f, Assm: %.2f" % (total_step, 0.1, meters[0], meters[1], meters[2], meters[3], meters[4], meters[5]))
            meters *= 0
