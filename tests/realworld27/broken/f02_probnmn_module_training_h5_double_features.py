"""Neural module network training on CLEVR (probnmn-clevr layout, phase module_training): the image-feature reader returns the pre-extracted ResNet features as stored (float64 NumPy arrays), the dataset wraps them with torch.tensor, and the Trainer hands batch["image"] to the NMN whose stem Conv2d holds float32 weights
source: https://github.com/kdexd/probnmn-clevr/issues/1
reported-error: Input type (torch.cuda.DoubleTensor) and weight type (torch.cuda.FloatTensor) should be the same (on output_dict = self._nmn(batch["image"], pg_output_dict["predictions"], batch["answer"]) in module_training_trainer.py; "Batch['image'] type : torch.cuda.DoubleTensor")
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 71
root-cause: line 56
expect: DG004
"""
import os
import tempfile
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


@dataclass
class Config:
    image_features_h5: str = ""
    vocab_size: int = 12
    num_answers: int = 6
    batch_size: int = 4
    lr: float = 1e-3
    num_iterations: int = 4


# ---- probnmn/data/readers.py
class ImageFeaturesHdfReader:
    """Reads the (N, 1024, 14, 14) features written by scripts/preprocess/extract_features.py."""

    def __init__(self, features_path):
        self._features = np.load(features_path)

    def __len__(self):
        return self._features.shape[0]

    def __getitem__(self, image_id):
        return self._features[image_id]


# ---- probnmn/data/datasets.py
class ModuleTrainingDataset(Dataset):
    def __init__(self, config, n=8, seed=0):
        rng = np.random.default_rng(seed)
        self._image_reader = ImageFeaturesHdfReader(config.image_features_h5)
        self._programs = rng.integers(1, config.vocab_size, (n, 5))
        self._answers = rng.integers(0, config.num_answers, n)

    def __len__(self):
        return len(self._answers)

    def __getitem__(self, index):
        image = self._image_reader[index % len(self._image_reader)]
        return {
            "image": torch.tensor(image),  # root-cause
            "program": torch.tensor(self._programs[index]).long(),
            "answer": torch.tensor(self._answers[index]).long(),
        }


# ---- probnmn/models/nmn.py
class NeuralModuleNetwork(nn.Module):
    def __init__(self, vocab_size, num_answers):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1024, 64, 1), nn.ReLU())
        self.module_embed = nn.Embedding(vocab_size, 64)
        self.classifier = nn.Linear(64, num_answers)

    def forward(self, features, program_tokens, answer_tokens):
        feat = self.stem(features)  # fails-here
        attended = feat.mean(dim=(2, 3)) * self.module_embed(program_tokens).mean(1)
        logits = self.classifier(attended)
        return {"loss": nn.functional.cross_entropy(logits, answer_tokens), "predictions": logits.argmax(-1)}


# ---- probnmn/trainers/module_training_trainer.py
class ModuleTrainingTrainer:
    def __init__(self, config, nmn, dataloader):
        self._config = config
        self._nmn = nmn
        self._dataloader = dataloader
        self._optimizer = torch.optim.Adam(nmn.parameters(), lr=config.lr)

    def _cycle(self):
        while True:
            for batch in self._dataloader:
                yield batch

    def _do_iteration(self, batch):
        output_dict = self._nmn(batch["image"], batch["program"], batch["answer"])
        self._optimizer.zero_grad()
        output_dict["loss"].backward()
        self._optimizer.step()
        return output_dict

    def step(self, iteration, batches):
        output_dict = self._do_iteration(next(batches))
        print(f"iteration {iteration} loss {output_dict['loss'].item():.4f}")


def write_features(path, n=4, seed=0):
    rng = np.random.default_rng(seed)
    np.save(path, rng.standard_normal((n, 1024, 14, 14)))


if __name__ == "__main__":
    torch.manual_seed(0)
    features_path = os.path.join(tempfile.mkdtemp(), "train_features.npy")
    write_features(features_path)
    config = Config(image_features_h5=features_path)
    dataset = ModuleTrainingDataset(config)
    loader = DataLoader(dataset, batch_size=config.batch_size, shuffle=True)
    trainer = ModuleTrainingTrainer(config, NeuralModuleNetwork(config.vocab_size, config.num_answers), loader)
    batches = trainer._cycle()
    for iteration in range(config.num_iterations):
        trainer.step(iteration, batches)
