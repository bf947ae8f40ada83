"""Captioning beam search that recovers the source beam with torch.div(selected_idx, vocab, rounding_mode='floor') (the RSTNet fix for newer PyTorch), which keeps the int64 dtype, so torch.gather gets a Long index
source: https://github.com/zhangxuying1004/RSTNet/issues/29
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- models/captioner.py
class TinyCaptioner(nn.Module):
    def __init__(self, vocab_size=50, d_model=32, feat_dim=64):
        super().__init__()
        self.vocab_size = vocab_size
        self.visual = nn.Linear(feat_dim, d_model)
        self.word_emb = nn.Embedding(vocab_size, d_model)
        self.gru = nn.GRUCell(d_model, d_model)
        self.out = nn.Linear(d_model, vocab_size)

    def init_state(self, visual_feats):
        return torch.tanh(self.visual(visual_feats.mean(1)))

    def step(self, word, state):
        state = self.gru(self.word_emb(word), state)
        return F.log_softmax(self.out(state), dim=-1), state


# ---- models/beam_search/beam_search.py
class BeamSearch:
    def __init__(self, model, max_len, eos_idx, beam_size):
        self.model, self.max_len, self.eos_idx, self.beam_size = model, max_len, eos_idx, beam_size

    def select(self, candidate_logprob):
        b = candidate_logprob.shape[0]
        selected_logprob, selected_idx = torch.sort(candidate_logprob.view(b, -1), -1, descending=True)
        return selected_idx[:, : self.beam_size], selected_logprob[:, : self.beam_size]

    def apply(self, visual_feats, bos_idx=1):
        b = visual_feats.shape[0]
        vocab = self.model.vocab_size
        state = self.model.init_state(visual_feats).repeat_interleave(self.beam_size, 0)
        words = torch.full((b * self.beam_size,), bos_idx, dtype=torch.long)
        seq_logprob = torch.zeros(b, self.beam_size, 1)
        seq_logprob[:, 1:] = -1e4
        outputs = []
        for t in range(self.max_len):
            word_logprob, state = self.model.step(words, state)
            candidate_logprob = seq_logprob + word_logprob.view(b, self.beam_size, vocab)
            selected_idx, selected_logprob = self.select(candidate_logprob)
            selected_beam = torch.div(selected_idx, vocab, rounding_mode="floor")
            selected_words = selected_idx - selected_beam * vocab
            seq_logprob = selected_logprob.unsqueeze(-1)
            beam_index = selected_beam.unsqueeze(-1).expand(b, self.beam_size, state.shape[-1])
            state = torch.gather(state.view(b, self.beam_size, -1), 1, beam_index).view(b * self.beam_size, -1)
            outputs = [torch.gather(o, 1, selected_beam) for o in outputs]
            outputs.append(selected_words.long())
            words = selected_words.view(-1).long()
        return torch.stack(outputs, -1), seq_logprob


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyCaptioner().eval()
    regions = torch.randn(2, 10, 64)
    with torch.no_grad():
        captions, logprobs = BeamSearch(model, max_len=8, eos_idx=2, beam_size=3).apply(regions)
    print("best caption ids:", captions[:, 0].tolist())
