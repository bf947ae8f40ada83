"""MADDPG on a multi-agent particle task (off-policy style, re-typed: MLPBase, MADDPG_Actor, MADDPG_Critic, MADDPGPolicy with target networks, the trainer's get_update_info and shared critic update, synthetic replay batches): the critic keeps its Q heads in a plain Python list, self.q_outs = [init_(nn.Linear(hidden_size, 1)) ...], so the self.to(device) at the end of its constructor moves the MLP but not the heads, and the first critic call feeds GPU features into CPU Linear layers. The meta device stands in for cuda (this machine has no GPU)
source: https://github.com/marlbenchmark/off-policy/pull/12
reported-error: sh ./train_mpe_maddpg.sh -> RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!; reason given in the PR: self.q_outs = [init_(nn.Linear(self.hidden_size, 1)) for _ in range(num_q_outs)] followed by self.to(device) does not transfer these parameters (the PR changes [] to nn.ModuleList)
outcome: RuntimeError: Tensor on device cpu is not on the expected device meta! at line 76
root-cause: line 68
expect: DG009
"""
import argparse

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
DEVICE = torch.device("meta")  # stand-in for torch.device("cuda:0")


def to_torch(input):
    return torch.from_numpy(input) if type(input) == np.ndarray else input


def init(module, weight_init, bias_init, gain=1):
    weight_init(module.weight.data, gain=gain)
    bias_init(module.bias.data)
    return module


def onehot_from_logits(logits):
    return (logits == logits.max(-1, keepdim=True)[0]).float()


class MLPBase(nn.Module):
    def __init__(self, args, inputs_dim):
        super().__init__()
        self.feature_norm = nn.LayerNorm(inputs_dim)
        gain = nn.init.calculate_gain("relu")
        layers = [init(nn.Linear(inputs_dim, args.hidden_size), nn.init.orthogonal_, lambda x: nn.init.constant_(x, 0), gain), nn.ReLU(), nn.LayerNorm(args.hidden_size)]
        for _ in range(args.layer_N):
            layers += [init(nn.Linear(args.hidden_size, args.hidden_size), nn.init.orthogonal_, lambda x: nn.init.constant_(x, 0), gain), nn.ReLU(), nn.LayerNorm(args.hidden_size)]
        self.mlp = nn.Sequential(*layers)

    def forward(self, x):
        return self.mlp(self.feature_norm(x))


class MADDPG_Actor(nn.Module):
    def __init__(self, args, obs_dim, act_dim, device):
        super().__init__()
        self.tpdv = dict(dtype=torch.float32, device=device)
        self.mlp = MLPBase(args, obs_dim)
        self.act = init(nn.Linear(args.hidden_size, act_dim), nn.init.orthogonal_, lambda x: nn.init.constant_(x, 0), args.gain)
        self.to(device)

    def forward(self, x):
        x = to_torch(x).to(**self.tpdv)
        return self.act(self.mlp(x))


class MADDPG_Critic(nn.Module):
    def __init__(self, args, central_obs_dim, central_act_dim, device, num_q_outs=1):
        super().__init__()
        self.hidden_size = args.hidden_size
        self.tpdv = dict(dtype=torch.float32, device=device)
        self.mlp = MLPBase(args, central_obs_dim + central_act_dim)

        def init_(m):
            return init(m, nn.init.orthogonal_, lambda x: nn.init.constant_(x, 0))
        self.q_outs = [init_(nn.Linear(self.hidden_size, 1)) for _ in range(num_q_outs)]  # root-cause
        self.to(device)

    def forward(self, central_obs, central_act):
        central_obs = to_torch(central_obs).to(**self.tpdv)
        central_act = to_torch(central_act).to(**self.tpdv)
        x = torch.cat([central_obs, central_act], dim=1)
        x = self.mlp(x)
        q_values = [q_out(x) for q_out in self.q_outs]  # fails-here
        return q_values


class MADDPGPolicy:
    def __init__(self, args, obs_dim, act_dim, cent_obs_dim, cent_act_dim, device):
        self.args, self.device, self.act_dim = args, device, act_dim
        self.actor = MADDPG_Actor(args, obs_dim, act_dim, device)
        self.critic = MADDPG_Critic(args, cent_obs_dim, cent_act_dim, device)
        self.target_actor = MADDPG_Actor(args, obs_dim, act_dim, device)
        self.target_critic = MADDPG_Critic(args, cent_obs_dim, cent_act_dim, device)
        self.target_actor.load_state_dict(self.actor.state_dict())
        self.target_critic.load_state_dict(self.critic.state_dict())
        self.actor_optimizer = torch.optim.Adam(self.actor.parameters(), lr=args.lr, eps=args.opti_eps)
        self.critic_optimizer = torch.optim.Adam(self.critic.parameters(), lr=args.lr, eps=args.opti_eps)

    def get_actions(self, obs, use_target=False):
        actor_out = self.target_actor(obs) if use_target else self.actor(obs)
        return onehot_from_logits(actor_out)


def shared_train_policy_on_batch(policy, batch, args, num_agents, tpdv):
    obs, cent_obs, act, rew, nobs, cent_nobs, dones_env = batch
    batch_size = cent_obs.shape[0]
    with torch.no_grad():
        pol_nact = policy.get_actions(np.concatenate(nobs, axis=0), use_target=True)
        cent_nact = torch.cat(pol_nact.split(split_size=batch_size, dim=0), dim=-1)
        next_step_Qs = policy.target_critic(cent_nobs, cent_nact)
    next_step_Q, _ = torch.min(torch.cat(next_step_Qs, dim=-1), dim=-1, keepdim=True)
    rewards = to_torch(rew).to(**tpdv).view(-1, 1)
    dones_env = to_torch(dones_env).to(**tpdv).view(-1, 1)
    target_Qs = rewards + args.gamma * (1 - dones_env) * next_step_Q
    predicted_Qs = policy.critic(cent_obs, np.concatenate(list(act), axis=-1))
    policy.critic_optimizer.zero_grad()
    critic_loss = torch.stack([((target_Qs.detach() - q) ** 2).mean() for q in predicted_Qs]).sum(dim=0)
    critic_loss.backward()
    torch.nn.utils.clip_grad_norm_(policy.critic.parameters(), args.max_grad_norm)
    policy.critic_optimizer.step()

    for p in policy.critic.parameters():
        p.requires_grad = False
    actor_acts = policy.actor(np.concatenate(obs, axis=0))
    soft_acts = torch.softmax(actor_acts, dim=-1)
    q = policy.critic(cent_obs, torch.cat(soft_acts.split(split_size=batch_size, dim=0), dim=-1))[0]
    actor_loss = -q.mean()
    policy.actor_optimizer.zero_grad()
    actor_loss.backward()
    policy.actor_optimizer.step()
    for p in policy.critic.parameters():
        p.requires_grad = True
    return critic_loss, actor_loss


def sample_batch(rng, num_agents, batch_size, obs_dim, act_dim):
    obs = rng.normal(size=(num_agents, batch_size, obs_dim)).astype(np.float32)
    nobs = obs + rng.normal(scale=0.1, size=obs.shape).astype(np.float32)
    act = np.eye(act_dim, dtype=np.float32)[rng.integers(0, act_dim, (num_agents, batch_size))]
    rew = rng.normal(size=(batch_size, 1)).astype(np.float32)
    dones_env = np.zeros((batch_size, 1), dtype=np.float32)
    cent_obs = np.concatenate(list(obs), axis=-1)
    cent_nobs = np.concatenate(list(nobs), axis=-1)
    return obs, cent_obs, act, rew, nobs, cent_nobs, dones_env


args = argparse.Namespace(hidden_size=64, layer_N=1, gain=0.01, lr=7e-4, opti_eps=1e-5, gamma=0.99, max_grad_norm=10.0)
num_agents, obs_dim, act_dim, batch_size = 3, 18, 5, 32
policy = MADDPGPolicy(args, obs_dim, act_dim, num_agents * obs_dim, num_agents * act_dim, DEVICE)
tpdv = dict(dtype=torch.float32, device=DEVICE)
rng = np.random.default_rng(0)
for step in range(5):
    critic_loss, actor_loss = shared_train_policy_on_batch(policy, sample_batch(rng, num_agents, batch_size, obs_dim, act_dim), args, num_agents, tpdv)
print("critic loss on", critic_loss.device, "| actor loss on", actor_loss.device)
