"""A transformers-style Trainer (re-typed: checkpoint-N folders with model, optimizer, scheduler, trainer_state.json and rng_state.pth) trains the RegressionModel of transformers' trainer tests, then a second Trainer resumes from checkpoint-10 like test_can_resume_training; _save_rng_state stored np.random.get_state() (a uint32 ndarray) and _load_rng_state reads the file back with a plain torch.load, which the weights_only=True default of torch 2.6+ refuses
source: https://github.com/huggingface/transformers/issues/34631
reported-error: with PyTorch 2.6 (torch.load weights_only=True by default) the resume tests fail, e.g. tests/trainer/test_trainer.py::TrainerIntegrationTest::test_can_resume_training: WeightsUnpickler error: Unsupported global: GLOBAL numpy.core.multiarray._reconstruct (the numpy RNG state in rng_state.pth); fixed in PR #34632 with a safe_globals() allowlist of numpy _reconstruct, ndarray, dtype and UInt32DType around the rng_state load
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an allowed global by default. ... at line 86
root-cause: line 86
expect: DG011
"""
import json
import math
import os
import random
import tempfile

import numpy as np
import torch
import torch.nn as nn

OUT = tempfile.mkdtemp()


class RegressionDataset(torch.utils.data.Dataset):
    def __init__(self, a=2, b=3, length=64, seed=42):
        rng = np.random.default_rng(seed)
        self.x = rng.normal(size=(length,)).astype(np.float32)
        self.y = a * self.x + b + rng.normal(scale=0.1, size=(length,)).astype(np.float32)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return {"input_x": self.x[i], "labels": self.y[i]}


class RegressionModel(nn.Module):
    def __init__(self, a=0.0, b=0.0):
        super().__init__()
        self.a = nn.Parameter(torch.tensor(a).float())
        self.b = nn.Parameter(torch.tensor(b).float())

    def forward(self, input_x, labels=None):
        y = input_x * self.a + self.b
        if labels is None:
            return (y,)
        return (nn.functional.mse_loss(y, labels), y)


class TrainingArguments:
    def __init__(self, output_dir, learning_rate=0.1, per_device_train_batch_size=2, num_train_epochs=3,
                 save_steps=5, seed=42):
        self.output_dir = output_dir
        self.learning_rate = learning_rate
        self.per_device_train_batch_size = per_device_train_batch_size
        self.num_train_epochs = num_train_epochs
        self.save_steps = save_steps
        self.seed = seed


class Trainer:
    def __init__(self, model, args, train_dataset):
        self.model, self.args, self.train_dataset = model, args, train_dataset
        self.global_step = 0

    def get_train_dataloader(self):
        return torch.utils.data.DataLoader(self.train_dataset, batch_size=self.args.per_device_train_batch_size,
                                           shuffle=True)

    def create_optimizer_and_scheduler(self, num_training_steps):
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=self.args.learning_rate)
        self.lr_scheduler = torch.optim.lr_scheduler.LambdaLR(
            self.optimizer, lambda step: max(0.0, 1.0 - step / num_training_steps))

    def _save_rng_state(self, output_dir):
        rng_states = {
            "python": random.getstate(),
            "numpy": np.random.get_state(),  # root-cause-alt
            "cpu": torch.random.get_rng_state(),
        }
        torch.save(rng_states, os.path.join(output_dir, "rng_state.pth"))

    def _load_rng_state(self, checkpoint):
        rng_file = os.path.join(checkpoint, "rng_state.pth")
        if not os.path.isfile(rng_file):
            print("Didn't find an RNG file, if you are resuming a training that wasn't launched in a distributed "
                  "fashion, reproducibility is not guaranteed.")
            return
        checkpoint_rng_state = torch.load(rng_file)  # root-cause  # fails-here
        random.setstate(checkpoint_rng_state["python"])
        np.random.set_state(checkpoint_rng_state["numpy"])
        torch.random.set_rng_state(checkpoint_rng_state["cpu"])

    def _save_checkpoint(self):
        output_dir = os.path.join(self.args.output_dir, f"checkpoint-{self.global_step}")
        os.makedirs(output_dir, exist_ok=True)
        torch.save(self.model.state_dict(), os.path.join(output_dir, "pytorch_model.bin"))
        torch.save(self.optimizer.state_dict(), os.path.join(output_dir, "optimizer.pt"))
        torch.save(self.lr_scheduler.state_dict(), os.path.join(output_dir, "scheduler.pt"))
        with open(os.path.join(output_dir, "trainer_state.json"), "w") as f:
            json.dump({"global_step": self.global_step}, f)
        self._save_rng_state(output_dir)

    def train(self, resume_from_checkpoint=None):
        random.seed(self.args.seed)
        np.random.seed(self.args.seed)
        torch.manual_seed(self.args.seed)
        loader = self.get_train_dataloader()
        steps_per_epoch = len(loader)
        max_steps = math.ceil(self.args.num_train_epochs * steps_per_epoch)
        self.create_optimizer_and_scheduler(max_steps)
        steps_trained = 0
        if resume_from_checkpoint is not None:
            self.model.load_state_dict(torch.load(os.path.join(resume_from_checkpoint, "pytorch_model.bin"), map_location="cpu"))
            self.optimizer.load_state_dict(torch.load(os.path.join(resume_from_checkpoint, "optimizer.pt"), map_location="cpu"))
            self.lr_scheduler.load_state_dict(torch.load(os.path.join(resume_from_checkpoint, "scheduler.pt"), map_location="cpu"))
            with open(os.path.join(resume_from_checkpoint, "trainer_state.json")) as f:
                steps_trained = json.load(f)["global_step"]
            self.global_step = steps_trained
        epochs_trained = steps_trained // steps_per_epoch
        for epoch in range(epochs_trained, int(self.args.num_train_epochs)):
            steps_in_epoch_to_skip = steps_trained % steps_per_epoch if epoch == epochs_trained else 0
            if epoch == epochs_trained and resume_from_checkpoint is not None and steps_in_epoch_to_skip == 0:
                self._load_rng_state(resume_from_checkpoint)
            for step, batch in enumerate(loader):
                if step < steps_in_epoch_to_skip:
                    if step == steps_in_epoch_to_skip - 1:
                        self._load_rng_state(resume_from_checkpoint)
                    continue
                loss = self.model(**batch)[0]
                loss.backward()
                self.optimizer.step()
                self.lr_scheduler.step()
                self.optimizer.zero_grad()
                self.global_step += 1
                if self.global_step % self.args.save_steps == 0:
                    self._save_checkpoint()
        return self.global_step


# test_can_resume_training: train once with checkpoints, then resume from checkpoint-10 and compare
train_dataset = RegressionDataset(length=32)
args = TrainingArguments(OUT, save_steps=5)
trainer = Trainer(RegressionModel(), args, train_dataset)
trainer.train()
(a, b) = trainer.model.a.item(), trainer.model.b.item()
print(f"full run: a={a:.4f} b={b:.4f} after {trainer.global_step} steps")

checkpoint = os.path.join(OUT, "checkpoint-10")
trainer = Trainer(RegressionModel(), TrainingArguments(OUT, save_steps=5), train_dataset)
trainer.train(resume_from_checkpoint=checkpoint)
(a1, b1) = trainer.model.a.item(), trainer.model.b.item()
print(f"resumed run: a={a1:.4f} b={b1:.4f}; same as the full run: {math.isclose(a, a1, rel_tol=1e-5) and math.isclose(b, b1, rel_tol=1e-5)}")
