"""NumPy array created inside forward() goes through torch.from_numpy into a float32 Linear
source: https://github.com/pytorch/pytorch/issues/817
reported-error: "it raises an error" (traceback not quoted in the report; torch.from_numpy of np.random.rand gives a DoubleTensor for a FloatTensor Linear)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 41
root-cause: line 37
expect: DG004
"""
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable
import numpy as np
import torch

num_p = 30
num_s = 60
num_outputs = 10

num_hl_se = 10
rank_el_se = 10
rank_ss = 10

num_hl_class = 10


class Net(nn.Module):
    def __init__(self, num_p, rank_el_se, num_hl_se, rank_ss, num_hl_class, num_outputs):
        super(Net, self).__init__()
        self.se0 = nn.Linear(num_p, rank_el_se)
        self.se1 = nn.Linear(rank_el_se, num_hl_se)
        self.se2 = nn.Linear(num_hl_se, rank_ss)
        self.cl1 = nn.Linear(rank_ss, num_hl_class)
        self.cl2 = nn.Linear(num_hl_class, num_outputs)

    def forward(self, x):

        A = np.random.rand(60, num_p)
        A = torch.from_numpy(A)  # root-cause
        VA = Variable(A, requires_grad=False)
        # if instead I use torch.random, then it works
        # VA = Variable(torch.rand(60, num_p), requires_grad=False)
        o = self.se0(VA)  # fails-here
        o = F.sigmoid(self.se1(o))
        o = F.sigmoid(self.se2(o))
        x = o.mul(x)
        x = F.sigmoid(self.cl1(o))
        x = F.sigmoid(self.cl2(o))

        return x


s_cl = Net(num_p, rank_el_se, num_hl_se, rank_ss, num_hl_class, num_outputs)
optimizer = torch.optim.SGD(s_cl.parameters(), lr=0.01)
target = Variable(torch.rand(num_s, num_outputs))
out = s_cl.forward(Variable(torch.rand(num_s, rank_ss)))
loss = F.mse_loss(out, target)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(loss.item())
