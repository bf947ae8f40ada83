import numpy as np
import torch

from AgentNet import Actor, Critic


def soft_target_update(target, current, tau=5e-3):
    for t, c in zip(target.parameters(), current.parameters()):
        t.data.copy_(tau * c.data + (1 - tau) * t.data)


class AgentDDPG:
    def __init__(self, state_dim, action_dim, net_dim, learning_rate=1e-4):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.act = Actor(state_dim, action_dim, net_dim).to(self.device)
        self.act_target = Actor(state_dim, action_dim, net_dim).to(self.device)
        self.act_target.load_state_dict(self.act.state_dict())
        self.cri = Critic(state_dim, action_dim, net_dim).to(self.device)
        self.cri_target = Critic(state_dim, action_dim, net_dim).to(self.device)
        self.cri_target.load_state_dict(self.cri.state_dict())
        self.act_optimizer = torch.optim.Adam(self.act.parameters(), lr=learning_rate)
        self.cri_optimizer = torch.optim.Adam(self.cri.parameters(), lr=learning_rate)
        self.criterion = torch.nn.MSELoss()
        self.last_critic_loss_dtype = None

    def select_action(self, state):
        s = torch.as_tensor(state[None], device=self.device)
        a = self.act(s)[0].detach().cpu().numpy()
        return np.clip(a + np.random.normal(0, 0.1, a.shape), -1, 1)

    def update_parameters(self, buffer, batch_size, repeat_times):
        for _ in range(repeat_times):
            with torch.no_grad():
                reward, mask, state, action, next_s = buffer.random_sample(batch_size, self.device)
                next_a = self.act_target(next_s)
                q_target = reward + mask * self.cri_target(next_s, next_a)
            q_eval = self.cri(state, action)
            critic_loss = self.criterion(q_eval, q_target)  # fails-here
            self.last_critic_loss_dtype = critic_loss.dtype
            self.cri_optimizer.zero_grad()
            critic_loss.backward()
            self.cri_optimizer.step()
            actor_loss = -self.cri(state, self.act(state)).mean()
            self.act_optimizer.zero_grad()
            actor_loss.backward()
            self.act_optimizer.step()
            soft_target_update(self.act_target, self.act)
            soft_target_update(self.cri_target, self.cri)
        return actor_loss.item(), critic_loss.item()
