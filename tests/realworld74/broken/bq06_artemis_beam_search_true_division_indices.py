"""An ArtEmis-style neural speaker (show-attend-tell: a small conv image encoder standing in for the ResNet, re-typed AttentiveDecoder with additive visio-linguistic attention, an LSTMCell decoder with teacher forcing, the doubly stochastic attention loss) is trained briefly on synthetic paintings and captions, then sample_captions_beam_search (re-typed) decodes one image with beam size 3; the unrolled top-k indices are split into beam and word with top_k_words / len(vocab), a true division on torch >= 1.5 that yields float beam indices, and seqs[prev_word_inds] refuses them
source: https://github.com/optas/artemis/issues/10
reported-error: artemis/neural_models/attentive_decoder.py line 593, in sample_captions_beam_search: seqs = torch.cat([seqs[prev_word_inds], next_word_inds.unsqueeze(1)], dim=1) -> IndexError: tensors used as indices must be long, byte or bool tensors (running sample_speaker.py on custom images)
outcome: IndexError: tensors used as indices must be long, int, byte or bool tensors at line 157
root-cause: line 155
expect: DG005
"""
import math
import random

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence
from torch.utils.data import DataLoader

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)


class Vocabulary:
    def __init__(self, words):
        self.idx2word = ["<pad>", "<sos>", "<eos>", "<unk>"] + words
        self.word2idx = {w: i for i, w in enumerate(self.idx2word)}
        self.pad, self.sos, self.eos, self.unk = 0, 1, 2, 3

    def __call__(self, word):
        return self.word2idx.get(word, self.unk)

    def __len__(self):
        return len(self.idx2word)


class AdditiveVisioLinguistic(nn.Module):
    def __init__(self, encoder_dim, decoder_dim, attention_dim):
        super().__init__()
        self.encoder_att = nn.Linear(encoder_dim, attention_dim)
        self.decoder_att = nn.Linear(decoder_dim, attention_dim)
        self.full_att = nn.Linear(attention_dim, 1)
        self.relu = nn.ReLU(inplace=True)
        self.softmax = nn.Softmax(dim=1)

    def forward(self, encoder_out, decoder_hidden):
        att1 = self.encoder_att(encoder_out)
        att2 = self.decoder_att(decoder_hidden)
        att = self.full_att(self.relu(att1 + att2.unsqueeze(1))).squeeze(2)
        alpha = self.softmax(att)
        return (encoder_out * alpha.unsqueeze(2)).sum(dim=1), alpha


class ConvEncoder(nn.Module):
    """Stand-in for ArtEmis's ResNet encoder: (B, 3, 32, 32) -> (B, 4, 4, encoder_dim)."""

    def __init__(self, encoder_dim=32):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
                                 nn.Conv2d(16, encoder_dim, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))

    def forward(self, x):
        return self.net(x).permute(0, 2, 3, 1)


class AttentiveDecoder(nn.Module):
    def __init__(self, word_embedding, rnn_hidden_dim, encoder_dim, attention_dim, vocab, teacher_forcing_ratio=1):
        super().__init__()
        self.vocab = vocab
        self.vocab_size = len(vocab)
        self.word_embedding = word_embedding
        self.decode_step = nn.LSTMCell(word_embedding.embedding_dim + encoder_dim, rnn_hidden_dim)
        self.attention = AdditiveVisioLinguistic(encoder_dim, rnn_hidden_dim, attention_dim)
        self.dropout = nn.Identity()
        self.init_h = nn.Linear(encoder_dim, rnn_hidden_dim)
        self.init_c = nn.Linear(encoder_dim, rnn_hidden_dim)
        self.f_beta = nn.Linear(rnn_hidden_dim, encoder_dim)
        self.sigmoid = nn.Sigmoid()
        self.next_word = nn.Linear(rnn_hidden_dim, self.vocab_size)
        self.teacher_forcing_ratio = teacher_forcing_ratio

    def init_hidden_state(self, encoder_out):
        mean_encoder_out = encoder_out.mean(dim=1)
        return self.init_h(mean_encoder_out), self.init_c(mean_encoder_out)

    def forward(self, encoder_out, captions):
        batch_size, encoder_dim = encoder_out.size(0), encoder_out.size(-1)
        encoder_out = encoder_out.view(batch_size, -1, encoder_dim)
        num_pixels = encoder_out.size(1)
        decode_lengths = torch.where(captions == self.vocab.eos)[1]
        decode_lengths, sort_ind = decode_lengths.sort(dim=0, descending=True)
        encoder_out, captions = encoder_out[sort_ind], captions[sort_ind]
        embeddings = self.word_embedding(captions)
        h, c = self.init_hidden_state(encoder_out)
        decode_lengths = decode_lengths.tolist()
        predictions = torch.zeros(batch_size, max(decode_lengths), self.vocab_size)
        alphas = torch.zeros(batch_size, max(decode_lengths), num_pixels)
        for t in range(max(decode_lengths)):
            batch_size_t = sum([l > t for l in decode_lengths])
            h = h[:batch_size_t]
            awe, alpha = self.attention(encoder_out[:batch_size_t], h)
            awe = self.sigmoid(self.f_beta(h)) * awe
            if random.random() < self.teacher_forcing_ratio or t == 0:
                decoder_lang_input = embeddings[:batch_size_t, t]
            else:
                _, top_pred = preds[:batch_size_t].topk(1)
                decoder_lang_input = self.word_embedding(top_pred.squeeze(-1).detach())
            h, c = self.decode_step(torch.cat([decoder_lang_input, awe], dim=1), (h, c[:batch_size_t]))
            preds = self.next_word(self.dropout(h))
            predictions[:batch_size_t, t] = preds
            alphas[:batch_size_t, t] = alpha
        return predictions, captions, decode_lengths, alphas, sort_ind


@torch.no_grad()
def sample_captions_beam_search(model, data_loader, beam_size, temperature=1, max_iter=500, drop_unk=True):
    model.eval()
    decoder = model.decoder
    vocab = decoder.vocab
    captions, caption_log_prob = [], []
    for batch in data_loader:
        image = batch["image"]
        k = beam_size
        encoder_out = model.encoder(image)
        enc_image_size, encoder_dim = encoder_out.size(1), encoder_out.size(3)
        encoder_out = encoder_out.view(1, -1, encoder_dim)
        num_pixels = encoder_out.size(1)
        encoder_out = encoder_out.expand(k, num_pixels, encoder_dim)
        k_prev_words = torch.LongTensor([[vocab.sos]] * k)
        seqs = k_prev_words
        top_k_scores = torch.zeros(k, 1)
        seqs_alpha = torch.ones(k, 1, enc_image_size, enc_image_size)
        complete_seqs, complete_seqs_alpha, complete_seqs_scores = [], [], []
        step = 1
        h, c = decoder.init_hidden_state(encoder_out)
        while True:
            embeddings = decoder.word_embedding(k_prev_words).squeeze(1)
            awe, alpha = decoder.attention(encoder_out, h)
            alpha = alpha.view(-1, enc_image_size, enc_image_size)
            awe = decoder.sigmoid(decoder.f_beta(h)) * awe
            h, c = decoder.decode_step(torch.cat([embeddings, awe], dim=1), (h, c))
            scores = decoder.next_word(h)
            if temperature != 1:
                scores /= temperature
            scores = F.log_softmax(scores, dim=1)
            if drop_unk:
                scores[:, vocab.unk] = -math.inf
            if step > 2:
                x, y = torch.where(k_prev_words == vocab("and"))
                scores[x, seqs[x, step - 2]] = -math.inf
            scores = top_k_scores.expand_as(scores) + scores
            if step == 1:
                top_k_scores, top_k_words = scores[0].topk(k, 0, True, True)
            else:
                top_k_scores, top_k_words = scores.view(-1).topk(k, 0, True, True)
            prev_word_inds = top_k_words / len(vocab)  # root-cause
            next_word_inds = top_k_words % len(vocab)
            seqs = torch.cat([seqs[prev_word_inds], next_word_inds.unsqueeze(1)], dim=1)  # fails-here
            seqs_alpha = torch.cat([seqs_alpha[prev_word_inds], alpha[prev_word_inds].unsqueeze(1)], dim=1)
            incomplete_inds = [ind for ind, word in enumerate(next_word_inds) if word != vocab.eos]
            complete_inds = list(set(range(len(next_word_inds))) - set(incomplete_inds))
            if len(complete_inds) > 0:
                complete_seqs.extend(seqs[complete_inds].tolist())
                complete_seqs_alpha.extend(seqs_alpha[complete_inds].tolist())
                complete_seqs_scores.extend(top_k_scores[complete_inds].tolist())
            k -= len(complete_inds)
            if k == 0:
                break
            seqs, seqs_alpha = seqs[incomplete_inds], seqs_alpha[incomplete_inds]
            h = h[prev_word_inds[incomplete_inds]]
            c = c[prev_word_inds[incomplete_inds]]
            encoder_out = encoder_out[prev_word_inds[incomplete_inds]]
            top_k_scores = top_k_scores[incomplete_inds].unsqueeze(1)
            k_prev_words = next_word_inds[incomplete_inds].unsqueeze(1)
            if step > max_iter:
                break
            step += 1
        s_idx = np.argsort(complete_seqs_scores)[::-1]
        captions.append([complete_seqs[i] for i in s_idx])
        caption_log_prob.append([complete_seqs_scores[i] for i in s_idx])
    return captions, caption_log_prob


words = "the painting makes me feel calm sad happy and warm colors dark sky sea".split()
vocab = Vocabulary(words)
max_len = 10


def make_example(i):
    img = torch.rand(3, 32, 32) * (0.5 + 0.5 * (i % 2))
    n = random.randint(3, max_len - 2)
    toks = [vocab.sos] + [vocab(random.choice(words)) for _ in range(n)] + [vocab.eos]
    toks += [vocab.pad] * (max_len + 2 - len(toks))
    return {"image": img, "tokens": torch.LongTensor(toks)}


train_data = [make_example(i) for i in range(64)]
model = nn.ModuleDict({"encoder": ConvEncoder(32),
                       "decoder": AttentiveDecoder(nn.Embedding(len(vocab), 24), 48, 32, 32, vocab)})
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
criterion = nn.CrossEntropyLoss()
model.train()
for epoch in range(2):
    for batch in DataLoader(train_data, batch_size=16, shuffle=True):
        logits, caps_sorted, decode_lengths, alphas, sort_ind = model.decoder(model.encoder(batch["image"]), batch["tokens"])
        targets = caps_sorted[:, 1:]
        logits = pack_padded_sequence(logits, decode_lengths, batch_first=True)
        targets = pack_padded_sequence(targets, decode_lengths, batch_first=True)
        ent_loss = criterion(logits.data, targets.data)
        total_energy = torch.from_numpy(np.array(decode_lengths)) / alphas.shape[-1]
        total_energy.unsqueeze_(-1)
        total_loss = ent_loss + 1.0 * ((total_energy - alphas.sum(dim=1)) ** 2).mean()
        optimizer.zero_grad()
        total_loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {total_loss.item():.4f}")

test_loader = DataLoader([{"image": torch.rand(3, 32, 32)}], batch_size=1)
captions, log_probs = sample_captions_beam_search(model, test_loader, beam_size=3)
best = captions[0][0]
print("caption:", " ".join(vocab.idx2word[t] for t in best), f"(log-prob {log_probs[0][0]:.3f})")
