"""A coqui-ai Trainer run (re-typed: Trainer, save_checkpoint/save_model, load_fsspec, restore_model) trains an MNIST-like MLP with the StepwiseGradualLR scheduler, whose get_lr returns np.tile(lr, n); the NumPy float64 learning rates land in the optimizer param_groups that the checkpoint stores, and resuming with --continue_path fails in the weights-only load
source: https://github.com/idiap/coqui-ai-Trainer/pull/19
reported-error: "Otherwise a Numpy scalar can end up in the saved checkpoints, which causes issues with weights-only loading" (PR #19, fix: remove use of Numpy in stepwise scheduler; get_lr returned np.tile(lr, len(self.base_lrs)))
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. ... at line 59
root-cause: line 53
expect: DG011
"""
import contextlib
import datetime
import glob
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)

# `torch.serialization.add_safe_globals` is needed for weights_only=True to work
# with all Coqui models and only available from Pytorch >=2.4
_WEIGHTS_ONLY = True


class StepwiseGradualLR(torch.optim.lr_scheduler._LRScheduler):
    """Hardcoded step-wise learning rate scheduling. Necessary for CapacitronVAE."""

    def __init__(self, optimizer, gradual_learning_rates, last_epoch=-1):
        self.gradual_learning_rates = gradual_learning_rates
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        step = max(self.last_epoch, 1)
        step_thresholds = []
        rates = []
        for values in self.gradual_learning_rates:
            step_thresholds.append(values[0])
            rates.append(values[1])

        boolean_indeces = np.less_equal(step_thresholds, step)
        # Ignore steps larger than the last step in the list
        with contextlib.suppress(IndexError):
            last_true = np.where(boolean_indeces)[0][-1]
        lr = rates[np.max(last_true, 0)]

        # Return last lr if step is above the set threshold
        lr = rates[-1] if step > step_thresholds[-1] else lr
        # Return first lr if step is below the second threshold - first is initial lr
        lr = rates[0] if step < step_thresholds[1] else lr

        return np.tile(lr, len(self.base_lrs))  # hack?  # root-cause


def load_fsspec(path, map_location=None, **kwargs):
    """Like torch.load but can load from other locations (here: local files only)."""
    with open(path, "rb") as f:
        return torch.load(f, map_location=map_location, weights_only=_WEIGHTS_ONLY, **kwargs)  # fails-here


def save_model(config, model, optimizer, scaler, current_step, epoch, output_path, **kwargs):
    model_state = model.state_dict()
    optimizer_state = optimizer.state_dict() if optimizer is not None else None
    scaler_state = scaler.state_dict() if scaler is not None else None
    state = {
        "config": config,
        "model": model_state,
        "optimizer": optimizer_state,  # root-cause-alt
        "scaler": scaler_state,
        "step": current_step,
        "epoch": epoch,
        "date": datetime.date.today().strftime("%B %d, %Y"),
    }
    state.update(kwargs)
    torch.save(state, output_path)


def save_checkpoint(config, model, optimizer, scaler, current_step, epoch, output_folder, **kwargs):
    checkpoint_path = os.path.join(output_folder, f"checkpoint_{current_step}.pth")
    print(f" > CHECKPOINT : {checkpoint_path}")
    save_model(config, model, optimizer, scaler, current_step, epoch, checkpoint_path, **kwargs)


def get_last_checkpoint(path):
    files = glob.glob(os.path.join(path, "checkpoint_*.pth"))
    return max(files, key=lambda f: int(f.split("_")[-1].split(".")[0]))


class MnistModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer_1 = nn.Linear(28 * 28, 128)
        self.layer_2 = nn.Linear(128, 256)
        self.layer_3 = nn.Linear(256, 10)

    def forward(self, x):
        x = x.view(x.size(0), -1)
        return F.log_softmax(self.layer_3(F.relu(self.layer_2(F.relu(self.layer_1(x))))), dim=1)

    def train_step(self, batch, criterion):
        x, y = batch
        logits = self(x)
        loss = criterion(logits, y)
        return {"model_outputs": logits}, {"loss": loss}


class Trainer:
    def __init__(self, config, output_path, continue_path=""):
        self.config = config
        self.output_path = output_path
        self.continue_path = continue_path
        self.model = MnistModel()
        self.criterion = nn.NLLLoss()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=config["lr"])
        self.scaler = None
        self.restore_step, self.restore_epoch = 0, 0
        if continue_path:
            restore_path = get_last_checkpoint(continue_path)
            self.restore_step, self.restore_epoch = self.restore_model(restore_path)
        self.scheduler = StepwiseGradualLR(self.optimizer, **config["lr_scheduler_params"])
        if continue_path:
            self.scheduler.last_epoch = self.restore_step
        self.total_steps_done = self.restore_step
        g = torch.Generator().manual_seed(0)
        self.images = torch.rand(256, 1, 28, 28, generator=g)
        self.labels = torch.randint(0, 10, (256,), generator=g)

    def restore_model(self, restore_path):
        print(f" > Restoring from {os.path.basename(restore_path)} ...")
        checkpoint = load_fsspec(restore_path, map_location="cpu")
        self.model.load_state_dict(checkpoint["model"])
        self.optimizer.load_state_dict(checkpoint["optimizer"])
        print(f" > Model restored from step {checkpoint['step']}")
        return checkpoint["step"] + 1, checkpoint["epoch"]

    def train_step(self, batch):
        _, loss_dict = self.model.train_step(batch, self.criterion)
        self.optimizer.zero_grad()
        loss_dict["loss"].backward()
        self.optimizer.step()
        if not self.config["scheduler_after_epoch"]:
            self.scheduler.step()
        if self.total_steps_done % self.config["save_step"] == 0 and self.total_steps_done != 0:
            save_checkpoint(self.config, self.model, self.optimizer, self.scaler, self.total_steps_done, 0,
                            self.output_path, model_loss={"train_loss": loss_dict["loss"].item()})
        self.total_steps_done += 1
        return loss_dict["loss"].item()

    def fit(self, steps):
        for i in range(steps):
            idx = torch.arange(i * 32, (i + 1) * 32) % len(self.images)
            loss = self.train_step((self.images[idx], self.labels[idx]))
            print(f"step {self.total_steps_done - 1}: loss {loss:.4f} lr {self.optimizer.param_groups[0]['lr']}")


config = {
    "lr": 1e-3,
    "lr_scheduler": "StepwiseGradualLR",
    "lr_scheduler_params": {"gradual_learning_rates": [[0, 1e-3], [2, 1e-4]]},
    "scheduler_after_epoch": False,
    "save_step": 4,
}

with tempfile.TemporaryDirectory() as run_dir:
    trainer = Trainer(config, run_dir)
    trainer.fit(6)  # writes checkpoint_4.pth
    print("lr type in param_groups:", type(trainer.optimizer.param_groups[0]["lr"]).__name__)

    resumed = Trainer(config, run_dir, continue_path=run_dir)
    resumed.fit(2)
