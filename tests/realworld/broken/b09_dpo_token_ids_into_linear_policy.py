"""DPO example: integer token sequences passed straight into a Linear policy model
source: https://github.com/kyegomez/zeta/issues/115
reported-error: RuntimeError: mat1 and mat2 must have the same dtype, but got Long and Float
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Long and Float at line 58
root-cause: line 69
expect: DG005
"""
import copy

import torch
import torch.nn.functional as F
from torch import nn


def freeze_all_layers(module):
    for param in module.parameters():
        param.requires_grad = False


def log_prob(prob, eps=1e-20):
    return torch.log(prob.clamp(min=eps))


def log_prob_from_model_and_seq(model, seq):
    logits = model(seq)
    prob = logits.softmax(dim=-1)
    return log_prob(prob).sum(dim=-1)


class DPO(nn.Module):
    def __init__(self, model: nn.Module, *, beta: float = 0.1):
        super().__init__()
        self.policy_model = model
        self.ref_model = copy.deepcopy(model)
        freeze_all_layers(self.ref_model)
        self.beta = beta

    def forward(self, preferred_seq, unpreferred_seq):
        self.ref_model.eval()
        with torch.no_grad():
            ref_preferred_logprob = log_prob_from_model_and_seq(self.ref_model, preferred_seq)
            ref_unpreferred_logprob = log_prob_from_model_and_seq(self.ref_model, unpreferred_seq)
        policy_preferred_logprob = log_prob_from_model_and_seq(self.policy_model, preferred_seq)
        policy_unpreferred_logprob = log_prob_from_model_and_seq(self.policy_model, unpreferred_seq)
        policy_logratios = policy_preferred_logprob - policy_unpreferred_logprob
        ref_logratios = ref_preferred_logprob - ref_unpreferred_logprob
        losses = -F.logsigmoid(self.beta * (policy_logratios - ref_logratios))
        return losses.mean()


# Define a simple policy model
class PolicyModel(nn.Module):
    def __init__(self, dim, output_dim):
        super().__init__()
        self.fc = nn.Linear(dim, output_dim)

    def forward(self, x):
        return self.fc(x)  # fails-here


dim = 10
output_dim = 5
policy_model = PolicyModel(dim, output_dim)

# Initialize DPO with the policy model
dpo_model = DPO(model=policy_model, beta=0.1)

# Sample preferred and unpreferred sequences
preferred_seq = torch.randint(0, output_dim, (3, dim))  # root-cause
unpreferred_seq = torch.randint(0, output_dim, (3, dim))

optimizer = torch.optim.Adam(policy_model.parameters(), lr=1e-3)
# Compute loss
loss = dpo_model(preferred_seq, unpreferred_seq)
loss.backward()
optimizer.step()
print(loss)
