"""Show-attend-tell style caption decoder: captions are padded into an np.zeros matrix (float64 by default) and encoded_captions go into the word embedding
source: https://github.com/sksq96/pytorch-summary/issues/64
reported-error: RuntimeError: Expected tensor for argument #1 'indices' to have scalar type Long; but got torch.cuda.FloatTensor instead (while checking arguments for embedding)
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.DoubleTensor instead (while checking arguments for embedding) at line 42
root-cause: line 19
expect: DG005
"""
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

WORD_MAP = {"<pad>": 0, "<start>": 1, "<end>": 2, "a": 3, "dog": 4, "runs": 5, "on": 6, "grass": 7, "cat": 8, "sits": 9}


class CaptionDataset(Dataset):
    def __init__(self, captions, max_len=8, n_pixels=16, encoder_dim=32):
        self.enc = np.random.default_rng(0).standard_normal((len(captions), n_pixels, encoder_dim)).astype(np.float32)
        self.caps = np.zeros((len(captions), max_len))  # root-cause
        self.caplens = []
        for i, c in enumerate(captions):
            ids = [WORD_MAP["<start>"]] + [WORD_MAP[w] for w in c.split()] + [WORD_MAP["<end>"]]
            self.caps[i, :len(ids)] = ids
            self.caplens.append(len(ids))

    def __len__(self):
        return len(self.caps)

    def __getitem__(self, i):
        return torch.from_numpy(self.enc[i]), torch.from_numpy(self.caps[i]), self.caplens[i]  # root-cause-alt


class DecoderWithAttention(nn.Module):
    def __init__(self, embed_dim=16, decoder_dim=32, vocab_size=len(WORD_MAP), encoder_dim=32):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.init_h = nn.Linear(encoder_dim, decoder_dim)
        self.decode_step = nn.LSTMCell(embed_dim + encoder_dim, decoder_dim)
        self.fc = nn.Linear(decoder_dim, vocab_size)

    def forward(self, encoder_out, encoded_captions):
        embeddings = self.embedding(encoded_captions)  # fails-here
        mean_enc = encoder_out.mean(dim=1)
        h = self.init_h(mean_enc)
        c = torch.zeros_like(h)
        preds = []
        for t in range(encoded_captions.size(1) - 1):
            h, c = self.decode_step(torch.cat([embeddings[:, t], mean_enc], dim=1), (h, c))
            preds.append(self.fc(h))
        return torch.stack(preds, dim=1)


captions = ["a dog runs on grass", "a cat sits on grass", "a dog sits", "a cat runs"]
loader = DataLoader(CaptionDataset(captions), batch_size=2, shuffle=True)
decoder = DecoderWithAttention()
criterion = nn.CrossEntropyLoss(ignore_index=0)
optimizer = torch.optim.Adam(decoder.parameters(), lr=4e-4)
for imgs, caps, caplens in loader:
    scores = decoder(imgs, caps)
    loss = criterion(scores.reshape(-1, scores.size(-1)), caps[:, 1:].reshape(-1).long())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print("loss", round(loss.item(), 4))
