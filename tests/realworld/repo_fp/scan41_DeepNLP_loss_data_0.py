"""DeepNLP-models-Pytorch's RNN language model notebook: `losses.append(loss.data[0])` then `np.mean(losses)`

source: https://github.com/DSKSD/DeepNLP-models-Pytorch/blob/master/notebooks/06.RNN-Language-Model.ipynb
false-alarm: DG009 at `np.mean(losses)`: the loss is 0-dim, so `loss.data[0]` raises IndexError (torch
0.4 and later) before NumPy sees the list; in torch 0.3 it was a Python float (2 records in scan 41).
Like the original, this needs a GPU for its `.cuda()` calls, and then stops at the IndexError.
"""
import numpy as np
import torch
import torch.nn as nn

model = nn.Linear(4, 3).cuda()
losses = []
loss = nn.CrossEntropyLoss()(model(torch.randn(2, 4).cuda()), torch.tensor([0, 1]).cuda())
losses.append(loss.data[0])
print(np.mean(losses))
