import torch
from torch.optim import AdamW

from .fp16_util import MixedPrecisionTrainer


class TrainLoop:
    def __init__(self, *, model, diffusion, data, batch_size, lr, use_fp16=False, weight_decay=0.0):
        self.model = model
        self.diffusion = diffusion
        self.data = data
        self.batch_size = batch_size
        self.lr = lr
        self.mp_trainer = MixedPrecisionTrainer(model=self.model, use_fp16=use_fp16)
        self.opt = AdamW(self.mp_trainer.master_params, lr=self.lr, weight_decay=weight_decay)

    def run_step(self, batch, cond):
        self.mp_trainer.zero_grad()
        t = torch.randint(0, self.diffusion.num_timesteps, (batch.shape[0],))
        losses = self.diffusion.training_losses(self.model, batch, t)
        loss = losses["loss"].mean()
        self.mp_trainer.backward(loss)
        self.mp_trainer.optimize(self.opt)
        return loss.item()
