"""BERT sentence classification on CPU in bfloat16 (intel-extension-for-pytorch's bert_imperative_mode_inference_bf16 example: the encoder runs under torch.cpu.amp.autocast / torch.autocast("cpu")), extended with a float32 task head that is applied after the with-block, so the bf16 pooled output meets float32 head weights
source: https://github.com/intel/intel-extension-for-pytorch/blob/880fda91ce17e9a956296911949869cb0f1d1cc1/examples/cpu/inference/python/bert_imperative_mode_inference_bf16.py
reported-error: (none filed; the example runs the whole model inside autocast; the variant's head outside it fails with RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float at line 33
root-cause: line 32
expect: DG017
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
        pooled = model(data)  # root-cause
    logits = classifier(pooled)  # fails-here
    print("predicted labels", logits.argmax(-1).tolist())
