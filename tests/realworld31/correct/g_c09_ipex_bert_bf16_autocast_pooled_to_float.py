"""BERT sentence classification on CPU with the encoder under bfloat16 autocast and the float32 task head after the with-block, fed pooled.float(): the activation is converted back to float32 before the float32 layer
source: https://github.com/intel/intel-extension-for-pytorch/blob/880fda91ce17e9a956296911949869cb0f1d1cc1/examples/cpu/inference/python/bert_imperative_mode_inference_bf16.py
reported-error: none (fixed version: the bf16 pooled output is converted with .float() before the float32 head)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn

vocab_size, seq_length, hidden = 1000, 16, 64


class TinyBert(nn.Module):  # stand-in for transformers.BertModel at toy size
    def __init__(self):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, hidden)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(hidden, 4, 128, batch_first=True), 2)
        self.pooler = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh())

    def forward(self, input_ids):
        return self.pooler(self.encoder(self.embeddings(input_ids))[:, 0])


model = TinyBert()
model.eval()
classifier = nn.Linear(hidden, 2)
data = torch.randint(vocab_size, size=[4, seq_length])

with torch.no_grad():
    with torch.autocast("cpu", dtype=torch.bfloat16):
        pooled = model(data)
    logits = classifier(pooled.float())
    print("predicted labels", logits.argmax(-1).tolist())
