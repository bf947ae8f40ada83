"""pytorch-DRL's agents set `self.use_cuda` in the base Agent's `__init__`, reached with `super(DQN, self).__init__(...)`, and guard both the move and the NumPy conversion with it

source: https://github.com/ChenglongChen/pytorch-DRL/blob/master/DQN.py#L97
(`if self.use_cuda: ...data.cpu().numpy()[0] else: ...data.numpy()[0]`; the flag is set at common/Agent.py#L68,
`self.use_cuda = use_cuda and th.cuda.is_available()`, and `self.actor.cuda()` is behind the same flag)
false-alarm: DG009 at the `else:` arm's `.numpy()` (scan 33: in A2C.py, DDPG.py, DQN.py, PPO.py and the four run_*.py
call sites): the finding said the tensor may be on the GPU there. The engine did not run `super(DQN, self).__init__`
(the two-argument spelling), nor `super().__init__` of a class in an imported file, so the flag was unknown and both
arms looked reachable with the actor on the GPU. This reduction runs on the CPU (exit 0).
"""
import torch
import torch.nn as nn


class Agent(object):
    def __init__(self, state_dim, action_dim, use_cuda=True):
        self.state_dim, self.action_dim = state_dim, action_dim
        self.use_cuda = use_cuda and torch.cuda.is_available()


class DQN(Agent):
    def __init__(self, state_dim, action_dim, use_cuda=True):
        super(DQN, self).__init__(state_dim, action_dim, use_cuda)
        self.actor = nn.Linear(state_dim, action_dim)
        if self.use_cuda:
            self.actor.cuda()

    def action(self, state):
        state_var = torch.tensor([state], dtype=torch.float32, device="cuda" if self.use_cuda else "cpu")
        value_var = self.actor(state_var)
        if self.use_cuda:
            value = value_var.data.cpu().numpy()[0]
        else:
            value = value_var.data.numpy()[0]
        return int(value.argmax())


agent = DQN(4, 2)
print(agent.action([0.1, 0.2, 0.3, 0.4]))
