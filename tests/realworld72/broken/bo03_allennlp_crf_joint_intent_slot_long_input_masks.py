"""Joint intent detection and slot filling (ATIS-like) with a CRF slot head, allennlp style (re-typed ConditionalRandomField of allennlp 1.0) plus an intent head, trained from dict batches of a custom collate_fn: the collate_fn builds the BERT-style input_masks with torch.tensor over 0/1 Python lists, an int64 tensor, and the CRF's _input_likelihood computes ~mask[i] on it, a bitwise not (-2 and -1) instead of a logical one, so the CRF negative log-likelihood explodes while the intent loss looks normal
source: https://github.com/allenai/allennlp/issues/4478
reported-error: "when training, the loss returned by forward() exceeds 10^29, and the result on evaluation dataset is terrible, F1 is nearly 0" (NER with ConditionalRandomField, mask=input_masks); the reporter: "at first, I think torch.logical_not should be used here, 'cause ~ only apply to bool tensor, however when I find the official doc already asked the user to pass bool type mask, I realized I made a foolish mistake"
outcome: ok (silent: the CRF slot loss printed as "crf nll per sentence (step 0)" is 7.5e16 for 40- to 60-token sentences while the intent cross-entropy is 1.6; a long input_masks makes ~mask[i] equal -2 on real tokens and -1 on padding in _input_likelihood, so alpha is multiplied by -2 at every step)
root-cause: line 109
expect: DG004
"""
import math

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
rng = np.random.default_rng(0)

SLOT_TAGS = ["O", "B-fromloc", "I-fromloc", "B-toloc", "I-toloc", "B-date"]
INTENTS = ["flight", "airfare", "ground_service", "airline", "distance"]
VOCAB_SIZE, PAD = 200, 0


def logsumexp(tensor, dim=-1, keepdim=False):
    max_score, _ = tensor.max(dim, keepdim=keepdim)
    stable_vec = tensor - (max_score if keepdim else max_score.unsqueeze(dim))
    return max_score + (stable_vec.exp().sum(dim, keepdim=keepdim)).log()


class ConditionalRandomField(nn.Module):
    """allennlp.modules.conditional_random_field.ConditionalRandomField (v1.0), loss part only."""

    def __init__(self, num_tags, include_start_end_transitions=True):
        super().__init__()
        self.num_tags = num_tags
        self.transitions = nn.Parameter(torch.empty(num_tags, num_tags))
        self.include_start_end_transitions = include_start_end_transitions
        self.start_transitions = nn.Parameter(torch.empty(num_tags))
        self.end_transitions = nn.Parameter(torch.empty(num_tags))
        nn.init.xavier_normal_(self.transitions)
        nn.init.normal_(self.start_transitions)
        nn.init.normal_(self.end_transitions)

    def _input_likelihood(self, logits, mask):
        batch_size, sequence_length, num_tags = logits.size()
        mask = mask.transpose(0, 1).contiguous()
        logits = logits.transpose(0, 1).contiguous()
        alpha = self.start_transitions.view(1, num_tags) + logits[0]
        for i in range(1, sequence_length):
            emit_scores = logits[i].view(batch_size, 1, num_tags)
            transition_scores = self.transitions.view(1, num_tags, num_tags)
            broadcast_alpha = alpha.view(batch_size, num_tags, 1)
            inner = broadcast_alpha + emit_scores + transition_scores
            alpha = logsumexp(inner, 1) * mask[i].view(batch_size, 1) + alpha * (~mask[i]).view(batch_size, 1)
        stops = alpha + self.end_transitions.view(1, num_tags)
        return logsumexp(stops)

    def _joint_likelihood(self, logits, tags, mask):
        batch_size, sequence_length, _ = logits.data.shape
        logits = logits.transpose(0, 1).contiguous()
        mask = mask.transpose(0, 1).contiguous()
        tags = tags.transpose(0, 1).contiguous()
        score = self.start_transitions.index_select(0, tags[0])
        for i in range(sequence_length - 1):
            current_tag, next_tag = tags[i], tags[i + 1]
            transition_score = self.transitions[current_tag.view(-1), next_tag.view(-1)]
            emit_score = logits[i].gather(1, current_tag.view(batch_size, 1)).squeeze(1)
            score = score + transition_score * mask[i + 1] + emit_score * mask[i]
        last_tag_index = mask.sum(0).long() - 1
        last_tags = tags.gather(0, last_tag_index.view(1, batch_size)).squeeze(0)
        last_transition_score = self.end_transitions.index_select(0, last_tags)
        last_input_score = logits[-1].gather(1, last_tags.view(-1, 1)).squeeze()
        return score + last_transition_score + last_input_score * mask[-1]

    def forward(self, inputs, tags, mask=None):
        if mask is None:
            mask = torch.ones(*tags.size(), dtype=torch.bool)
        log_denominator = self._input_likelihood(inputs, mask)
        log_numerator = self._joint_likelihood(inputs, tags, mask)
        return torch.sum(log_numerator - log_denominator)


class AtisLike(Dataset):
    """Utterances of 40..60 word ids with BIO slot tags and one intent each."""

    def __init__(self, n=64):
        self.samples = []
        for _ in range(n):
            length = int(rng.integers(40, 61))
            ids = rng.integers(1, VOCAB_SIZE, length)
            tags = np.where(ids % 7 == 0, 1, np.where(ids % 11 == 0, 3, 0))
            tags[1:][(tags[:-1] == 1) & (ids[1:] % 2 == 0)] = 2
            intent = int(ids[:5].sum() % len(INTENTS))
            self.samples.append((ids.tolist(), tags.tolist(), intent))

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, idx):
        return self.samples[idx]


def collate_fn(batch):
    max_len = max(len(ids) for ids, _, _ in batch)
    input_ids = [ids + [PAD] * (max_len - len(ids)) for ids, _, _ in batch]
    slot_tags = [tags + [0] * (max_len - len(tags)) for _, tags, _ in batch]
    input_masks = [[1] * len(ids) + [0] * (max_len - len(ids)) for ids, _, _ in batch]
    return {
        "input_ids": torch.tensor(input_ids),
        "input_masks": torch.tensor(input_masks),  # root-cause
        "slot_tags": torch.tensor(slot_tags),
        "intent": torch.tensor([intent for _, _, intent in batch]),
    }


class JointIntentSlotModel(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.embed = nn.Embedding(VOCAB_SIZE, hidden, padding_idx=PAD)
        self.encoder = nn.GRU(hidden, hidden, batch_first=True, bidirectional=True)
        self.slot_head = nn.Linear(2 * hidden, len(SLOT_TAGS))
        self.intent_head = nn.Linear(2 * hidden, len(INTENTS))
        self.crf_layer = ConditionalRandomField(len(SLOT_TAGS))

    def forward(self, input_ids, input_masks):
        h, _ = self.encoder(self.embed(input_ids))
        pooled = (h * input_masks.unsqueeze(-1)).sum(1) / input_masks.sum(1, keepdim=True)
        return self.slot_head(h), self.intent_head(pooled)


loader = DataLoader(AtisLike(), batch_size=16, shuffle=True, collate_fn=collate_fn)
model = JointIntentSlotModel()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
intent_loss_fn = nn.CrossEntropyLoss()
slot_weight, intent_weight = 1.0, 0.5

for step, batch in enumerate(loader):
    token_logits, intent_logits = model(batch["input_ids"], batch["input_masks"])
    crf_loss = -model.crf_layer(token_logits, batch["slot_tags"], batch["input_masks"]) / token_logits.size(0)  # root-cause-alt
    intent_loss = intent_loss_fn(intent_logits, batch["intent"])
    loss = slot_weight * crf_loss + intent_weight * intent_loss
    if step == 0:
        print("crf nll per sentence (step 0): {:.3e}".format(crf_loss.item()))
        print("intent cross-entropy (step 0): {:.3f}".format(intent_loss.item()))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print("last step loss: {:.3e} (finite: {})".format(loss.item(), math.isfinite(loss.item())))
