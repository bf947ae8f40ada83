"""Chinese named-entity recognition with Lattice LSTM (jiesutd/LatticeLSTM: main.py's train, which saves model.state_dict() each time the dev F-score improves, and load_model_decode for --status decode; utils/data.py's Data alphabets; model/bilstmcrf.py's SeqModel), the situation of pull request #15: a model trained on a GPU server is decoded on a machine without CUDA, and load_model_decode's model.load_state_dict(torch.load(model_dir)) has no map_location (the CPU branch the pull request corrects is commented out), so torch.load fails on the CUDA storages
source: https://github.com/jiesutd/LatticeLSTM/pull/15
reported-error: "Fix bug: load model on CPU": map_location is a parameter of torch.load, not of load_state_dict(); a GPU-trained model needs torch.load(model_dir, map_location=lambda storage, loc: storage) to be decoded on the CPU
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 189
root-cause: line 189
expect: DG010
"""
import argparse
import contextlib
import os
import pickle
import sys
import tempfile
import time

import numpy as np
import torch
import torch.autograd as autograd
import torch.nn as nn
import torch.optim as optim


# ---- utils/alphabet.py and utils/data.py (reduced: characters and labels, no gazetteer lattice)
class Alphabet:
    def __init__(self, name, label=False):
        self.name = name
        self.label = label
        self.instances = [] if label else ["</unk>"]
        self.instance2index = {k: i + 1 for i, k in enumerate(self.instances)}

    def add(self, instance):
        if instance not in self.instance2index:
            self.instances.append(instance)
            self.instance2index[instance] = len(self.instances)

    def get_index(self, instance):
        return self.instance2index.get(instance, 1)

    def size(self):
        return len(self.instances) + 1


class Data:
    def __init__(self):
        self.char_alphabet = Alphabet("character")
        self.label_alphabet = Alphabet("label", True)
        self.HP_gpu = False
        self.HP_char_emb_dim = 32
        self.HP_hidden_dim = 64
        self.HP_batch_size = 4
        self.HP_lr = 0.015
        self.HP_lr_decay = 0.05
        self.HP_iteration = 3
        self.train_Ids, self.dev_Ids, self.raw_Ids = [], [], []
        self.train_texts, self.raw_texts = [], []

    def build_alphabet(self, texts):
        for chars, labels in texts:
            for c in chars:
                self.char_alphabet.add(c)
            for lab in labels:
                self.label_alphabet.add(lab)

    def generate_instance(self, texts):
        return [[[self.char_alphabet.get_index(c) for c in chars],
                 [self.label_alphabet.get_index(lab) for lab in labels]] for chars, labels in texts]


def save_data_setting(data, save_file):
    with open(save_file, "wb") as fp:
        pickle.dump(data, fp)
    print("Data setting saved to file: ", save_file)


def load_data_setting(save_file):
    with open(save_file, "rb") as fp:
        data = pickle.load(fp)
    print("Data setting loaded from file: ", save_file)
    return data


# ---- model/bilstm.py and model/bilstmcrf.py (reduced: character BiLSTM tagger; the CRF layer is left out)
class BiLSTM(nn.Module):
    def __init__(self, data):
        super().__init__()
        self.gpu = data.HP_gpu
        self.char_embeddings = nn.Embedding(data.char_alphabet.size(), data.HP_char_emb_dim)
        self.lstm = nn.LSTM(data.HP_char_emb_dim, data.HP_hidden_dim // 2, batch_first=True, bidirectional=True)
        self.drop = nn.Dropout(0.5)
        self.hidden2tag = nn.Linear(data.HP_hidden_dim, data.label_alphabet.size())
        if self.gpu:
            self.char_embeddings = self.char_embeddings.cuda()
            self.lstm = self.lstm.cuda()
            self.hidden2tag = self.hidden2tag.cuda()

    def get_output_score(self, batch_word, batch_wordlen):
        lstm_out, _ = self.lstm(self.drop(self.char_embeddings(batch_word)))
        return self.hidden2tag(self.drop(lstm_out))


class SeqModel(nn.Module):
    def __init__(self, data):
        super().__init__()
        self.gpu = data.HP_gpu
        self.lstm = BiLSTM(data)
        self.loss_fn = nn.CrossEntropyLoss(ignore_index=0, reduction="sum")

    def neg_log_likelihood_loss(self, batch_word, batch_wordlen, batch_label, mask):
        outs = self.lstm.get_output_score(batch_word, batch_wordlen)
        total_loss = self.loss_fn(outs.reshape(-1, outs.size(-1)), batch_label.reshape(-1))
        _, tag_seq = torch.max(outs, 2)
        return total_loss, tag_seq * mask.long()

    def forward(self, batch_word, batch_wordlen, mask):
        outs = self.lstm.get_output_score(batch_word, batch_wordlen)
        _, tag_seq = torch.max(outs, 2)
        return tag_seq * mask.long()


# ---- main.py
def batchify_with_label(input_batch_list, gpu, volatile_flag=False):
    batch_size = len(input_batch_list)
    words = [sent[0] for sent in input_batch_list]
    labels = [sent[1] for sent in input_batch_list]
    word_seq_lengths = torch.LongTensor(list(map(len, words)))
    max_seq_len = int(word_seq_lengths.max())
    word_seq_tensor = autograd.Variable(torch.zeros((batch_size, max_seq_len))).long()
    label_seq_tensor = autograd.Variable(torch.zeros((batch_size, max_seq_len))).long()
    mask = autograd.Variable(torch.zeros((batch_size, max_seq_len))).byte()
    for idx, (seq, label, seqlen) in enumerate(zip(words, labels, word_seq_lengths)):
        word_seq_tensor[idx, :seqlen] = torch.LongTensor(seq)
        label_seq_tensor[idx, :seqlen] = torch.LongTensor(label)
        mask[idx, :seqlen] = torch.Tensor([1] * int(seqlen))
    if gpu:
        word_seq_tensor = word_seq_tensor.cuda()
        label_seq_tensor = label_seq_tensor.cuda()
        mask = mask.cuda()
    return word_seq_tensor, word_seq_lengths, label_seq_tensor, mask


def evaluate(data, model, name):
    instances = data.raw_Ids if name == "raw" else data.dev_Ids
    model.eval()
    pred_results = []
    right = whole = 0
    for start in range(0, len(instances), data.HP_batch_size):
        instance = instances[start:start + data.HP_batch_size]
        batch_word, batch_wordlen, batch_label, mask = batchify_with_label(instance, data.HP_gpu, True)
        tag_seq = model(batch_word, batch_wordlen, mask)
        right += int(((tag_seq == batch_label) & mask.bool()).sum())
        whole += int(mask.sum())
        pred_results += [[data.label_alphabet.instances[int(t) - 1] for t in row[:int(n)]]
                         for row, n in zip(tag_seq.cpu(), batch_wordlen)]
    return 0.0, right / max(whole, 1), pred_results


def train(data, save_model_dir, seg=True):
    print("Training model...")
    model = SeqModel(data)
    optimizer = optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=data.HP_lr, momentum=0)
    best_dev = -1
    for idx in range(data.HP_iteration):
        model.train()
        for start in range(0, len(data.train_Ids), data.HP_batch_size):
            instance = data.train_Ids[start:start + data.HP_batch_size]
            batch_word, batch_wordlen, batch_label, mask = batchify_with_label(instance, data.HP_gpu)
            loss, tag_seq = model.neg_log_likelihood_loss(batch_word, batch_wordlen, batch_label, mask)
            loss.backward()
            optimizer.step()
            model.zero_grad()
        speed, acc, _ = evaluate(data, model, "dev")
        print("Epoch: %s dev acc: %.4f" % (idx, acc))
        if acc > best_dev:
            model_name = save_model_dir + "." + str(idx) + ".model"
            torch.save(model.state_dict(), model_name)
            best_dev = acc
    return model_name


def load_model_decode(model_dir, data, name, gpu, seg=True):
    data.HP_gpu = gpu
    print("Load Model from file: ", model_dir)
    model = SeqModel(data)
    ## load model need consider if the model trained in GPU and load in CPU, or vice versa
    # if not gpu:
    #     model.load_state_dict(torch.load(model_dir), map_location=lambda storage, loc: storage)
    #     # model = torch.load(model_dir, map_location=lambda storage, loc: storage)
    # else:
    model.load_state_dict(torch.load(model_dir))  # root-cause  # fails-here

    print("Decode %s data ..." % (name))
    start_time = time.time()
    speed, acc, pred_results = evaluate(data, model, name)
    print("%s: time:%.2fs; acc: %.4f" % (name, time.time() - start_time, acc))
    return pred_results


# ---- the two runs: `--status train` on the GPU server, `--status decode` on a laptop without CUDA
@contextlib.contextmanager
def storages_tagged_cuda():
    # what torch.save records for a state dict whose tensors live on the GPU
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        yield
    finally:
        torch.serialization.location_tag = orig


def synthetic_corpus(n, rng):
    # BMES-tagged "sentences" of character ids standing in for the Chinese resume NER data
    chars = [chr(0x4E00 + i) for i in range(40)]
    texts = []
    for _ in range(n):
        length = int(rng.integers(5, 12))
        sent = [chars[int(i)] for i in rng.integers(0, 40, size=length)]
        labels = ["B-ORG" if ord(c) % 7 == 0 else ("E-ORG" if ord(c) % 7 == 1 else "O") for c in sent]
        texts.append((sent, labels))
    return texts


def parse_args(argv):
    parser = argparse.ArgumentParser(description='Tuning with bi-directional LSTM-CRF')
    parser.add_argument('--status', choices=['train', 'test', 'decode'], help='update algorithm', default='train')
    parser.add_argument('--savemodel', default="data/model/saved_model.lstmcrf.")
    parser.add_argument('--savedset', help='Dir of saved data setting', default="data/save.dset")
    parser.add_argument('--seg', default="True")
    parser.add_argument('--raw')
    parser.add_argument('--loadmodel')
    parser.add_argument('--output')
    return parser.parse_args(argv)


if __name__ == '__main__':
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    workdir = tempfile.mkdtemp()
    save_model_dir = os.path.join(workdir, "saved_model")
    dset_dir = os.path.join(workdir, "save.dset")

    # python main.py --status train --savemodel ... --savedset ...   (GPU server)
    args = parse_args(["--status", "train", "--savemodel", save_model_dir, "--savedset", dset_dir])
    data = Data()
    data.train_texts = synthetic_corpus(32, rng)
    dev_texts = synthetic_corpus(8, rng)
    data.build_alphabet(data.train_texts + dev_texts)
    data.train_Ids = data.generate_instance(data.train_texts)
    data.dev_Ids = data.generate_instance(dev_texts)
    save_data_setting(data, args.savedset)
    with storages_tagged_cuda():
        model_file = train(data, args.savemodel)

    # python main.py --status decode --raw ... --savedset ... --loadmodel ... --output ...   (laptop)
    args = parse_args(["--status", "decode", "--savedset", dset_dir, "--loadmodel", model_file,
                       "--output", os.path.join(workdir, "raw.out")])
    gpu = torch.cuda.is_available()
    print("GPU available:", gpu)
    sys.stdout.flush()
    data = load_data_setting(args.savedset)
    data.raw_texts = synthetic_corpus(6, rng)
    data.raw_Ids = data.generate_instance(data.raw_texts)
    decode_results = load_model_decode(args.loadmodel, data, 'raw', gpu, args.seg.lower() == "true")
    print("decoded", len(decode_results), "sentences")
