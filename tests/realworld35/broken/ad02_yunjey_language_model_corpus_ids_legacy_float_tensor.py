"""RNN language model on a Penn-Treebank-style corpus (yunjey/pytorch-tutorial 02-intermediate/language_model: data_utils.Corpus tokenizes the file into one id tensor, RNNLM = Embedding + LSTM + Linear, truncated backpropagation): the variant's Corpus.get_data allocates the id buffer with the legacy torch.Tensor(tokens) instead of torch.LongTensor(tokens), so the word ids are float32 and the embedding lookup refuses them
source: https://github.com/yunjey/pytorch-tutorial/blob/032a934b488b7625f69af14318c2b1a7d3c4b008/tutorials/02-intermediate/language_model/main.py
reported-error: (none filed; data_utils.py builds ids = torch.LongTensor(tokens); the variant's float id buffer fails at the first embedding lookup)
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding) at line 103
root-cause: line 49
expect: DG005
"""
import os
import tempfile

import torch
import torch.nn as nn
import numpy as np
from torch.nn.utils import clip_grad_norm_


# ---- data_utils.py
class Dictionary(object):
    def __init__(self):
        self.word2idx = {}
        self.idx2word = {}
        self.idx = 0

    def add_word(self, word):
        if not word in self.word2idx:
            self.word2idx[word] = self.idx
            self.idx2word[self.idx] = word
            self.idx += 1

    def __len__(self):
        return len(self.word2idx)


class Corpus(object):
    def __init__(self, path='./data'):
        self.dictionary = Dictionary()

    def get_data(self, path, batch_size=20):
        # Add words to the dictionary
        with open(path, 'r') as f:
            tokens = 0
            for line in f:
                words = line.split() + ['<eos>']
                tokens += len(words)
                for word in words:
                    self.dictionary.add_word(word)

        # Tokenize the file content
        ids = torch.Tensor(tokens)  # root-cause
        token = 0
        with open(path, 'r') as f:
            for line in f:
                words = line.split() + ['<eos>']
                for word in words:
                    ids[token] = self.dictionary.word2idx[word]
                    token += 1
        num_batches = ids.size(0) // batch_size
        ids = ids[:num_batches*batch_size]
        return ids.view(batch_size, -1)


# ---- synthetic stand-in for data/train.txt (Penn Treebank)
def write_corpus(path, n_lines=300, seed=0):
    rng = np.random.RandomState(seed)
    vocab = ['the', 'market', 'shares', 'rose', 'fell', 'company', 'said', 'n', 'year', 'million', 'of', 'in', 'a', '<unk>']
    with open(path, 'w') as f:
        for _ in range(n_lines):
            f.write(' '.join(rng.choice(vocab, size=rng.randint(5, 15))) + '\n')


# ---- main.py
# Device configuration
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
workdir = tempfile.mkdtemp()
write_corpus(os.path.join(workdir, 'train.txt'))

# Hyper-parameters
embed_size = 32
hidden_size = 64
num_layers = 1
num_epochs = 1
num_samples = 50     # number of words to be sampled
batch_size = 20
seq_length = 30
learning_rate = 0.002

# Load "Penn Treebank" dataset
corpus = Corpus()
ids = corpus.get_data(os.path.join(workdir, 'train.txt'), batch_size)
vocab_size = len(corpus.dictionary)
num_batches = ids.size(1) // seq_length


# RNN based language model
class RNNLM(nn.Module):
    def __init__(self, vocab_size, embed_size, hidden_size, num_layers):
        super(RNNLM, self).__init__()
        self.embed = nn.Embedding(vocab_size, embed_size)
        self.lstm = nn.LSTM(embed_size, hidden_size, num_layers, batch_first=True)
        self.linear = nn.Linear(hidden_size, vocab_size)

    def forward(self, x, h):
        x = self.embed(x)  # fails-here
        out, (h, c) = self.lstm(x, h)
        out = out.reshape(out.size(0)*out.size(1), out.size(2))
        out = self.linear(out)
        return out, (h, c)


model = RNNLM(vocab_size, embed_size, hidden_size, num_layers).to(device)

# Loss and optimizer
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)

# Truncated backpropagation
def detach(states):
    return [state.detach() for state in states]


# Train the model
for epoch in range(num_epochs):
    states = (torch.zeros(num_layers, batch_size, hidden_size).to(device),
              torch.zeros(num_layers, batch_size, hidden_size).to(device))

    for i in range(0, ids.size(1) - seq_length, seq_length):
        inputs = ids[:, i:i+seq_length].to(device)
        targets = ids[:, (i+1):(i+1)+seq_length].to(device)

        states = detach(states)
        outputs, states = model(inputs, states)
        loss = criterion(outputs, targets.reshape(-1))

        optimizer.zero_grad()
        loss.backward()
        clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()

        step = (i+1) // seq_length
        if step % 5 == 0:
            print('Epoch [{}/{}], Step[{}/{}], Loss: {:.4f}, Perplexity: {:5.2f}'
                  .format(epoch+1, num_epochs, step, num_batches, loss.item(), np.exp(loss.item())))

# Test the model: sample words, then save the model checkpoint
with torch.no_grad():
    with open(os.path.join(workdir, 'sample.txt'), 'w') as f:
        state = (torch.zeros(num_layers, 1, hidden_size).to(device),
                 torch.zeros(num_layers, 1, hidden_size).to(device))
        prob = torch.ones(vocab_size)
        input = torch.multinomial(prob, num_samples=1).unsqueeze(1).to(device)
        for i in range(num_samples):
            output, state = model(input, state)
            prob = output.exp()
            word_id = torch.multinomial(prob, num_samples=1).item()
            input.fill_(word_id)
            word = corpus.dictionary.idx2word[word_id]
            f.write('\n' if word == '<eos>' else word + ' ')
        print('Sampled [{}/{}] words and save to {}'.format(num_samples, num_samples, 'sample.txt'))
torch.save(model.state_dict(), os.path.join(workdir, 'model.ckpt'))
