"""Adaptive-bitrate video streaming with Pensieve in PyTorch (linnaeushuang/pensieve-pytorch: A3C.py's actor/critic A3C with getNetworkGradient, pensieve_torch.py's central_agent / agent loop with the linear QoE reward, Network.py's conv actor and critic), pensieve-pytorch issue #10 run with --model_type=1 (critic_td): the agent's rewards are NumPy float64 numbers (np.abs of the bitrate switch), getNetworkGradient makes them a tensor with torch.tensor(r_batch), and the critic_td target r_batch[:-1] + discount * next_v_batch is float64 against the float32 critic output
source: https://github.com/linnaeushuang/pensieve-pytorch/issues/10
reported-error: RuntimeError: Found dtype Double but expected Float (critic_loss.backward() in A3C.getNetworkGradient, reached from central_agent, with python3 pensieve_torch.py --model_type=1)
outcome: ok (silent: on torch 2.13 the critic_td MSE at line 99 promotes to float64 instead of raising; printed as "critic loss dtype torch.float64")
root-cause: line 79
expect: DG008
"""
import argparse

import numpy as np

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

S_INFO = 6
S_LEN = 8
A_DIM = 6
VIDEO_BIT_RATE = [300, 750, 1200, 1850, 2850, 4300]  # Kbps
BUFFER_NORM_FACTOR = 10.0
CHUNK_TIL_VIDEO_END_CAP = 48.0
M_IN_K = 1000.0
REBUF_PENALTY = 4.3
SMOOTH_PENALTY = 1
DEFAULT_QUALITY = 1
TRAIN_SEQ_LEN = 24


# ---- Network.py (reduced: one conv branch over the throughput history, linear heads)
class ActorNetwork(nn.Module):
    def __init__(self, state_dim, action_dim, n_conv=32, n_fc=64):
        super().__init__()
        self.s_dim, self.a_dim = state_dim, action_dim
        self.tConv1d = nn.Conv1d(1, n_conv, 4)
        self.fc = nn.Linear(n_conv * (self.s_dim[1] - 3) + self.s_dim[0], n_fc)
        self.out = nn.Linear(n_fc, self.a_dim)

    def forward(self, inputs):
        conv = F.relu(self.tConv1d(inputs[:, 2:3, :]), inplace=True).flatten(1)
        last = inputs[:, :, -1]
        x = F.relu(self.fc(torch.cat([conv, last], 1)), inplace=True)
        return torch.softmax(self.out(x), dim=-1)


class CriticNetwork(ActorNetwork):
    def __init__(self, state_dim, a_dim, n_conv=32, n_fc=64):
        super().__init__(state_dim, a_dim, n_conv, n_fc)
        self.out = nn.Linear(n_fc, 1)

    def forward(self, inputs):
        conv = F.relu(self.tConv1d(inputs[:, 2:3, :]), inplace=True).flatten(1)
        last = inputs[:, :, -1]
        return self.out(F.relu(self.fc(torch.cat([conv, last], 1)), inplace=True))


# ---- A3C.py
class A3C(object):
    def __init__(self, is_central, model_type, s_dim, action_dim, actor_lr=1e-4, critic_lr=1e-3):
        self.s_dim, self.a_dim = s_dim, action_dim
        self.discount = 0.99
        self.entropy_weight = 0.5
        self.model_type = model_type
        self.is_central = is_central
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.actorNetwork = ActorNetwork(self.s_dim, self.a_dim).to(self.device)
        if self.is_central:
            self.actorOptim = torch.optim.RMSprop(self.actorNetwork.parameters(), lr=actor_lr, alpha=0.9, eps=1e-10)
            self.actorOptim.zero_grad()
            if model_type < 2:
                self.criticNetwork = CriticNetwork(self.s_dim, self.a_dim).to(self.device)
                self.criticOptim = torch.optim.RMSprop(self.criticNetwork.parameters(), lr=critic_lr, alpha=0.9, eps=1e-10)
                self.criticOptim.zero_grad()
        self.loss_function = nn.MSELoss()

    def getNetworkGradient(self, s_batch, a_batch, r_batch, terminal):
        s_batch = torch.cat(s_batch).to(self.device)
        a_batch = torch.LongTensor(a_batch).to(self.device)
        r_batch = torch.tensor(r_batch).to(self.device)  # root-cause
        R_batch = torch.zeros(r_batch.shape).to(self.device)
        R_batch[-1] = r_batch[-1]
        for t in reversed(range(r_batch.shape[0] - 1)):
            R_batch[t] = r_batch[t] + self.discount * R_batch[t + 1]
        with torch.no_grad():
            v_batch = self.criticNetwork.forward(s_batch).squeeze().to(self.device)
        td_batch = R_batch - v_batch
        probability = self.actorNetwork.forward(s_batch)
        m_probs = Categorical(probability)
        log_probs = m_probs.log_prob(a_batch)
        actor_loss = torch.sum(log_probs * (-td_batch))
        entropy_loss = -self.entropy_weight * torch.sum(m_probs.entropy())
        actor_loss = actor_loss + entropy_loss
        actor_loss.backward()
        if self.model_type == 0:
            critic_loss = self.loss_function(R_batch, self.criticNetwork.forward(s_batch).squeeze())
        else:
            v_batch = self.criticNetwork.forward(s_batch[:-1]).squeeze()
            next_v_batch = self.criticNetwork.forward(s_batch[1:]).squeeze().detach()
            critic_loss = self.loss_function(r_batch[:-1] + self.discount * next_v_batch, v_batch)  # fails-here
        critic_loss.backward()
        return critic_loss

    def actionSelect(self, stateInputs):
        with torch.no_grad():
            probability = self.actorNetwork.forward(stateInputs)
            return Categorical(probability).sample().item()

    def hardUpdateActorNetwork(self, actor_net_params):
        for target_param, source_param in zip(self.actorNetwork.parameters(), actor_net_params):
            target_param.data.copy_(source_param.data)

    def updateNetwork(self):
        self.actorOptim.step()
        self.actorOptim.zero_grad()
        if self.model_type < 2:
            self.criticOptim.step()
            self.criticOptim.zero_grad()


# ---- env.py (re-typed: a synthetic bandwidth trace instead of the cooked traces)
class Environment:
    def __init__(self, random_seed=0):
        self.rng = np.random.RandomState(random_seed)
        self.buffer_size = 0.0
        self.chunk = 0

    def get_video_chunk(self, quality):
        bw = self.rng.uniform(0.5, 5.0)  # Mbps
        size = VIDEO_BIT_RATE[quality] * 4.0 / 8.0 * 1000.0  # bytes of a 4 s chunk
        delay = size / (bw * 1e6 / 8.0) * 1000.0 + 80.0
        rebuf = max(delay / 1000.0 - self.buffer_size, 0.0)
        self.buffer_size = max(self.buffer_size - delay / 1000.0, 0.0) + 4.0
        self.chunk += 1
        end = self.chunk >= 48
        next_sizes = [b * 500.0 for b in VIDEO_BIT_RATE]
        if end:
            self.chunk, self.buffer_size = 0, 0.0
        return delay, 0.0, self.buffer_size, rebuf, size, next_sizes, end, 48 - self.chunk


# ---- pensieve_torch.py (reduced: the agent loop and the central agent run in one process)
def agent_rollout(net, net_env):
    last_bit_rate = bit_rate = DEFAULT_QUALITY
    s_batch, a_batch, r_batch = [torch.zeros((1, S_INFO, S_LEN))], [bit_rate], []
    while len(r_batch) < TRAIN_SEQ_LEN:
        delay, sleep_time, buffer_size, rebuf, video_chunk_size, next_video_chunk_sizes, end_of_video, \
            video_chunk_remain = net_env.get_video_chunk(bit_rate)
        reward = VIDEO_BIT_RATE[bit_rate] / M_IN_K \
            - REBUF_PENALTY * rebuf \
            - SMOOTH_PENALTY * np.abs(VIDEO_BIT_RATE[bit_rate] - VIDEO_BIT_RATE[last_bit_rate]) / M_IN_K
        r_batch.append(reward)
        last_bit_rate = bit_rate
        state = torch.roll(s_batch[-1].clone().detach(), -1, dims=-1)
        state[0, 0, -1] = VIDEO_BIT_RATE[bit_rate] / float(np.max(VIDEO_BIT_RATE))
        state[0, 1, -1] = buffer_size / BUFFER_NORM_FACTOR
        state[0, 2, -1] = float(video_chunk_size) / float(delay) / M_IN_K
        state[0, 3, -1] = float(delay) / M_IN_K / BUFFER_NORM_FACTOR
        state[0, 4, :A_DIM] = torch.tensor(next_video_chunk_sizes) / M_IN_K / M_IN_K
        state[0, 5, -1] = min(video_chunk_remain, CHUNK_TIL_VIDEO_END_CAP) / float(CHUNK_TIL_VIDEO_END_CAP)
        bit_rate = net.actionSelect(state.to(net.device))  # (the actor is on net.device: a GPU where there is one)
        s_batch.append(state)
        a_batch.append(bit_rate)
    return s_batch[1:], a_batch[1:], r_batch, False


def central_agent(model_type, epochs=3):
    torch.manual_seed(42)
    net = A3C(True, model_type, [S_INFO, S_LEN], A_DIM)
    worker = A3C(False, model_type, [S_INFO, S_LEN], A_DIM)
    net_env = Environment(random_seed=0)
    for epoch in range(epochs):
        worker.hardUpdateActorNetwork(list(net.actorNetwork.parameters()))
        s_batch, a_batch, r_batch, terminal = agent_rollout(worker, net_env)
        critic_loss = net.getNetworkGradient(s_batch[1:], a_batch[1:], r_batch[1:], terminal=terminal)
        net.updateNetwork()
        print("epoch %d avg reward %.3f critic loss %.4f" % (epoch, float(np.mean(r_batch)), critic_loss.item()))
    print("critic loss dtype", critic_loss.dtype)


if __name__ == "__main__":
    parser = argparse.ArgumentParser("Pensieve")
    parser.add_argument("--model_type", type=int, default=1, help="0 original, 1 critic_td, 2 only actor")
    arglist = parser.parse_args([])
    central_agent(arglist.model_type)
