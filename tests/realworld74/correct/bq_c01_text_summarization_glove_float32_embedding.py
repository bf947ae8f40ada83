"""The Rhuax/text-summarization-style GRU encoder / attention-decoder summariser of bq01 (Rhuax/text-summarization #1) with the GloVe matrix converted to float32 where filter_embedding turns it into a tensor, so both nn.Embedding weights are float32 and the encoder GRU, the decoder attention and teacher-forced training run; the float64 NumPy matrix built from parsed floats, torch.from_numpy on it, and the decoder's .double()/.float() round trips around its bmm are kept
source: https://github.com/Rhuax/text-summarization/issues/1
reported-error: (none filed; the fixed situation of bq01)
outcome: ok
root-cause: -
expect: none
"""
import random
import tempfile

import numpy as np
import torch
import torch.nn.functional as F
from torch import optim
from torch.nn import GRU, Dropout, Embedding, Linear, Module, NLLLoss, Parameter

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
SOS_token = 0
EOS_token = 1
MAX_LENGTH = 20
teacher_forcing_ratio = 0.5


class Lang:
    def __init__(self, name):
        self.name = name
        self.word2index = {}
        self.index2word = {0: "SOS", 1: "EOS"}
        self.n_words = 2

    def addSentence(self, sentence):
        for word in sentence.split(" "):
            if word not in self.word2index:
                self.word2index[word] = self.n_words
                self.index2word[self.n_words] = word
                self.n_words += 1

    def getWordFromId(self, i):
        return self.index2word[i]


def get_embeddings(path):
    embs = {}
    for line in open(path).readlines():
        parts = line.strip().split()
        embs[parts[0]] = [float(x) for x in parts[1:]]
    return embs


def filter_embedding(lang, filename):
    glove_embeddings = get_embeddings(filename)
    embed_len = len(glove_embeddings["the"])
    embeddings = np.zeros((lang.n_words, embed_len))
    for i in range(lang.n_words):
        word = lang.getWordFromId(i)
        if word in glove_embeddings:
            embeddings[i] = glove_embeddings[word]
        else:
            embeddings[i] = np.random.rand(embed_len)
    # GloVe rows are parsed as Python floats into a float64 array; the weight matrix the model gets is float32
    return torch.from_numpy(embeddings).float()


class EncoderRNN(Module):
    def __init__(self, input_size, hidden_size, pre_trained_embedding):
        super().__init__()
        self.hidden_size = hidden_size
        self.embedding = Embedding(input_size, pre_trained_embedding.size(1))
        self.embedding.weight = Parameter(pre_trained_embedding)
        self.gru = GRU(pre_trained_embedding.size(1), hidden_size)

    def forward(self, input, hidden):
        embedded = self.embedding(input)
        embedded = embedded.view(1, 1, -1)
        output = embedded
        output, hidden = self.gru(output, hidden)
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, 1, self.hidden_size)


class AttnDecoderRNN(Module):
    def __init__(self, hidden_size, output_size, embeddings, dropout_p=0.1, max_length=MAX_LENGTH):
        super().__init__()
        self.hidden_size = hidden_size
        self.embedding_size = embeddings.size(1)
        self.output_size = output_size
        self.max_length = max_length
        self.embedding = Embedding(self.output_size, self.embedding_size)
        self.embedding.weight = Parameter(embeddings)
        self.attn = Linear(self.hidden_size + self.embedding_size, self.max_length)
        self.attn_combine = Linear(self.hidden_size + self.embedding_size, self.hidden_size)
        self.dropout = Dropout(dropout_p)
        self.gru = GRU(self.hidden_size, self.hidden_size)
        self.out = Linear(self.hidden_size, self.output_size)

    def forward(self, input, hidden, encoder_outputs):
        embedded = self.dropout(self.embedding(input).view(1, 1, -1))
        cat_temp = torch.cat((embedded[0], hidden[0].double()), 1)
        attn_weights = F.softmax(self.attn(cat_temp.float()), dim=1)
        attn_applied = torch.bmm(attn_weights.unsqueeze(0).double(), encoder_outputs.unsqueeze(0).double()).float()
        output = torch.cat((embedded[0].float(), attn_applied[0]), 1)
        output = F.relu(self.attn_combine(output).float().unsqueeze(0))
        output, hidden = self.gru(output, hidden)
        return F.log_softmax(self.out(output[0]), dim=1), hidden, attn_weights


def variableFromSentence(lang, sentence):
    indexes = [lang.word2index[w] for w in sentence.split(" ")] + [EOS_token]
    return torch.LongTensor(indexes).view(-1, 1)


def train(input_variable, target_variable, encoder, decoder, encoder_optimizer, decoder_optimizer, criterion):
    encoder_hidden = encoder.initHidden()
    encoder_optimizer.zero_grad()
    decoder_optimizer.zero_grad()
    encoder_outputs = torch.zeros(MAX_LENGTH, encoder.hidden_size)
    loss = 0
    for ei in range(input_variable.size(0)):
        encoder_output, encoder_hidden = encoder(input_variable[ei], encoder_hidden)
        encoder_outputs[ei] = encoder_output[0][0]
    decoder_input = torch.LongTensor([SOS_token])
    decoder_hidden = encoder_hidden
    use_teacher_forcing = random.random() < teacher_forcing_ratio
    for di in range(target_variable.size(0)):
        decoder_output, decoder_hidden, _ = decoder(decoder_input, decoder_hidden, encoder_outputs)
        loss += criterion(decoder_output, target_variable[di])
        if use_teacher_forcing:
            decoder_input = target_variable[di]
        else:
            topv, topi = decoder_output.data.topk(1)
            decoder_input = topi[0].detach()
            if topi.item() == EOS_token:
                break
    loss.backward()
    encoder_optimizer.step()
    decoder_optimizer.step()
    return loss.item() / target_variable.size(0)


words = ["the", "market", "stocks", "rose", "fell", "bank", "rates", "growth", "report", "today", "investors", "sharply"]
pairs = []
for _ in range(12):
    art = " ".join(random.choice(words) for _ in range(random.randint(8, 14)))
    summ = " ".join(art.split(" ")[:4])
    pairs.append([art, summ])
lang = Lang("english")
for a, s in pairs:
    lang.addSentence(a)
    lang.addSentence(s)

with tempfile.TemporaryDirectory() as tmp:
    glove = f"{tmp}/glove.6B.50d.txt"
    with open(glove, "w") as f:
        for w in words[:-2]:
            f.write(w + " " + " ".join(f"{v:.5f}" for v in np.random.randn(50)) + "\n")
    filtered_embeddings = filter_embedding(lang, glove)

hidden_size = 64
encoder1 = EncoderRNN(lang.n_words, hidden_size, filtered_embeddings)
attn_decoder1 = AttnDecoderRNN(hidden_size, lang.n_words, filtered_embeddings, dropout_p=0.1)
enc_opt = optim.SGD(encoder1.parameters(), lr=0.01)
dec_opt = optim.SGD(attn_decoder1.parameters(), lr=0.01)
criterion = NLLLoss()
for it in range(1, 8):
    a, s = random.choice(pairs)
    loss = train(variableFromSentence(lang, a), variableFromSentence(lang, s), encoder1, attn_decoder1, enc_opt, dec_opt, criterion)
    print(f"iter {it} loss {loss:.4f}")
