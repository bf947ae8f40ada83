"""cs231n's GAN notebook: `dtype = torch.cuda.FloatTensor if torch.cuda.is_available() else torch.FloatTensor`, then `G = model.type(dtype)` and `z = noise.type(dtype)`

source: https://github.com/mantasu/cs231n/blob/master/assignment3/Generative_Adversarial_Networks.ipynb
false-alarm: DG009: a module's `.type(torch.cuda.FloatTensor)` moves it to the GPU, as the same call
moves a tensor; the model was taken to stay on the CPU (3 records in scan 42).
"""
import torch
import torch.nn as nn

dtype = torch.cuda.FloatTensor if torch.cuda.is_available() else torch.FloatTensor
G = nn.Sequential(nn.Linear(96, 784), nn.Tanh()).type(dtype)
z = torch.rand(128, 96).type(dtype)
out = G(z)
