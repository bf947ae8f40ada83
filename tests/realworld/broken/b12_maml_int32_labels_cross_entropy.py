"""MAML omniglot: support labels built as C-long numpy ints (int32 on Windows) reach F.cross_entropy as IntTensor
source: https://github.com/dragen1860/MAML-Pytorch/issues/45
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Int for argument #2 'target'
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 56
root-cause: line 30
expect: DG006
"""
import argparse

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F


class OmniglotNShot:
    def __init__(self, batchsz, n_way, k_shot, k_query, imgsz):
        self.batchsz = batchsz
        self.n_way = n_way
        self.k_shot = k_shot
        self.k_query = k_query
        self.imgsz = imgsz

    def next(self):
        setsz = self.n_way * self.k_shot
        querysz = self.n_way * self.k_query
        x_spt = np.random.rand(self.batchsz, setsz, 1, self.imgsz, self.imgsz).astype(np.float32)
        x_qry = np.random.rand(self.batchsz, querysz, 1, self.imgsz, self.imgsz).astype(np.float32)
        # np.array(...).astype(np.int) is a C long: int32 on Windows, where the report came from
        y_spt = np.array([np.repeat(np.arange(self.n_way), self.k_shot)] * self.batchsz).astype(np.int32)  # root-cause
        y_qry = np.array([np.repeat(np.arange(self.n_way), self.k_query)] * self.batchsz).astype(np.int32)
        return x_spt, y_spt, x_qry, y_qry


class Learner(nn.Module):
    def __init__(self, n_way, imgsz):
        super().__init__()
        self.conv = nn.Conv2d(1, 16, 3, 2)
        self.fc = nn.Linear(16 * ((imgsz - 3) // 2 + 1) ** 2, n_way)

    def forward(self, x):
        return self.fc(F.relu(self.conv(x)).flatten(1))


class Meta(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.net = Learner(args.n_way, args.imgsz)
        self.meta_optim = torch.optim.Adam(self.net.parameters(), lr=args.meta_lr)

    def forward(self, x_spt, y_spt, x_qry, y_qry):
        task_num = x_spt.size(0)
        losses_q = 0
        for i in range(task_num):
            logits = self.net(x_spt[i])
            loss = F.cross_entropy(logits, y_spt[i])  # fails-here
            logits_q = self.net(x_qry[i])
            losses_q = losses_q + F.cross_entropy(logits_q, y_qry[i])
        loss_q = losses_q / task_num
        self.meta_optim.zero_grad()
        loss_q.backward()
        self.meta_optim.step()
        return loss_q.item()


def main(args):
    maml = Meta(args)
    db_train = OmniglotNShot(batchsz=args.task_num, n_way=args.n_way, k_shot=args.k_spt,
                             k_query=args.k_qry, imgsz=args.imgsz)
    for step in range(2):
        x_spt, y_spt, x_qry, y_qry = db_train.next()
        x_spt, y_spt, x_qry, y_qry = torch.from_numpy(x_spt), torch.from_numpy(y_spt), \
            torch.from_numpy(x_qry), torch.from_numpy(y_qry)
        accs = maml(x_spt, y_spt, x_qry, y_qry)
        print(step, accs)


if __name__ == '__main__':
    argparser = argparse.ArgumentParser()
    argparser.add_argument('--n_way', type=int, default=5)
    argparser.add_argument('--k_spt', type=int, default=1)
    argparser.add_argument('--k_qry', type=int, default=3)
    argparser.add_argument('--imgsz', type=int, default=14)
    argparser.add_argument('--task_num', type=int, default=2)
    argparser.add_argument('--meta_lr', type=float, default=1e-3)
    args = argparser.parse_args([])
    main(args)
