"""Annotated Transformer copy-task inference in half precision (harvardnlp/annotated-transformer src/ layout: attention.py's attention() masks with scores.masked_fill(mask == 0, -1e9), transformer.py's make_model): make_model(..., fp16=True) converts the whole model with .half(), so the attention scores are float16 and -1e9 cannot be written into them
source: https://github.com/harvardnlp/annotated-transformer/blob/df6e38155aa2ed2c8aabff426c0914a617ef7c80/src/attention.py
reported-error: (the repository file masks with -1e9; on float16 scores that fails with RuntimeError: value cannot be converted to type at::Half without overflow)
outcome: RuntimeError: value cannot be converted to type c10::Half without overflow at attention.py:17
root-cause: transformer.py:156
expect: DG018
"""
import torch

from transformer import make_model, subsequent_mask


def greedy_decode(model, src, src_mask, max_len, start_symbol):
    memory = model.encode(src, src_mask)
    ys = torch.zeros(1, 1).fill_(start_symbol).type_as(src.data)
    for _ in range(max_len - 1):
        out = model.decode(memory, src_mask, ys, subsequent_mask(ys.size(1)).type_as(src.data))
        prob = model.generator(out[:, -1])
        _, next_word = torch.max(prob, dim=1)
        ys = torch.cat([ys, torch.zeros(1, 1).type_as(src.data).fill_(next_word.item())], dim=1)
    return ys


torch.manual_seed(0)
# fp16 halves the memory of the served model
model = make_model(11, 11, N=2, d_model=32, d_ff=64, h=4, fp16=True)
model.eval()
src = torch.LongTensor([[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]])
src_mask = torch.ones(1, 1, 10)
with torch.no_grad():
    print(greedy_decode(model, src, src_mask, max_len=10, start_symbol=1))
