"""BaseTrainer / FP16Trainer pair: the subclass's setup_model() hook honours --fp16 by calling model.half() (on top of the base class's GradScaler/autocast recipe), and scaler.step() then refuses the float16 gradients
source: https://domenics.ca/post/valueerror-attempting-to-unscale-fp16-gradients
reported-error: ValueError: Attempting to unscale FP16 gradients.
outcome: ValueError: Attempting to unscale FP16 gradients. at line 35
root-cause: line 43
expect: DG014
"""
import argparse

import torch
import torch.nn as nn


class BaseTrainer:
    def __init__(self, args):
        self.args = args
        self.model = self.setup_model(self.build_model())
        self.opt = torch.optim.Adam(self.model.parameters(), lr=args.lr)
        self.scaler = torch.amp.GradScaler("cpu", enabled=True)

    def build_model(self):
        return nn.Sequential(nn.Conv1d(20, 32, 3, padding=1), nn.ReLU(), nn.Conv1d(32, 20, 3, padding=1))

    def setup_model(self, model):
        return model

    def cast_batch(self, x):
        return x

    def train_step(self, mel):
        mel = self.cast_batch(mel)
        loss = nn.functional.l1_loss(self.model(mel).float(), mel.float())
        self.opt.zero_grad()
        self.scaler.scale(loss).backward()
        self.scaler.step(self.opt)  # fails-here
        self.scaler.update()
        return loss.item()


class FP16Trainer(BaseTrainer):
    def setup_model(self, model):
        if self.args.fp16:
            model = model.half()  # root-cause
        return model

    def cast_batch(self, x):
        return x.half() if self.args.fp16 else x


parser = argparse.ArgumentParser()
parser.add_argument("--lr", type=float, default=2e-4)
parser.add_argument("--fp16", action="store_true")
args = parser.parse_args(["--fp16"])
trainer = FP16Trainer(args)
for it in range(3):
    print("loss", trainer.train_step(torch.randn(4, 20, 50)))
