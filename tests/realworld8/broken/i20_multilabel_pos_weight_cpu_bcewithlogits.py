"""Multi-label toxic-comment classifier on the GPU: the model and batches are moved to the device, but the criterion is built by a helper whose pos_weight (from the label frequencies) is a CPU tensor
source: https://dev-solve.com/posts/3f078da
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (criterion = nn.BCEWithLogitsLoss(pos_weight=torch.Tensor([3])) left on the CPU)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (CUDA logits and targets with the CPU pos_weight) at line 46; on CPU: ok
root-cause: line 20
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

LABELS = ["toxic", "obscene", "threat", "insult"]
config = {"vocab_size": 500, "embed_dim": 32, "batch_size": 16, "lr": 1e-3, "epochs": 2}


def build_criterion(train_labels):
    positives = train_labels.sum(0)
    negatives = len(train_labels) - positives
    pos_weight = torch.tensor(negatives / np.maximum(positives, 1), dtype=torch.float32)  # root-cause
    return nn.BCEWithLogitsLoss(pos_weight=pos_weight)


class BagOfWordsClassifier(nn.Module):
    def __init__(self, vocab_size, embed_dim, n_labels):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, mode="mean")
        self.fc = nn.Linear(embed_dim, n_labels)

    def forward(self, token_ids):
        return self.fc(self.embedding(token_ids))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    rng = np.random.default_rng(0)
    token_ids = torch.from_numpy(rng.integers(0, config["vocab_size"], (128, 20)))
    labels = (rng.random((128, len(LABELS))) < [0.3, 0.1, 0.05, 0.2]).astype(np.float32)
    loader = DataLoader(TensorDataset(token_ids, torch.from_numpy(labels)), batch_size=config["batch_size"], shuffle=True)
    model = BagOfWordsClassifier(config["vocab_size"], config["embed_dim"], len(LABELS)).to(device)
    criterion = build_criterion(labels)
    optimizer = torch.optim.Adam(model.parameters(), lr=config["lr"])
    for epoch in range(config["epochs"]):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = criterion(model(x), y)  # fails-here
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
