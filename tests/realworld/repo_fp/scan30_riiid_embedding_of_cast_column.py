"""riiid's transformer/LSTM models embed integer-coded columns of a float batch, each cast with `.long()` where used

source: https://github.com/darraghdog/riiid/blob/663c5631465dd127e1df40648563066c01901326/scripts/xfrmr/lstm_01.py#L564
(the batch is cast to float at #L688, `x = x.to(device, dtype=torch.float)`; the model is called at #L726)
false-alarm: DG005 at line 33 (the cast of the batch; failing line named 35; in the repo 93 times, in 46 copied scripts of scripts/xfrmr/): the finding said an
Embedding gets the float batch. The model's forward embeds each categorical column as
`self.emb_content_id(x[:, :, i].long())`, a cast of a part of its input, and feeds the continuous columns to a
BatchNorm and an LSTM; no Embedding ever sees a float tensor. The offered "safe" fix, `model(x.long(), m)`, truncated
every continuous feature to an integer (scan 30 showed the fixed copy trains on different values). This reduction
runs on the CPU (exit 0).
"""
import torch
import torch.nn as nn


class LearnNet(nn.Module):
    def __init__(self, n_cont=3):
        super().__init__()
        self.emb_content_id = nn.Embedding(100, 8)
        self.emb_part = nn.Embedding(8, 4)
        self.bn0 = nn.BatchNorm1d(n_cont)
        self.seqnet = nn.LSTM(8 + 4 + n_cont, 16, batch_first=True)
        self.out = nn.Linear(16, 1)

    def forward(self, x, m=None):
        embcat = torch.cat([self.emb_content_id(x[:, :, 0].long()), self.emb_part(x[:, :, 1].long())], 2)
        cont = self.bn0(x[:, :, 2:].permute(0, 2, 1)).permute(0, 2, 1)
        h, _ = self.seqnet(torch.cat([embcat, cont], 2))
        return self.out(h[:, -1])


x = torch.cat([torch.randint(0, 100, (4, 6, 1)), torch.randint(0, 8, (4, 6, 1)), torch.randn(4, 6, 3)], 2)
x = x.to("cpu", dtype=torch.float)
model = LearnNet()
print(model(x).shape)
