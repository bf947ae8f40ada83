"""VAE with KL warm-up in Lightning: while the KL weight is zero the KL term is replaced by torch.tensor(0.) (created on the CPU), and the loss terms are gathered with torch.stack for logging
source: https://github.com/Lightning-AI/pytorch-lightning/issues/7023
reported-error: RuntimeError: All input tensors must be on the same device. Received cpu and cuda:0 (loss_kl = torch.tensor(0) on the CPU; fix: torch.tensor(0).to(loss.device) or torch.zeros_like(loss))
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device (torch.stack of the CUDA reconstruction loss with the CPU zero KL term; cat/stack give no CPU-scalar exemption, the exact wording varies) at line 35; on CPU: ok
root-cause: line 34
expect: DG009
"""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class VAE(L.LightningModule):
    def __init__(self, n_in=20, n_latent=4, kl_warmup_steps=100):
        super().__init__()
        self.kl_warmup_steps = kl_warmup_steps
        self.enc = nn.Linear(n_in, 2 * n_latent)
        self.dec = nn.Linear(n_latent, n_in)

    def kl_weight(self):
        return min(1.0, self.global_step / self.kl_warmup_steps) if self.global_step > 10 else 0.0

    def training_step(self, batch, batch_idx):
        (x,) = batch
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        recon_loss = F.mse_loss(self.dec(z), x)
        beta = self.kl_weight()
        if beta > 0:
            loss_kl = beta * (-0.5 * torch.mean(1 + logvar - mu.pow(2) - logvar.exp()))
        else:
            loss_kl = torch.tensor(0.0)  # root-cause
        losses = torch.stack([recon_loss, loss_kl])  # fails-here
        self.log_dict({"recon": losses[0], "kl": losses[1]})
        return losses.sum()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    loader = DataLoader(TensorDataset(torch.randn(64, 20)), batch_size=16, shuffle=True)
    trainer = L.Trainer(max_epochs=1, limit_train_batches=2, logger=False, enable_checkpointing=False,
                        enable_progress_bar=False, enable_model_summary=False, accelerator="auto", devices=1)
    trainer.fit(VAE(), loader)
