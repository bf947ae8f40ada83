"""Robot-policy inference with AMP (lerobot pi0 layout) whose eager_attention_forward takes the mask value from the scores themselves, big_neg = torch.finfo(att_weights.dtype).min, so under torch.autocast(float16) the fill is float16's own most negative finite value and fits
source: https://github.com/huggingface/lerobot/pull/710
reported-error: none (fixed version: a dtype-dependent mask constant instead of the float32-only -2.3819763e38)
outcome: ok
root-cause: -
expect: none
"""
from contextlib import nullcontext

import torch
import torch.nn as nn

policy_config = {"hidden": 32, "num_heads": 4, "chunk_size": 6, "action_dim": 7, "prefix_len": 10}


# ---- lerobot/common/policies/pi0/paligemma_with_expert.py
class PaliGemmaWithExpertModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.num_heads = cfg["num_heads"]
        self.head_dim = cfg["hidden"] // cfg["num_heads"]
        self.qkv = nn.Linear(cfg["hidden"], 3 * cfg["hidden"])
        self.o_proj = nn.Linear(cfg["hidden"], cfg["hidden"])

    def eager_attention_forward(self, attention_mask, query_states, key_states, value_states):
        att_weights = torch.matmul(query_states, key_states.transpose(2, 3))
        att_weights *= self.head_dim ** -0.5
        big_neg = torch.finfo(att_weights.dtype).min
        masked_att_weights = att_weights.masked_fill(~attention_mask[:, None, :, :], big_neg)
        probs = nn.functional.softmax(masked_att_weights, dim=-1).to(dtype=value_states.dtype)
        return torch.matmul(probs, value_states)

    def forward(self, inputs_embeds, attention_mask):
        b, t, h = inputs_embeds.shape
        q, k, v = self.qkv(inputs_embeds).view(b, t, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        att = self.eager_attention_forward(attention_mask, q, k, v)
        return self.o_proj(att.transpose(1, 2).reshape(b, t, h))


# ---- lerobot/common/policies/pi0/modeling_pi0.py
def make_att_2d_masks(pad_masks, att_masks):
    cumsum = torch.cumsum(att_masks, dim=1)
    att_2d_masks = cumsum[:, None, :] <= cumsum[:, :, None]
    pad_2d_masks = pad_masks[:, None, :] * pad_masks[:, :, None]
    return att_2d_masks & pad_2d_masks


class PI0Policy(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.embed_prefix = nn.Linear(16, cfg["hidden"])
        self.action_in_proj = nn.Linear(cfg["action_dim"], cfg["hidden"])
        self.paligemma_with_expert = PaliGemmaWithExpertModel(cfg)
        self.action_out_proj = nn.Linear(cfg["hidden"], cfg["action_dim"])

    @torch.no_grad()
    def select_action(self, observation):
        prefix = self.embed_prefix(observation["image_tokens"])
        noise = torch.randn(prefix.shape[0], self.cfg["chunk_size"], self.cfg["action_dim"])
        suffix = self.action_in_proj(noise)
        embs = torch.cat([prefix, suffix], dim=1)
        b, t = embs.shape[:2]
        pad_masks = torch.ones(b, t, dtype=torch.bool)
        pad_masks[:, 2] = False
        att_masks = torch.cat([torch.zeros(b, prefix.shape[1]), torch.ones(b, self.cfg["chunk_size"])], dim=1)
        att_2d_masks = make_att_2d_masks(pad_masks, att_masks)
        out = self.paligemma_with_expert(embs, att_2d_masks)
        return self.action_out_proj(out[:, -self.cfg["chunk_size"]:])


# ---- lerobot/common/robot_devices/control_utils.py
def predict_action(observation, policy, device, use_amp):
    with torch.inference_mode(), torch.autocast(device_type=device.type, dtype=torch.float16) if use_amp else nullcontext():
        action = policy.select_action(observation)
    return action.float()


def control_loop(policy, fps=30, device=torch.device("cpu"), use_amp=True, steps=3):
    for step in range(steps):
        observation = {"image_tokens": torch.randn(1, policy_config["prefix_len"], 16)}
        action = predict_action(observation, policy, device, use_amp)
        print(f"step {step} action chunk {tuple(action.shape)} t={step / fps:.3f}s norm {action.norm():.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    policy = PI0Policy(policy_config).eval()
    control_loop(policy, fps=30, device=torch.device("cpu"), use_amp=True)
