"""WECHSEL-style embedding transfer: the target embedding matrix is allocated with np.zeros (float64) and copied into the model, so the embeddings emit Double into a float32 transformer
source: https://github.com/CPJKU/wechsel/pull/3
reported-error: the model only ran after calling model.double() on it post-WECHSEL; maintainer: the target_embeddings returned by WECHSEL are float64, while the model uses float32 (fix: initialise target_matrix with the source matrix's dtype)
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: double != float at line 25
root-cause: line 37
expect: DG005
"""
import numpy as np
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab_size, dim=32, heads=4):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, dim)
        self.encoder = nn.TransformerEncoderLayer(dim, heads, dim * 2, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab_size)

    def get_input_embeddings(self):
        return self.embeddings

    def forward(self, input_ids):
        h = self.embeddings(input_ids)
        h = self.encoder(h)  # fails-here
        return self.lm_head(h)


class WECHSEL:
    def __init__(self, source_word_vectors, target_word_vectors):
        self.source_word_vectors = source_word_vectors
        self.target_word_vectors = target_word_vectors

    def apply(self, source_matrix, target_vocab_size, k=4, temperature=0.1):
        source_matrix = source_matrix.astype(np.float32)
        sims = self.target_word_vectors @ self.source_word_vectors.T
        target_matrix = np.zeros((target_vocab_size, source_matrix.shape[1]))  # root-cause
        for i in range(target_vocab_size):
            top = np.argsort(-sims[i])[:k]
            w = np.exp(sims[i, top] / temperature)
            target_matrix[i] = (w[:, None] * source_matrix[top]).sum(0) / w.sum()
        return target_matrix, {"k": k}


def main():
    rng = np.random.default_rng(0)
    source_vocab, target_vocab, dim = 120, 100, 32
    model = TinyLM(source_vocab, dim)
    wechsel = WECHSEL(rng.normal(size=(source_vocab, 16)), rng.normal(size=(target_vocab, 16)))
    target_embeddings, info = wechsel.apply(
        model.get_input_embeddings().weight.detach().numpy(), target_vocab)

    model.embeddings = nn.Embedding(target_vocab, dim)
    model.lm_head = nn.Linear(dim, target_vocab)
    model.get_input_embeddings().weight.data = torch.from_numpy(target_embeddings)

    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(3):
        ids = torch.randint(0, target_vocab, (8, 16))
        logits = model(ids[:, :-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, target_vocab), ids[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
