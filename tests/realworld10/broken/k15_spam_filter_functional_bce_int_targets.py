"""Spam filter in a hand-written Hugging-Face-style loop (batches are dicts, the model returns a dict with "loss" when labels are given): the dataset's __getitem__ returns the label as a Python int, the default collate makes an int64 tensor, and F.binary_cross_entropy_with_logits inside forward rejects it
source: https://runebook.dev/en/docs/pytorch/generated/torch.nn.functional.binary_cross_entropy_with_logits
reported-error: binary_cross_entropy_with_logits needs float targets with the same shape as the logits; integer 0/1 targets raise a dtype error
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 37
root-cause: line 24
expect: DG007
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class SpamDataset(Dataset):
    def __init__(self, n=96, vocab=300, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.ids = torch.randint(1, vocab, (n, 12), generator=g)
        self.spam = (self.ids[:, 0] % 3 == 0).tolist()

    def __len__(self):
        return len(self.spam)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "labels": int(self.spam[i])}  # root-cause


class BagOfWordsClassifier(nn.Module):
    def __init__(self, vocab=300, dim=32):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab, dim)
        self.classifier = nn.Linear(dim, 1)

    def forward(self, input_ids, labels=None):
        logits = self.classifier(self.embed(input_ids)).squeeze(-1)
        out = {"logits": logits}
        if labels is not None:
            out["loss"] = F.binary_cross_entropy_with_logits(logits, labels)  # fails-here
        return out


def training_loop(model, dataset, epochs=2, lr=1e-2):
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    loader = DataLoader(dataset, batch_size=32, shuffle=True)
    for epoch in range(epochs):
        for batch in loader:
            outputs = model(**batch)
            outputs["loss"].backward()
            optimizer.step()
            optimizer.zero_grad()
        print({"epoch": epoch, "loss": round(outputs["loss"].item(), 4)})


training_loop(BagOfWordsClassifier(), SpamDataset())
