"""Neural machine translation with dreamgonfly/transformer-pytorch (models.py's encoder-decoder Transformer, beam.py's Beam, predictors.py's Predictor.predict_one used by predict.py on a trained checkpoint), transformer-pytorch issue #2: on a recent PyTorch Beam.advance computes the back-pointers with prev_k = top_score_ids / vocabulary_size, which is true division and gives a float tensor, and index_select of the decoder attention with that float index fails on the first decoding step
source: https://github.com/dreamgonfly/transformer-pytorch/issues/2
reported-error: RuntimeError: index_select(): Expected dtype int64 for index (beam.py line 67, prev_attention = current_attention.index_select(dim=0, index=prev_k); the reporter's fix: prev_k = top_score_ids // vocabulary_size)
outcome: RuntimeError: index_select(): Expected dtype int32 or int64 for index at line 142
root-cause: line 138
expect: DG005
"""
import os
import tempfile

import torch
import torch.nn as nn

PAD_INDEX = 0


# ---- models.py (reduced: one encoder and one decoder layer; the decoder keeps the last memory attention as
# predictors.py reads it, and a DecoderState that reorders its cached inputs by the beam back-pointers)
class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, heads):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, heads, batch_first=True)
        self.attention = None

    def forward(self, query, key, value, key_padding_mask=None):
        out, weights = self.attn(query, key, value, key_padding_mask=key_padding_mask)
        self.attention = weights.detach()  # (batch, target_len, source_len)
        return out


class Sublayer(nn.Module):
    def __init__(self, sublayer, d_model):
        super().__init__()
        self.sublayer = sublayer
        self.norm = nn.LayerNorm(d_model)

    def forward(self, x, *args, **kwargs):
        return self.norm(x + self.sublayer(x, *args, **kwargs))


class DecoderLayer(nn.Module):
    def __init__(self, d_model, heads):
        super().__init__()
        self.self_attention_layer = Sublayer(MultiHeadAttention(d_model, heads), d_model)
        self.memory_attention_layer = Sublayer(MultiHeadAttention(d_model, heads), d_model)
        self.ff = Sublayer(lambda x: self._ff(x), d_model)
        self._ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.ReLU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, memory, memory_mask):
        x = self.self_attention_layer(x, x, x)
        x = self.memory_attention_layer(x, memory, memory, key_padding_mask=memory_mask)
        return self.ff(x)


class DecoderState:
    def __init__(self):
        self.previous_inputs = None

    def update_state(self, new_inputs):
        if self.previous_inputs is None:
            self.previous_inputs = new_inputs
        else:
            self.previous_inputs = torch.cat([self.previous_inputs, new_inputs], dim=1)

    def beam_update(self, positions):
        self.previous_inputs = self.previous_inputs.index_select(0, positions)


class TransformerDecoder(nn.Module):
    def __init__(self, vocabulary_size, d_model, heads):
        super().__init__()
        self.embedding = nn.Embedding(vocabulary_size, d_model, padding_idx=PAD_INDEX)
        self.decoder_layers = nn.ModuleList([DecoderLayer(d_model, heads)])
        self.generator = nn.Linear(d_model, vocabulary_size)

    def init_decoder_state(self):
        return DecoderState()

    def forward(self, inputs, memory, memory_mask, state=None):
        state.update_state(inputs)
        x = self.embedding(state.previous_inputs)
        for layer in self.decoder_layers:
            x = layer(x, memory, memory_mask)
        log_probs = torch.log_softmax(self.generator(x[:, -1:, :]), dim=-1)
        return log_probs, state


class TransformerEncoder(nn.Module):
    def __init__(self, vocabulary_size, d_model, heads):
        super().__init__()
        self.embedding = nn.Embedding(vocabulary_size, d_model, padding_idx=PAD_INDEX)
        self.layer = nn.TransformerEncoderLayer(d_model, heads, 4 * d_model, batch_first=True)

    def forward(self, sources, mask):
        return self.layer(self.embedding(sources), src_key_padding_mask=mask)


class Transformer(nn.Module):
    def __init__(self, source_vocabulary_size, target_vocabulary_size, d_model=32, heads=4):
        super().__init__()
        self.encoder = TransformerEncoder(source_vocabulary_size, d_model, heads)
        self.decoder = TransformerDecoder(target_vocabulary_size, d_model, heads)

    @staticmethod
    def pad_masking(x, target_len):
        return x == PAD_INDEX  # (batch, source_len) key padding mask


# ---- beam.py
class Beam:
    def __init__(self, beam_size=8, min_length=0, n_top=1, ranker=None, start_token_id=2, end_token_id=3):
        self.beam_size = beam_size
        self.min_length = min_length
        self.end_token_id = end_token_id
        self.top_sentence_ended = False
        self.prev_ks = []
        self.next_ys = [torch.LongTensor(beam_size).fill_(start_token_id)]
        self.current_scores = torch.FloatTensor(beam_size).zero_()
        self.all_scores = []
        self.all_attentions = []
        self.finished = []
        self.n_top = n_top

    def advance(self, next_log_probs, current_attention):
        vocabulary_size = next_log_probs.size(1)
        if len(self.prev_ks) > 0:
            beam_scores = next_log_probs + self.current_scores.unsqueeze(1).expand_as(next_log_probs)
            last_y = self.next_ys[-1]
            for beam_index in range(last_y.size(0)):
                if last_y[beam_index] == self.end_token_id:
                    beam_scores[beam_index] = -1e10
        else:
            beam_scores = next_log_probs[0]
        flat_beam_scores = beam_scores.view(-1)
        top_scores, top_score_ids = flat_beam_scores.topk(k=self.beam_size, dim=0, largest=True, sorted=True)
        self.current_scores = top_scores
        self.all_scores.append(self.current_scores)
        prev_k = top_score_ids / vocabulary_size  # root-cause
        next_y = top_score_ids - prev_k * vocabulary_size
        self.prev_ks.append(prev_k)
        self.next_ys.append(next_y)
        prev_attention = current_attention.index_select(dim=0, index=prev_k)  # fails-here
        self.all_attentions.append(prev_attention)
        for beam_index, last_token_id in enumerate(next_y):
            if last_token_id == self.end_token_id:
                self.finished.append((self.current_scores[beam_index], len(self.next_ys) - 1, beam_index))
        if next_y[0] == self.end_token_id:
            self.top_sentence_ended = True

    def get_current_state(self):
        return self.next_ys[-1]

    def get_current_origin(self):
        return self.prev_ks[-1]

    def done(self):
        return self.top_sentence_ended and len(self.finished) >= self.n_top

    def get_hypothesis(self, timestep, k):
        hypothesis = []
        for j in range(len(self.prev_ks[:timestep]) - 1, -1, -1):
            hypothesis.append(self.next_ys[j + 1][k])
            k = self.prev_ks[j][k]
        return hypothesis[::-1]

    def sort_finished(self, minimum=None):
        if minimum is not None:
            i = 0
            while len(self.finished) < minimum:
                self.finished.append((self.current_scores[i], len(self.next_ys) - 1, i))
                i += 1
        self.finished = sorted(self.finished, key=lambda a: a[0], reverse=True)
        return [sc for sc, _, _ in self.finished], [(t, k) for _, t, k in self.finished]


# ---- predictors.py
class Predictor:
    def __init__(self, preprocess, postprocess, model, checkpoint_filepath, max_length=10, beam_size=4):
        self.preprocess = preprocess
        self.postprocess = postprocess
        self.model = model
        self.max_length = max_length
        self.beam_size = beam_size
        self.model.eval()
        checkpoint = torch.load(checkpoint_filepath, map_location='cpu')
        self.model.load_state_dict(checkpoint)

    @torch.no_grad()
    def predict_one(self, source, num_candidates=3):
        source_preprocessed = self.preprocess(source)
        source_tensor = torch.tensor(source_preprocessed).unsqueeze(0)
        sources_mask = self.model.pad_masking(source_tensor, source_tensor.size(1))
        memory_mask = self.model.pad_masking(source_tensor, 1)
        memory = self.model.encoder(source_tensor, sources_mask)
        decoder_state = self.model.decoder.init_decoder_state()
        memory_beam = memory.detach().repeat(self.beam_size, 1, 1)
        memory_mask_beam = memory_mask.repeat(self.beam_size, 1)
        beam = Beam(beam_size=self.beam_size, min_length=0, n_top=num_candidates, ranker=None)
        for _ in range(self.max_length):
            new_inputs = beam.get_current_state().unsqueeze(1)
            decoder_outputs, decoder_state = self.model.decoder(new_inputs, memory_beam, memory_mask_beam,
                                                                state=decoder_state)
            attention = self.model.decoder.decoder_layers[-1].memory_attention_layer.sublayer.attention
            beam.advance(decoder_outputs.squeeze(1), attention)
            decoder_state.beam_update(beam.get_current_origin())
            if beam.done():
                break
        scores, ks = beam.sort_finished(minimum=num_candidates)
        hypothesises = [beam.get_hypothesis(times, k) for times, k in ks[:num_candidates]]
        return [self.postprocess([token.item() for token in h]) for h in hypothesises]


# ---- predict.py (the user's run: a checkpoint from train.py, a toy source/target vocabulary)
source_vocab = ['<PAD>', '<UNK>', '<StartSent>', '<EndSent>'] + 'ich bin ein berliner du bist hier'.split()
target_vocab = ['<PAD>', '<UNK>', '<StartSent>', '<EndSent>'] + 'i am a berliner you are here'.split()


def preprocess(sentence):
    return [source_vocab.index(w) if w in source_vocab else 1 for w in sentence.split()]


def postprocess(token_ids):
    return ' '.join(target_vocab[t] for t in token_ids if t > 3)


def main():
    torch.manual_seed(0)
    checkpoint_filepath = os.path.join(tempfile.mkdtemp(), 'epoch=010-val_loss=1.23.pth')
    torch.save(Transformer(len(source_vocab), len(target_vocab)).state_dict(), checkpoint_filepath)
    model = Transformer(len(source_vocab), len(target_vocab))
    predictor = Predictor(preprocess, postprocess, model, checkpoint_filepath, max_length=8, beam_size=4)
    for candidate in predictor.predict_one('ich bin ein berliner', num_candidates=3):
        print(candidate)


if __name__ == "__main__":
    main()
