"""The PGPR-style actor-critic path reasoning of bp02 (orcax/PGPR #18) with the bool mask the thread recommends: select_action wraps the environment's NumPy uint8 action mask with torch.BoolTensor and forward masks the invalid actions with actor_logits[~act_mask] = -999999.0; the uint8 mask in the environment, act_mask.gather and the valid_idx == 0 test are kept
source: https://github.com/orcax/PGPR/issues/18
reported-error: (none filed; the fixed situation of bp02)
outcome: ok
root-cause: -
expect: none
"""
import random
from collections import namedtuple

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

torch.manual_seed(0)
np.random.seed(0)
random.seed(0)

SavedAction = namedtuple("SavedAction", ["log_prob", "value"])
USER, PRODUCT, WORD, SELF_LOOP = "user", "product", "word", "self_loop"
PURCHASE, MENTION, DESCRIBED_AS = "purchase", "mentions", "described_as"
KG_RELATION = {USER: {PURCHASE: PRODUCT, MENTION: WORD}, PRODUCT: {PURCHASE: USER, DESCRIBED_AS: WORD},
               WORD: {MENTION: USER, DESCRIBED_AS: PRODUCT}}


class ActorCritic(nn.Module):
    def __init__(self, state_dim, act_dim, gamma=0.99, hidden_sizes=[64, 32]):
        super(ActorCritic, self).__init__()
        self.state_dim, self.act_dim, self.gamma = state_dim, act_dim, gamma
        self.l1 = nn.Linear(state_dim, hidden_sizes[0])
        self.l2 = nn.Linear(hidden_sizes[0], hidden_sizes[1])
        self.actor = nn.Linear(hidden_sizes[1], act_dim)
        self.critic = nn.Linear(hidden_sizes[1], 1)
        self.saved_actions, self.rewards, self.entropy = [], [], []

    def forward(self, inputs):
        state, act_mask = inputs  # state: [bs, state_dim], act_mask: [bs, act_dim]
        x = self.l1(state)
        x = F.dropout(F.elu(x), p=0.5)
        out = self.l2(x)
        x = F.dropout(F.elu(out), p=0.5)
        actor_logits = self.actor(x)
        actor_logits[~act_mask] = -999999.0
        act_probs = F.softmax(actor_logits, dim=-1)
        state_values = self.critic(x)
        return act_probs, state_values

    def select_action(self, batch_state, batch_act_mask, device):
        state = torch.FloatTensor(batch_state).to(device)  # Tensor [bs, state_dim]
        act_mask = torch.BoolTensor(batch_act_mask).to(device)  # Tensor of [bs, act_dim]
        probs, value = self((state, act_mask))
        m = Categorical(probs)
        acts = m.sample()
        valid_idx = act_mask.gather(1, acts.view(-1, 1)).view(-1)
        acts[valid_idx == 0] = 0
        self.saved_actions.append(SavedAction(m.log_prob(acts), value))
        self.entropy.append(m.entropy())
        return acts.cpu().numpy().tolist()

    def update(self, optimizer, device, ent_weight):
        batch_rewards = np.vstack(self.rewards).T  # numpy array of [bs, #steps]
        batch_rewards = torch.FloatTensor(batch_rewards).to(device)
        num_steps = batch_rewards.shape[1]
        for i in range(1, num_steps):
            batch_rewards[:, num_steps - i - 1] += self.gamma * batch_rewards[:, num_steps - i]
        actor_loss, critic_loss, entropy_loss = 0, 0, 0
        for i in range(0, num_steps):
            log_prob, value = self.saved_actions[i]
            advantage = batch_rewards[:, i] - value.squeeze(1)
            actor_loss += -log_prob * advantage.detach()
            critic_loss += advantage.pow(2)
            entropy_loss += -self.entropy[i]
        loss = actor_loss.mean() + critic_loss.mean() + ent_weight * entropy_loss.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        del self.rewards[:]
        del self.saved_actions[:]
        del self.entropy[:]
        return loss.item()


class BatchKGEnvironment:
    """Random user/product/word graph with TransE-like embeddings; act_idx 0 is always the self-loop."""

    def __init__(self, max_acts=5, max_path_len=3, embed_size=8, n_users=12, n_products=20, n_words=15):
        self.max_acts, self.act_dim, self.max_num_nodes = max_acts, max_acts + 1, max_path_len + 1
        self.embed_size = embed_size
        self.embeds = {USER: np.random.randn(n_users, embed_size), PRODUCT: np.random.randn(n_products, embed_size),
                       WORD: np.random.randn(n_words, embed_size)}
        for r in (PURCHASE, MENTION, DESCRIBED_AS):
            self.embeds[r] = (np.random.randn(embed_size) * 0.1, 0.0)
        self.embeds[SELF_LOOP] = (np.zeros(embed_size), 0.0)
        self.kg = {USER: {u: {PURCHASE: random.sample(range(n_products), 4), MENTION: random.sample(range(n_words), 3)}
                          for u in range(n_users)},
                   PRODUCT: {p: {PURCHASE: random.sample(range(n_users), 2), DESCRIBED_AS: random.sample(range(n_words), 3)}
                             for p in range(n_products)},
                   WORD: {w: {MENTION: random.sample(range(n_users), 2), DESCRIBED_AS: random.sample(range(n_products), 3)}
                          for w in range(n_words)}}
        self.state_dim = 4 * embed_size
        u_p_scores = np.dot(self.embeds[USER] + self.embeds[PURCHASE][0], self.embeds[PRODUCT].T)
        self.u_p_scales = np.max(u_p_scores, axis=1)

    def _get_actions(self, path, done):
        _, curr_node_type, curr_node_id = path[-1]
        actions = [(SELF_LOOP, curr_node_id)]
        if done:
            return actions
        visited = set((v[1], v[2]) for v in path)
        candidates = [(r, n) for r, nodes in self.kg[curr_node_type][curr_node_id].items() for n in nodes
                      if (KG_RELATION[curr_node_type][r], n) not in visited]
        random.shuffle(candidates)
        return actions + candidates[: self.max_acts]

    def _get_state(self, path):
        user_embed = self.embeds[USER][path[0][-1]]
        zero_embed = np.zeros(self.embed_size)
        if len(path) == 1:
            return np.concatenate([user_embed, user_embed, zero_embed, zero_embed])
        last_relation, curr_node_type, curr_node_id = path[-1]
        _, last_node_type, last_node_id = path[-2]
        return np.concatenate([user_embed, self.embeds[curr_node_type][curr_node_id],
                               self.embeds[last_node_type][last_node_id], self.embeds[last_relation][0]])

    def _get_reward(self, path):
        if len(path) <= 2:
            return 0.0
        _, curr_node_type, curr_node_id = path[-1]
        if curr_node_type != PRODUCT:
            return 0.0
        uid = path[0][-1]
        u_vec = self.embeds[USER][uid] + self.embeds[PURCHASE][0]
        return max(np.dot(u_vec, self.embeds[PRODUCT][curr_node_id]) / self.u_p_scales[uid], 0.0)

    def reset(self, uids):
        self._batch_path = [[(SELF_LOOP, USER, uid)] for uid in uids]
        self._done = False
        self._batch_curr_actions = [self._get_actions(p, self._done) for p in self._batch_path]
        return np.vstack([self._get_state(p) for p in self._batch_path])

    def batch_step(self, batch_act_idx):
        for i, act_idx in enumerate(batch_act_idx):
            _, curr_node_type, _ = self._batch_path[i][-1]
            relation, next_node_id = self._batch_curr_actions[i][act_idx]
            next_node_type = curr_node_type if relation == SELF_LOOP else KG_RELATION[curr_node_type][relation]
            self._batch_path[i].append((relation, next_node_type, next_node_id))
        self._done = len(self._batch_path[0]) >= self.max_num_nodes
        self._batch_curr_actions = [self._get_actions(p, self._done) for p in self._batch_path]
        state = np.vstack([self._get_state(p) for p in self._batch_path])
        reward = np.array([self._get_reward(p) for p in self._batch_path])
        return state, reward, self._done

    def batch_action_mask(self, dropout=0.0):
        batch_mask = []
        for actions in self._batch_curr_actions:
            act_mask = np.zeros(self.act_dim, dtype=np.uint8)
            act_mask[list(range(len(actions)))] = 1
            batch_mask.append(act_mask)
        return np.vstack(batch_mask)


device = torch.device("cpu")
env = BatchKGEnvironment()
model = ActorCritic(env.state_dim, env.act_dim).to(device)
optimizer = optim.Adam(model.parameters(), lr=1e-3)
uids = list(range(12))
model.train()
for epoch in range(1, 4):
    random.shuffle(uids)
    for start in range(0, len(uids), 4):
        batch_state = env.reset(uids[start:start + 4])
        done = False
        while not done:
            batch_act_mask = env.batch_action_mask(dropout=0.5)
            batch_act_idx = model.select_action(batch_state, batch_act_mask, device)
            batch_state, batch_reward, done = env.batch_step(batch_act_idx)
            model.rewards.append(batch_reward)
        total_reward = float(np.sum(model.rewards))
        loss = model.update(optimizer, device, ent_weight=1e-3)
    print(f"epoch {epoch}: loss {loss:.4f} reward {total_reward:.3f}")
