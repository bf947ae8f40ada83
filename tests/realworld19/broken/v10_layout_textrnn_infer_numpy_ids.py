"""Document layout analysis, seq2seq variant: RNNInfer.predict() turns the label list of text blocks into ids with a NumPy buffer created by np.zeros (float64 by default) and feeds it to the TextRNN whose first layer is nn.Embedding
source: https://github.com/limengyang1992/seq2seq-layout-analysis/issues/6
reported-error: RuntimeError: Expected tensor for argument #1 'indices' to have scalar type Long; but got torch.IntTensor instead (while checking arguments for embedding)
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.DoubleTensor instead (while checking arguments for embedding) at line 24
root-cause: line 37
expect: DG005
"""
import numpy as np
import torch
import torch.nn as nn

BLOCK_TYPES = ["<pad>", "title", "author", "abstract", "heading", "paragraph", "caption", "footer"]


# ---- models/TextRNN.py
class TextRNN(nn.Module):
    def __init__(self, vocab_size, n_types, emb=24, hidden=48):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb)
        self.rnn = nn.GRU(emb, hidden, batch_first=True)
        self.fc = nn.Linear(hidden, n_types)

    def forward(self, x, hidden=None):
        emb = self.embedding(x)  # fails-here
        out, hidden = self.rnn(emb, hidden)
        return self.fc(out), hidden


# ---- rnn_infer.py
class RNNInfer:
    def __init__(self, model, vocab, max_len=12):
        self.model = model.eval()
        self.vocab = vocab
        self.max_len = max_len

    def to_ids(self, label_list):
        ids = np.zeros((1, self.max_len))  # root-cause
        for k, lab in enumerate(label_list[:self.max_len]):
            ids[0, k] = self.vocab.get(lab, 0)
        return ids

    @torch.no_grad()
    def predict(self, label_list):
        input_tensor = torch.from_numpy(self.to_ids(label_list))
        types, hidden = self.model(input_tensor)
        pred = types.argmax(-1)[0, :len(label_list)]
        return [BLOCK_TYPES[i] for i in pred.tolist()]


# ---- processing.py
def processing_text(text_list, infer):
    coarse = []
    for line in text_list:
        if line.isupper():
            coarse.append("heading")
        elif len(line) > 60:
            coarse.append("paragraph")
        elif line.lower().startswith("fig"):
            coarse.append("caption")
        else:
            coarse.append("author")
    return infer.predict(coarse)


if __name__ == "__main__":
    vocab = {t: i for i, t in enumerate(BLOCK_TYPES)}
    model = TextRNN(len(vocab), len(BLOCK_TYPES))
    infer = RNNInfer(model, vocab)
    text_list = ["A STUDY OF LAYOUTS", "J. Doe, R. Roe", "INTRODUCTION",
                 "Layout analysis splits a scanned page into blocks of different semantic types so that ...",
                 "Fig. 1: overview of the pipeline"]
    print(processing_text(text_list, infer))
