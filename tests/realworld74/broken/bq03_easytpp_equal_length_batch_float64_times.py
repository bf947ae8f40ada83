"""An EasyTPP-style RMTPP run on fixed-length event windows (re-typed: EventTokenizer.pad/_pad with make_pad_sequence and the attention-mask builder, BatchEncoding.convert_to_tensors with torch.tensor, TPPDataCollator, the RMTPP model with a type embedding, a Linear temporal embedding and an nn.RNN, and its log-likelihood loss); every sequence is a 16-event window cut in NumPy from one long event stream, so no batch needs padding and _pad takes its no-padding branch, which builds the time arrays with a plain np.array of Python floats: float64 time tensors reach the float32 temporal embedding
source: https://github.com/ant-research/EasyTemporalPointProcess/pull/65
reported-error: "set the dtype to float32 during tokenization when no padding is needed": when all sequences of a batch already have the max length, EventTokenizer._pad returns time_seqs and time_delta_seqs as default-dtype (float64) arrays instead of the float32 that make_pad_sequence produces, and the float32 model rejects them (PR #65 adds dtype=np.float32 / np.int64 in that branch)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 116
root-cause: line 57
expect: DG004
"""
import math
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F
from torch.utils.data import DataLoader

torch.manual_seed(0)
rng = np.random.default_rng(0)


class BatchEncoding(dict):
    def convert_to_tensors(self, tensor_type="pt"):
        for key, value in self.items():
            if not torch.is_tensor(value):
                self[key] = torch.tensor(value)  # root-cause-alt
        return self


class EventTokenizer:
    model_input_names = ["time_seqs", "time_delta_seqs", "type_seqs", "seq_non_pad_mask", "attention_mask"]

    def __init__(self, num_event_types, padding_side="right"):
        self.num_event_types = num_event_types
        self.pad_token_id = num_event_types
        self.padding_side = padding_side

    def pad(self, encoded_inputs, padding="longest", max_length=None, return_attention_mask=True, return_tensors="pt"):
        if isinstance(encoded_inputs, (list, tuple)):
            encoded_inputs = {key: [example[key] for example in encoded_inputs] for key in encoded_inputs[0].keys()}
        if padding == "longest":
            max_length = max(len(seq) for seq in encoded_inputs[self.model_input_names[0]])
        batch_output = self._pad(encoded_inputs, max_length=max_length, padding=padding,
                                 return_attention_mask=return_attention_mask)
        return BatchEncoding(batch_output).convert_to_tensors(return_tensors)

    def _pad(self, encoded_inputs, max_length, padding, return_attention_mask):
        required_input = encoded_inputs[self.model_input_names[0]]
        seq_lens = np.array([len(seq) for seq in required_input])
        is_all_seq_equal_max_length = np.all(seq_lens == max_length)
        needs_to_be_padded = padding != "do_not_pad" and ~is_all_seq_equal_max_length
        batch_output = dict()
        if needs_to_be_padded:
            batch_output[self.model_input_names[0]] = self.make_pad_sequence(encoded_inputs[self.model_input_names[0]], self.pad_token_id, self.padding_side, max_length)
            batch_output[self.model_input_names[1]] = self.make_pad_sequence(encoded_inputs[self.model_input_names[1]], self.pad_token_id, self.padding_side, max_length)
            batch_output[self.model_input_names[2]] = self.make_pad_sequence(encoded_inputs[self.model_input_names[2]], self.pad_token_id, self.padding_side, max_length, dtype=np.int64)
        else:
            batch_output[self.model_input_names[0]] = np.array(encoded_inputs[self.model_input_names[0]])  # root-cause
            batch_output[self.model_input_names[1]] = np.array(encoded_inputs[self.model_input_names[1]])
            batch_output[self.model_input_names[2]] = np.array(encoded_inputs[self.model_input_names[2]])
        seq_pad_mask = np.full_like(batch_output[self.model_input_names[2]], fill_value=True, dtype=bool)
        for i, seq_len in enumerate(seq_lens):
            seq_pad_mask[i, seq_len:] = False
        batch_output[self.model_input_names[3]] = seq_pad_mask
        if return_attention_mask:
            batch_output[self.model_input_names[4]] = self.make_attn_mask_for_pad_sequence(batch_output[self.model_input_names[2]], self.pad_token_id)
        return batch_output

    @staticmethod
    def make_pad_sequence(seqs, pad_token_id, padding_side, max_len, dtype=np.float32):
        if padding_side == "right":
            return np.array([seq + [pad_token_id] * (max_len - len(seq)) for seq in seqs], dtype=dtype)
        return np.array([[pad_token_id] * (max_len - len(seq)) + seq for seq in seqs], dtype=dtype)

    def make_attn_mask_for_pad_sequence(self, pad_seqs, pad_token_id):
        seq_num, seq_len = pad_seqs.shape
        seq_pad_mask = pad_seqs == pad_token_id
        attention_key_pad_mask = np.tile(seq_pad_mask[:, None, :], (1, seq_len, 1))
        subsequent_mask = np.tile(np.triu(np.ones((seq_len, seq_len), dtype=bool), k=1)[None, :, :], (seq_num, 1, 1))
        return subsequent_mask | attention_key_pad_mask


@dataclass
class TPPDataCollator:
    tokenizer: EventTokenizer
    padding: str = "longest"
    return_tensors: str = "pt"

    def __call__(self, features):
        return self.tokenizer.pad(features, padding=self.padding, return_tensors=self.return_tensors)


class RMTPP(nn.Module):
    def __init__(self, num_event_types, hidden_size=16, loss_integral_num_sample_per_step=10):
        super().__init__()
        self.num_event_types = num_event_types
        self.pad_token_id = num_event_types
        self.hidden_size = hidden_size
        self.loss_integral_num_sample_per_step = loss_integral_num_sample_per_step
        self.eps = torch.finfo(torch.float32).eps
        self.layer_type_emb = nn.Embedding(num_event_types + 1, hidden_size, padding_idx=self.pad_token_id)
        self.layer_temporal_emb = nn.Linear(1, hidden_size)
        self.layer_rnn = nn.RNN(input_size=hidden_size, hidden_size=hidden_size, num_layers=1, batch_first=True)
        self.hidden_to_intensity_logits = nn.Linear(hidden_size, num_event_types)
        self.b_t = nn.Parameter(torch.zeros(1, num_event_types))
        self.w_t = nn.Parameter(torch.zeros(1, num_event_types))
        nn.init.xavier_normal_(self.b_t)
        nn.init.xavier_normal_(self.w_t)

    def evolve_and_get_intentsity(self, right_hiddens_BNH, dts_BNG):
        past_influence_BNGM = self.hidden_to_intensity_logits(right_hiddens_BNH[..., None, :])
        return (past_influence_BNGM + self.w_t[None, None, :] * dts_BNG[..., None] + self.b_t[None, None, :]).clamp(max=math.log(1e5)).exp()

    def forward(self, batch):
        t_BN, dt_BN, marks_BN, _, _ = batch
        mark_emb_BNH = self.layer_type_emb(marks_BN)
        time_emb_BNH = self.layer_temporal_emb(t_BN[..., None])  # fails-here
        right_hiddens_BNH, _ = self.layer_rnn(mark_emb_BNH + time_emb_BNH)
        left_intensity = self.evolve_and_get_intentsity(right_hiddens_BNH[:, :-1, :], dt_BN[:, 1:][..., None]).squeeze(-2)
        return left_intensity, right_hiddens_BNH

    def loglike_loss(self, batch):
        ts_BN, dts_BN, marks_BN, batch_non_pad_mask, _ = batch
        left_intensity, right_hiddens_BNH = self.forward((ts_BN, dts_BN, marks_BN, None, None))
        ratios = torch.linspace(0.0, 1.0, steps=self.loss_integral_num_sample_per_step)[None, None, :]
        dts_sample = dts_BN[:, 1:, None] * ratios
        intensity_dts = self.evolve_and_get_intentsity(right_hiddens_BNH[..., :-1, :], dts_sample)
        event_ll = -F.nll_loss((left_intensity + self.eps).log().permute(0, 2, 1), target=marks_BN[:, 1:],
                               ignore_index=self.pad_token_id, reduction="none")
        total_sampled = (intensity_dts + self.eps).sum(dim=-1)
        non_event_ll = 0.5 * (total_sampled[..., 1:] + total_sampled[..., :-1]).mean(dim=-1) * dts_BN[:, 1:] * batch_non_pad_mask[:, 1:]
        num_events = torch.masked_select(event_ll, event_ll.ne(0.0)).size()[0]
        return -(event_ll - non_event_ll).sum(), num_events


# one long marked event stream (exponential gaps, 3 event types), cut into fixed 16-event windows
num_event_types, window, stride = 3, 16, 8
gaps = rng.exponential(scale=0.5, size=600)
stream_t = np.cumsum(gaps)
stream_k = rng.integers(0, num_event_types, size=600)
features = []
for start in range(0, len(stream_t) - window, stride):
    t = stream_t[start:start + window] - stream_t[start]
    dt = np.diff(t, prepend=t[0])
    features.append({"time_seqs": t.tolist(), "time_delta_seqs": dt.tolist(), "type_seqs": stream_k[start:start + window].tolist()})

tokenizer = EventTokenizer(num_event_types)
loader = DataLoader(features, batch_size=8, shuffle=True, collate_fn=TPPDataCollator(tokenizer))
model = RMTPP(num_event_types)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    total, n = 0.0, 0
    for batch in loader:
        loss, num_events = model.loglike_loss(list(batch.values()))
        opt.zero_grad()
        (loss / num_events).backward()
        opt.step()
        total, n = total + loss.item(), n + num_events
    print(f"epoch {epoch} nll/event {total / n:.4f}")
