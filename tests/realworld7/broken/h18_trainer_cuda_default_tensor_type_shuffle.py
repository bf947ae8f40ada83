"""Fine-tuning script that makes CUDA the default tensor type when a GPU is present (so new tensors land on the GPU), then trains from a shuffling DataLoader
source: https://github.com/huggingface/accelerate/pull/1627
reported-error: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (Trainer dataloader using cpu but expecting cuda)
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (RandomSampler's torch.randperm allocates on cuda with a CPU generator) at line 62; on CPU: ok
root-cause: line 15
expect: DG003
"""
from dataclasses import dataclass

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

if torch.cuda.is_available():
    torch.set_default_tensor_type("torch.cuda.FloatTensor")  # root-cause
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


@dataclass
class TrainingArguments:
    per_device_train_batch_size: int = 8
    num_train_epochs: int = 2
    learning_rate: float = 5e-4
    seed: int = 42


class ToyTextDataset(Dataset):
    def __init__(self, n=64, seq_len=12, vocab=100):
        g = torch.Generator().manual_seed(0)
        self.input_ids = torch.randint(0, vocab, (n, seq_len), generator=g, device="cpu")
        self.labels = (self.input_ids[:, 0] % 2).long()

    def __len__(self):
        return len(self.input_ids)

    def __getitem__(self, i):
        return {"input_ids": self.input_ids[i], "labels": self.labels[i]}


class TinyClassifier(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.cls = nn.Linear(dim, 2)

    def forward(self, input_ids, labels=None):
        logits = self.cls(self.emb(input_ids))
        loss = nn.functional.cross_entropy(logits, labels) if labels is not None else None
        return loss, logits


class Trainer:
    def __init__(self, model, args, train_dataset):
        self.model, self.args, self.train_dataset = model.to(device), args, train_dataset

    def get_train_dataloader(self):
        return DataLoader(self.train_dataset, batch_size=self.args.per_device_train_batch_size, shuffle=True)

    def train(self):
        optimizer = torch.optim.AdamW(self.model.parameters(), lr=self.args.learning_rate)
        for epoch in range(self.args.num_train_epochs):
            for step, batch in enumerate(self.get_train_dataloader()):  # fails-here
                batch = {k: v.to(device) for k, v in batch.items()}
                loss, _ = self.model(**batch)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            print(f"epoch {epoch} loss {loss.item():.4f}")


Trainer(TinyClassifier(), TrainingArguments(), ToyTextDataset()).train()
