"""Memory-saving experiment with a Trainer.fit(): the first epoch runs in float32 as warm-up, then an on_epoch_end hook halves the model and its inputs by hand (model.half()) while the Adam optimizer created at the start keeps float32 exp_avg state; the next optimizer step fails
source: https://devhide.com/does-automatic-mixed-precision-amp-half-the-paramters-of-a-model-74092624
reported-error: the reporter halved the model and data manually with half() for training (results were poor) before learning about automatic mixed precision, which keeps float32 weights for the optimizer
outcome: RuntimeError: expected dtype float for `end` but got dtype c10::Half at line 28
root-cause: line 21
expect: DG015
"""
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, lr=1e-3, half_after_epoch=0):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.half_after_epoch = half_after_epoch
        self.dtype = torch.float32

    def on_epoch_end(self, epoch):
        if epoch == self.half_after_epoch:
            self.model.half()  # root-cause
            self.dtype = torch.float16

    def training_step(self, x, y):
        loss = nn.functional.mse_loss(self.model(x.to(self.dtype)), y.to(self.dtype))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()  # fails-here
        return loss.item()

    def fit(self, batches, epochs=3):
        for epoch in range(epochs):
            losses = [self.training_step(x, y) for x, y in batches]
            print(f"epoch {epoch}: loss {sum(losses) / len(losses):.4f} ({self.dtype})")
            self.on_epoch_end(epoch)


torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.Conv2d(4, 1, 3, padding=1))
batches = [(torch.rand(4, 1, 16, 16), torch.rand(4, 1, 16, 16)) for _ in range(3)]
Trainer(net).fit(batches)
