"""Chinese named-entity recognition with a BiLSTM-CRF (buppt/ChineseNER, pytorch/BiLSTM_CRF.py and pytorch/train.py, the PyTorch tutorial model trained sentence by sentence on the Boson data pickled by data/boson/data_util.py), ChineseNER issue #17: to train on the GPU the user moves the model and each sentence to CUDA, but BiLSTM_CRF.init_hidden(), called at the start of every _get_lstm_features, creates the (h0, c0) pair with torch.randn(...) on the CPU, so the LSTM gets CUDA embeddings and a CPU hidden state
source: https://github.com/buppt/ChineseNER/issues/17
reported-error: training pytorch/train.py on the GPU (model.cuda(), sentence and tags moved to CUDA) fails inside _get_lstm_features at self.lstm(embeds, self.hidden): RuntimeError: Input and hidden tensors are not at the same device, found input tensor at cuda:0 and hidden tensor at cpu
outcome: cuda-only: RuntimeError: Input and hidden tensors are not at the same device, found input tensor at cuda:0 and hidden tensor at cpu (not run on a GPU for this set: no device machine was lent to this task) at line 93; on CPU: ok
root-cause: line 67
expect: DG009
"""
import os
import pickle
import tempfile

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(1)
START_TAG = "<START>"
STOP_TAG = "<STOP>"


# ---- pytorch/BiLSTM_CRF.py
def argmax(vec):
    # return the argmax as a python int
    _, idx = torch.max(vec, 1)
    return idx.item()


# Compute log sum exp in a numerically stable way for the forward algorithm
def log_sum_exp(vec):
    max_score = vec[0, argmax(vec)]
    max_score_broadcast = max_score.view(1, -1).expand(1, vec.size()[1])
    return max_score + torch.log(torch.sum(torch.exp(vec - max_score_broadcast)))


class BiLSTM_CRF(nn.Module):

    def __init__(self, vocab_size, tag_to_ix, embedding_dim, hidden_dim):
        super(BiLSTM_CRF, self).__init__()
        self.embedding_dim = embedding_dim
        self.hidden_dim = hidden_dim
        self.vocab_size = vocab_size
        self.tag_to_ix = tag_to_ix
        self.tagset_size = len(tag_to_ix)

        self.word_embeds = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim // 2, num_layers=1, bidirectional=True)

        # Maps the output of the LSTM into tag space.
        self.hidden2tag = nn.Linear(hidden_dim, self.tagset_size)

        # Matrix of transition parameters.  Entry i,j is the score of
        # transitioning *to* i *from* j.
        self.transitions = nn.Parameter(torch.randn(self.tagset_size, self.tagset_size))

        # These two statements enforce the constraint that we never transfer
        # to the start tag and we never transfer from the stop tag
        self.transitions.data[tag_to_ix[START_TAG], :] = -10000
        self.transitions.data[:, tag_to_ix[STOP_TAG]] = -10000

        self.hidden = self.init_hidden()

    def init_hidden(self):
        return (torch.randn(2, 1, self.hidden_dim // 2), torch.randn(2, 1, self.hidden_dim // 2))  # root-cause

    def _forward_alg(self, feats):
        # Do the forward algorithm to compute the partition function
        init_alphas = torch.full((1, self.tagset_size), -10000.)
        # START_TAG has all of the score.
        init_alphas[0][self.tag_to_ix[START_TAG]] = 0.

        forward_var = init_alphas

        # Iterate through the sentence
        for feat in feats:
            alphas_t = []  # The forward tensors at this timestep
            for next_tag in range(self.tagset_size):
                emit_score = feat[next_tag].view(1, -1).expand(1, self.tagset_size)
                trans_score = self.transitions[next_tag].view(1, -1)
                next_tag_var = forward_var + trans_score + emit_score
                alphas_t.append(log_sum_exp(next_tag_var).view(1))
            forward_var = torch.cat(alphas_t).view(1, -1)
        terminal_var = forward_var + self.transitions[self.tag_to_ix[STOP_TAG]]
        alpha = log_sum_exp(terminal_var)
        return alpha

    def _get_lstm_features(self, sentence):
        self.hidden = self.init_hidden()
        embeds = self.word_embeds(sentence).view(len(sentence), 1, -1)
        lstm_out, self.hidden = self.lstm(embeds, self.hidden)  # fails-here
        lstm_out = lstm_out.view(len(sentence), self.hidden_dim)
        lstm_feats = self.hidden2tag(lstm_out)
        return lstm_feats

    def _score_sentence(self, feats, tags):
        # Gives the score of a provided tag sequence
        score = torch.zeros(1)
        tags = torch.cat([torch.tensor([self.tag_to_ix[START_TAG]], dtype=torch.long), tags])
        for i, feat in enumerate(feats):
            score = score + self.transitions[tags[i + 1], tags[i]] + feat[tags[i + 1]]
        score = score + self.transitions[self.tag_to_ix[STOP_TAG], tags[-1]]
        return score

    def _viterbi_decode(self, feats):
        backpointers = []

        # Initialize the viterbi variables in log space
        init_vvars = torch.full((1, self.tagset_size), -10000.)
        init_vvars[0][self.tag_to_ix[START_TAG]] = 0

        # forward_var at step i holds the viterbi variables for step i-1
        forward_var = init_vvars
        for feat in feats:
            bptrs_t = []  # holds the backpointers for this step
            viterbivars_t = []  # holds the viterbi variables for this step

            for next_tag in range(self.tagset_size):
                next_tag_var = forward_var + self.transitions[next_tag]
                best_tag_id = argmax(next_tag_var)
                bptrs_t.append(best_tag_id)
                viterbivars_t.append(next_tag_var[0][best_tag_id].view(1))
            forward_var = (torch.cat(viterbivars_t) + feat).view(1, -1)
            backpointers.append(bptrs_t)

        # Transition to STOP_TAG
        terminal_var = forward_var + self.transitions[self.tag_to_ix[STOP_TAG]]
        best_tag_id = argmax(terminal_var)
        path_score = terminal_var[0][best_tag_id]

        # Follow the back pointers to decode the best path.
        best_path = [best_tag_id]
        for bptrs_t in reversed(backpointers):
            best_tag_id = bptrs_t[best_tag_id]
            best_path.append(best_tag_id)
        # Pop off the start tag (we dont want to return that to the caller)
        start = best_path.pop()
        assert start == self.tag_to_ix[START_TAG]  # Sanity check
        best_path.reverse()
        return path_score, best_path

    def neg_log_likelihood(self, sentence, tags):
        feats = self._get_lstm_features(sentence)
        forward_score = self._forward_alg(feats)
        gold_score = self._score_sentence(feats, tags)
        return forward_score - gold_score

    def forward(self, sentence):  # dont confuse this with _forward_alg above.
        # Get the emission scores from the BiLSTM
        lstm_feats = self._get_lstm_features(sentence)

        # Find the best path, given the features.
        score, tag_seq = self._viterbi_decode(lstm_feats)
        return score, tag_seq


# ---- pytorch/resultCal.py
def calculate(x, y, id2word, id2tag, res=[]):
    entity = []
    for j in range(len(x)):
        if x[j] == 0 or y[j] == 0:
            continue
        if id2tag[y[j]][0] == "B":
            entity = [id2word[x[j]] + "/" + id2tag[y[j]]]
        elif id2tag[y[j]][0] == "M" and len(entity) != 0 and entity[-1].split("/")[1][1:] == id2tag[y[j]][1:]:
            entity.append(id2word[x[j]] + "/" + id2tag[y[j]])
        elif id2tag[y[j]][0] == "E" and len(entity) != 0 and entity[-1].split("/")[1][1:] == id2tag[y[j]][1:]:
            entity.append(id2word[x[j]] + "/" + id2tag[y[j]])
            entity.append(str(j))
            res.append(entity)
            entity = []
        else:
            entity = []
    return res


# ---- data/boson/data_util.py (data2pkl on a synthetic wordtagsplit.txt; sentences padded to max_len)
def make_wordtagsplit(path, n_sentences=36, seed=0):
    rng = np.random.default_rng(seed)
    people = ["张三丰", "李小龙", "王菲", "刘德华"]
    places = ["北京市", "上海", "广州塔", "杭州西湖"]
    fillers = list("我们今天去了看到一个很好的地方和朋友说")
    lines = []
    for _ in range(n_sentences):
        toks = []
        for _ in range(int(rng.integers(2, 5))):
            toks.append(("O", str(rng.choice(fillers))))
        for kind, names in (("person_name", people), ("location", places)):
            name = str(rng.choice(names))
            for k, ch in enumerate(name):
                tag = "B_" if k == 0 else ("E_" if k == len(name) - 1 else "M_")
                toks.append((tag + kind, ch))
            for _ in range(int(rng.integers(1, 3))):
                toks.append(("O", str(rng.choice(fillers))))
        lines.append(" ".join("{}/{}".format(ch, tag) for tag, ch in toks))
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def data2pkl(src, out, max_len=16):
    datas, labels, tags = [], [], set()
    with open(src, encoding="utf-8") as input_data:
        for line in input_data.readlines():
            linedata, linelabel = [], []
            for word in line.split():
                word = word.split("/")
                linedata.append(word[0])
                linelabel.append(word[1])
                tags.add(word[1])
            datas.append(linedata)
            labels.append(linelabel)
    all_words = [w for line in datas for w in line]
    sr_allwords = pd.Series(all_words).value_counts()
    set_words = sr_allwords.index
    set_ids = range(1, len(set_words) + 1)
    tags = ["O"] + sorted(t for t in tags if t != "O")
    tag_ids = range(len(tags))
    word2id = pd.Series(set_ids, index=set_words)
    id2word = pd.Series(set_words, index=set_ids)
    tag2id = pd.Series(tag_ids, index=tags)
    id2tag = pd.Series(tags, index=tag_ids)
    word2id["unknow"] = len(word2id) + 1

    def X_padding(words):
        ids = list(word2id[words])
        if len(ids) >= max_len:
            return ids[:max_len]
        ids.extend([0] * (max_len - len(ids)))
        return ids

    def y_padding(tags):
        ids = list(tag2id[tags])
        if len(ids) >= max_len:
            return ids[:max_len]
        ids.extend([0] * (max_len - len(ids)))
        return ids

    df_data = pd.DataFrame({"words": datas, "tags": labels}, index=range(len(datas)))
    df_data["x"] = df_data["words"].apply(X_padding)
    df_data["y"] = df_data["tags"].apply(y_padding)
    x = np.asarray(list(df_data["x"].values))
    y = np.asarray(list(df_data["y"].values))
    x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=0.2, random_state=43)
    x_train, x_valid, y_train, y_valid = train_test_split(x_train, y_train, test_size=0.2, random_state=43)
    with open(out, "wb") as outp:
        for obj in (word2id, id2word, tag2id, id2tag, x_train, y_train, x_test, y_test, x_valid, y_valid):
            pickle.dump(obj, outp)


# ---- pytorch/train.py (ported to Python 3, with the user's move to the GPU)
def main(data_dir):
    with open(os.path.join(data_dir, "Bosondata.pkl"), "rb") as inp:
        word2id = pickle.load(inp)
        id2word = pickle.load(inp)
        tag2id = pickle.load(inp)
        id2tag = pickle.load(inp)
        x_train = pickle.load(inp)
        y_train = pickle.load(inp)
        x_test = pickle.load(inp)
        y_test = pickle.load(inp)
        x_valid = pickle.load(inp)
        y_valid = pickle.load(inp)
    print("train len:", len(x_train))
    print("test len:", len(x_test))
    print("valid len", len(x_valid))

    EMBEDDING_DIM = 100
    HIDDEN_DIM = 200
    EPOCHS = 1

    tag2id = dict(tag2id)
    tag2id[START_TAG] = len(tag2id)
    tag2id[STOP_TAG] = len(tag2id)

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = BiLSTM_CRF(len(word2id) + 1, tag2id, EMBEDDING_DIM, HIDDEN_DIM).to(device)
    optimizer = optim.SGD(model.parameters(), lr=0.005, weight_decay=1e-4)

    os.makedirs(os.path.join(data_dir, "model"), exist_ok=True)
    for epoch in range(EPOCHS):
        index = 0
        for sentence, tags in zip(x_train, y_train):
            index += 1
            model.zero_grad()

            sentence = torch.tensor(sentence, dtype=torch.long).to(device)
            tags = torch.tensor([t for t in tags], dtype=torch.long).to(device)

            loss = model.neg_log_likelihood(sentence, tags)

            loss.backward()
            optimizer.step()
            if index % 10 == 0:
                print("epoch", epoch, "index", index, "loss", round(loss.item(), 3))
        entityres = []
        entityall = []
        for sentence, tags in zip(x_test, y_test):
            sentence = torch.tensor(sentence, dtype=torch.long).to(device)
            score, predict = model(sentence)
            entityres = calculate(sentence.tolist(), predict, id2word, id2tag, entityres)
            entityall = calculate(sentence.tolist(), tags, id2word, id2tag, entityall)
        jiaoji = [i for i in entityres if i in entityall]
        if len(jiaoji) != 0:
            zhun = float(len(jiaoji)) / len(entityres)
            zhao = float(len(jiaoji)) / len(entityall)
            print("test:")
            print("zhun:", zhun)
            print("zhao:", zhao)
            print("f:", (2 * zhun * zhao) / (zhun + zhao))
        else:
            print("zhun:", 0)

        path_name = os.path.join(data_dir, "model", "model" + str(epoch) + ".pkl")
        print(path_name)
        torch.save(model, path_name)
        print("model has been saved")


if __name__ == "__main__":
    data_dir = tempfile.mkdtemp()
    make_wordtagsplit(os.path.join(data_dir, "wordtagsplit.txt"))
    data2pkl(os.path.join(data_dir, "wordtagsplit.txt"), os.path.join(data_dir, "Bosondata.pkl"))
    main(data_dir)
