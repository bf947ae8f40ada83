"""ElegantRL-style PPO on a vectorised legged-robot environment (Isaac Gym AnymalTerrain style, re-typed by hand): the environment's reset buffer is a bool tensor (contact-force norm > 1, or'ed with the time-out), explore_vec_env stacks it as the done flags, and convert_trajectory turns the dones into discount masks with (1 - torch.stack(dones)) * gamma, which PyTorch refuses for bool tensors
source: https://github.com/AI4Finance-Foundation/ElegantRL/issues/116
reported-error: "RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead." raised in AgentBase.convert_trajectory at buf_items[2] = ((1 - torch.stack(buf_items[2])) * self.gamma).unsqueeze(2) when running AnymalTerrain with examples/tutorial_Isaac_Gym.py (fixed in commit 93e2e45 "Fixed PyTorch error with subtracting bool tensor": ~torch.stack(...))
outcome: RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead. at line 132
root-cause: line 132
expect: DG004
"""
from copy import deepcopy

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)


class AnymalTerrainLike:
    """A few lines of a vectorised quadruped task: base contact or time-out ends an episode."""

    def __init__(self, env_num=4, state_dim=12, action_dim=4, max_episode_length=20):
        self.env_num, self.state_dim, self.action_dim = env_num, state_dim, action_dim
        self.max_episode_length = max_episode_length
        self.device = torch.device("cpu")
        self.obs_buf = torch.zeros(env_num, state_dim)
        self.progress_buf = torch.zeros(env_num, dtype=torch.long)
        self.base_height = torch.full((env_num,), 0.5)

    def reset(self):
        self.obs_buf = torch.randn(self.env_num, self.state_dim) * 0.1
        self.progress_buf.zero_()
        self.base_height.fill_(0.5)
        return self.obs_buf.clone()

    def check_termination(self, contact_forces):
        self.reset_buf = torch.norm(contact_forces, dim=1) > 1.0  # root-cause-alt
        self.reset_buf = torch.where(self.progress_buf >= self.max_episode_length - 1,
                                     torch.ones_like(self.reset_buf), self.reset_buf)

    def step(self, actions):
        actions = actions.clamp(-1.0, 1.0)
        self.progress_buf += 1
        self.base_height += 0.02 * actions.mean(dim=1) + 0.01 * torch.randn(self.env_num)
        self.obs_buf = 0.9 * self.obs_buf + 0.1 * torch.cat([actions, actions, actions], dim=1)
        contact_forces = torch.stack([(0.45 - self.base_height).clamp(min=0) * 40.0,
                                      torch.zeros(self.env_num), torch.zeros(self.env_num)], dim=1)
        rewards = (1.0 - (self.base_height - 0.5).abs() * 4.0 - 0.01 * actions.pow(2).sum(dim=1))
        self.check_termination(contact_forces)
        done_ids = torch.where(self.reset_buf)[0]
        if len(done_ids):
            self.obs_buf[done_ids] = torch.randn(len(done_ids), self.state_dim) * 0.1
            self.progress_buf[done_ids] = 0
            self.base_height[done_ids] = 0.5
        return self.obs_buf.clone(), rewards, self.reset_buf, {}


class ActorPPO(nn.Module):
    def __init__(self, mid_dim, state_dim, action_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(state_dim, mid_dim), nn.ReLU(), nn.Linear(mid_dim, mid_dim), nn.ReLU(),
                                 nn.Linear(mid_dim, action_dim))
        self.a_std_log = nn.Parameter(torch.zeros((1, action_dim)) - 0.5, requires_grad=True)
        self.sqrt_2pi_log = np.log(np.sqrt(2 * np.pi))

    def get_action(self, state):
        a_avg = self.net(state)
        noise = torch.randn_like(a_avg)
        return a_avg + noise * self.a_std_log.exp(), noise

    def get_logprob_entropy(self, state, action):
        a_avg = self.net(state)
        delta = ((a_avg - action) / self.a_std_log.exp()).pow(2) * 0.5
        logprob = -(self.a_std_log + self.sqrt_2pi_log + delta).sum(1)
        return logprob, (logprob.exp() * logprob).mean()

    def get_old_logprob(self, _action, noise):
        return -(self.a_std_log + self.sqrt_2pi_log + noise.pow(2) * 0.5).sum(1)

    @staticmethod
    def get_a_to_e(action):
        return action.tanh()


class CriticPPO(nn.Module):
    def __init__(self, mid_dim, state_dim, _action_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(state_dim, mid_dim), nn.ReLU(), nn.Linear(mid_dim, mid_dim), nn.ReLU(),
                                 nn.Linear(mid_dim, 1))

    def forward(self, state):
        return self.net(state)


class AgentPPO:
    def __init__(self, net_dim, state_dim, action_dim, env_num, gamma=0.99, batch_size=32, repeat_times=2.0):
        self.gamma, self.env_num, self.batch_size, self.repeat_times = gamma, env_num, batch_size, repeat_times
        self.reward_scale, self.ratio_clip, self.lambda_entropy = 1.0, 0.25, 0.02
        self.device = torch.device("cpu")
        self.act = ActorPPO(net_dim, state_dim, action_dim)
        self.cri = CriticPPO(net_dim, state_dim, action_dim)
        self.cri_target = deepcopy(self.cri)
        self.act_optimizer = torch.optim.Adam(self.act.parameters(), 2 ** -12)
        self.cri_optimizer = torch.optim.Adam(self.cri.parameters(), 2 ** -12)
        self.criterion = torch.nn.SmoothL1Loss()
        self.traj_list = [[list() for _ in range(5)] for _ in range(env_num)]
        self.if_use_old_traj = False
        self.states = None

    def explore_vec_env(self, env, target_step):
        traj_list = list()
        last_done = torch.zeros(self.env_num, dtype=torch.int, device=self.device)
        ten_s = self.states
        step_i = 0
        ten_dones = torch.zeros(self.env_num, dtype=torch.int, device=self.device)
        while step_i < target_step or not any(ten_dones):
            with torch.no_grad():
                ten_a, ten_n = self.act.get_action(ten_s)
            ten_s_next, ten_rewards, ten_dones, _ = env.step(self.act.get_a_to_e(ten_a))
            traj_list.append((ten_s.clone(), ten_rewards.clone(), ten_dones.clone(), ten_a, ten_n))
            step_i += 1
            last_done[torch.where(ten_dones)[0]] = step_i
            ten_s = ten_s_next
        self.states = ten_s
        return self.convert_trajectory(traj_list, last_done)

    def convert_trajectory(self, buf_items, last_done):
        buf_items = list(map(list, zip(*buf_items)))  # state, reward, done, action, noise
        buf_items[0] = torch.stack(buf_items[0])
        buf_items[3:] = [torch.stack(item) for item in buf_items[3:]]
        if len(buf_items[3].shape) == 2:
            buf_items[3] = buf_items[3].unsqueeze(2)
        buf_items[1] = (torch.stack(buf_items[1]) * self.reward_scale).unsqueeze(2)
        buf_items[2] = ((1 - torch.stack(buf_items[2])) * self.gamma).unsqueeze(2)  # root-cause  # fails-here
        for j in range(len(buf_items)):
            cur_item = list()
            buf_item = buf_items[j]
            for env_i in range(self.env_num):
                last_step = last_done[env_i]
                pre_item = self.traj_list[env_i][j]
                if len(pre_item):
                    cur_item.append(pre_item)
                cur_item.append(buf_item[:last_step, env_i])
                self.traj_list[env_i][j] = buf_item[last_step:, env_i]
            buf_items[j] = torch.vstack(cur_item)
        return buf_items

    def get_reward_sum_raw(self, buf_len, buf_reward, buf_mask, buf_value):
        buf_r_sum = torch.empty(buf_len, dtype=torch.float32, device=self.device)
        pre_r_sum = 0
        for i in range(buf_len - 1, -1, -1):
            buf_r_sum[i] = buf_reward[i] + buf_mask[i] * pre_r_sum
            pre_r_sum = buf_r_sum[i]
        return buf_r_sum, buf_r_sum - buf_value[:, 0]

    @staticmethod
    def optimizer_update(optimizer, objective):
        optimizer.zero_grad()
        objective.backward()
        optimizer.step()

    def update_net(self, buffer):
        with torch.no_grad():
            buf_state, buf_reward, buf_mask, buf_action, buf_noise = buffer
            buf_len = buf_state.shape[0]
            buf_value = self.cri_target(buf_state)
            buf_logprob = self.act.get_old_logprob(buf_action, buf_noise)
            buf_r_sum, buf_adv_v = self.get_reward_sum_raw(buf_len, buf_reward, buf_mask, buf_value)
            buf_adv_v = (buf_adv_v - buf_adv_v.mean()) / (buf_adv_v.std() + 1e-5)
        for _ in range(int(1 + buf_len * self.repeat_times / self.batch_size)):
            indices = torch.randint(buf_len, size=(self.batch_size,), device=self.device)
            state, r_sum, adv_v = buf_state[indices], buf_r_sum[indices], buf_adv_v[indices]
            action, logprob = buf_action[indices], buf_logprob[indices]
            new_logprob, obj_entropy = self.act.get_logprob_entropy(state, action)
            ratio = (new_logprob - logprob.detach()).exp()
            obj_surrogate = -torch.min(adv_v * ratio, adv_v * ratio.clamp(1 - self.ratio_clip, 1 + self.ratio_clip)).mean()
            self.optimizer_update(self.act_optimizer, obj_surrogate + obj_entropy * self.lambda_entropy)
            obj_critic = self.criterion(self.cri(state).squeeze(1), r_sum)
            self.optimizer_update(self.cri_optimizer, obj_critic)
        return obj_critic.item(), -obj_surrogate.item()


env = AnymalTerrainLike()
agent = AgentPPO(net_dim=32, state_dim=env.state_dim, action_dim=env.action_dim, env_num=env.env_num)
agent.states = env.reset()
for it in range(3):
    buffer = agent.explore_vec_env(env, target_step=24)
    obj_c, obj_a = agent.update_net(buffer)
    print(f"iteration {it}: steps {buffer[0].shape[0]} critic {obj_c:.4f} actor {obj_a:.4f}")
