"""Continuous bag-of-words (CBOW) word2vec trainer written as a class: each training pair turns its target word into a NumPy one-hot vector and then into a torch.long tensor, so CrossEntropyLoss receives an integer one-hot target instead of a class index
source: https://discuss.pytorch.org/t/how-exactly-should-i-understand-the-cross-entropy-loss-function/61183
reported-error: How exactly should I understand the cross entropy loss function? (y = np.zeros(shape=(self.vocab_size)); y[int(sample[1])] = np.float64(1); y = torch.tensor(y, dtype=torch.long); loss = criterion(output, y) fails)
outcome: RuntimeError: Expected floating point type for target with class probabilities, got Long at line 45
root-cause: line 35
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn


class CBOW(nn.Module):
    def __init__(self, vocab_size, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim)
        self.proj = nn.Linear(dim, vocab_size)

    def forward(self, context):
        return self.proj(self.emb(context).mean(dim=-2))


class Trainer:
    def __init__(self, corpus, window=2):
        words = corpus.split()
        self.vocab = {w: i for i, w in enumerate(sorted(set(words)))}
        self.vocab_size = len(self.vocab)
        ids = [self.vocab[w] for w in words]
        self.train_data = [(ids[i - window:i] + ids[i + 1:i + window + 1], ids[i]) for i in range(window, len(ids) - window)]
        self.model = CBOW(self.vocab_size)

    def make_target(self, word_id):
        y = np.zeros(shape=(self.vocab_size))
        y[int(word_id)] = np.float64(1)
        return torch.tensor(y, dtype=torch.long)  # root-cause

    def train(self, epochs=2):
        criterion = nn.CrossEntropyLoss()
        optimizer = torch.optim.SGD(self.model.parameters(), lr=0.05)
        for epoch in range(epochs):
            for context, target in self.train_data:
                x = torch.tensor(context, dtype=torch.long).unsqueeze(0)
                y = self.make_target(target).unsqueeze(0)
                output = self.model(x)
                loss = criterion(output, y)  # fails-here
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    text = "we are about to study the idea of a computational process computational processes are abstract beings that inhabit computers"
    Trainer(text).train()
