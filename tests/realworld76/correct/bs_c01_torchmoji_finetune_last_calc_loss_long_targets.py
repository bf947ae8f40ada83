"""The torchMoji-style 3-class finetune(method='last') of bs01 (huggingface/torchMoji #6) with the fix of commit fad545a: calc_loss passes the long class indices to CrossEntropyLoss (and y.float() only to the binary BCEWithLogitsLoss), evaluate_using_acc takes the argmax for more than 2 classes; the pretrained 64-emoji output layer is skipped, everything but the new output layer is frozen, and the test accuracy is printed before and after training
source: https://github.com/huggingface/torchMoji/issues/6
reported-error: (none filed; the fixed situation of bs01)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile
import uuid

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from sklearn.metrics import accuracy_score
from torch.nn.utils import clip_grad_norm_
from torch.nn.utils.rnn import PackedSequence, pack_padded_sequence, pad_packed_sequence
from torch.utils.data import BatchSampler, DataLoader, Dataset, SequentialSampler

torch.manual_seed(0)
WEIGHTS_DIR = tempfile.mkdtemp()
NB_TOKENS, NB_EMOJI_CLASSES = 120, 64


class Attention(nn.Module):
    def __init__(self, attention_size, return_attention=False):
        super().__init__()
        self.return_attention = return_attention
        self.attention_vector = nn.Parameter(torch.FloatTensor(attention_size).uniform_(-0.05, 0.05))

    def forward(self, inputs, input_lengths):
        logits = inputs.matmul(self.attention_vector)
        unnorm_ai = (logits - logits.max()).exp()
        max_len = unnorm_ai.size(1)
        idxes = torch.arange(0, max_len, dtype=torch.long).unsqueeze(0)
        mask = (idxes < input_lengths.unsqueeze(1)).float()
        masked_weights = unnorm_ai * mask
        attentions = masked_weights.div(masked_weights.sum(dim=1, keepdim=True))
        representations = torch.mul(inputs, attentions.unsqueeze(-1).expand_as(inputs)).sum(dim=1)
        return representations, (attentions if self.return_attention else None)


class TorchMoji(nn.Module):
    def __init__(self, nb_classes, nb_tokens, feature_output=False, output_logits=False,
                 embed_dropout_rate=0, final_dropout_rate=0, return_attention=False):
        super().__init__()
        embedding_dim, hidden_size = 16, 8
        attention_size = 4 * hidden_size + embedding_dim
        self.feature_output, self.output_logits = feature_output, output_logits
        self.hidden_size, self.nb_classes = hidden_size, nb_classes
        self.add_module("embed", nn.Embedding(nb_tokens, embedding_dim))
        self.add_module("embed_dropout", nn.Dropout(embed_dropout_rate))
        self.add_module("lstm_0", nn.LSTM(embedding_dim, hidden_size, batch_first=True, bidirectional=True))
        self.add_module("lstm_1", nn.LSTM(hidden_size * 2, hidden_size, batch_first=True, bidirectional=True))
        self.add_module("attention_layer", Attention(attention_size=attention_size, return_attention=return_attention))
        if not feature_output:
            self.add_module("final_dropout", nn.Dropout(final_dropout_rate))
            out = nb_classes if self.nb_classes > 2 else 1
            if output_logits:
                self.add_module("output_layer", nn.Sequential(nn.Linear(attention_size, out)))
            else:
                self.add_module("output_layer", nn.Sequential(nn.Linear(attention_size, out),
                                                              nn.Softmax(dim=1) if self.nb_classes > 2 else nn.Sigmoid()))
        self.init_weights()
        self.eval()

    def init_weights(self):
        nn.init.uniform_(self.embed.weight.data, a=-0.5, b=0.5)
        for name, param in self.named_parameters():
            if "weight_ih" in name:
                nn.init.xavier_uniform_(param.data)
            elif "weight_hh" in name:
                nn.init.orthogonal_(param.data)
            elif "bias" in name:
                nn.init.constant_(param.data, 0)
        if not self.feature_output:
            nn.init.xavier_uniform_(self.output_layer[0].weight.data)

    def forward(self, input_seqs):
        input_lengths = torch.LongTensor([int(torch.max(input_seqs[i, :].nonzero())) + 1
                                          for i in range(input_seqs.size(0))])
        input_lengths, perm_idx = input_lengths.sort(0, descending=True)
        input_seqs = input_seqs[perm_idx][:, :int(input_lengths.max())]
        packed_input = pack_padded_sequence(input_seqs, input_lengths, batch_first=True)
        x = self.embed_dropout(torch.tanh(self.embed(packed_input.data)))
        packed_input = PackedSequence(data=x, batch_sizes=packed_input.batch_sizes)
        lstm_0_output, _ = self.lstm_0(packed_input)
        lstm_1_output, _ = self.lstm_1(lstm_0_output)
        packed_input = PackedSequence(data=torch.cat((lstm_1_output.data, lstm_0_output.data, packed_input.data), dim=1),
                                      batch_sizes=packed_input.batch_sizes)
        input_seqs, _ = pad_packed_sequence(packed_input, batch_first=True)
        x, _ = self.attention_layer(input_seqs, input_lengths)
        outputs = x if self.feature_output else self.output_layer(self.final_dropout(x))
        reordered = outputs.new_zeros(outputs.size())
        reordered[perm_idx] = outputs
        return reordered


def load_specific_weights(model, weight_path, exclude_names=[], verbose=True):
    weights = torch.load(weight_path)
    for key, weight in weights.items():
        if any(excluded in key for excluded in exclude_names):
            if verbose:
                print("Ignoring weights for {}".format(key))
            continue
        model.state_dict()[key].copy_(weight)


def torchmoji_transfer(nb_classes, weight_path=None, embed_dropout_rate=0.1, final_dropout_rate=0.5):
    model = TorchMoji(nb_classes=nb_classes, nb_tokens=NB_TOKENS, embed_dropout_rate=embed_dropout_rate,
                      final_dropout_rate=final_dropout_rate, output_logits=True)
    if weight_path is not None:
        load_specific_weights(model, weight_path, exclude_names=["output_layer"])
    return model


def freeze_layers(model, unfrozen_types=[], unfrozen_keyword=None):
    trainable_modules = [(n, m) for n, m in model.named_children() if len([id(p) for p in m.parameters()]) != 0]
    for name, module in trainable_modules:
        trainable = (any(typ in str(module) for typ in unfrozen_types) or
                     (unfrozen_keyword is not None and unfrozen_keyword.lower() in name.lower()))
        change_trainable(module, trainable)
    return model


def change_trainable(module, trainable):
    for name, param in module.named_parameters():
        param.requires_grad = trainable


class DeepMojiDataset(Dataset):
    def __init__(self, X_in, y_in):
        if not isinstance(X_in, torch.LongTensor):
            X_in = torch.from_numpy(X_in.astype("int64")).long()
        if not isinstance(y_in, torch.LongTensor):
            y_in = torch.from_numpy(y_in.astype("int64")).long()
        self.X_in = torch.split(X_in, 1, dim=0)
        self.y_in = torch.split(y_in, 1, dim=0)

    def __len__(self):
        return len(self.X_in)

    def __getitem__(self, idx):
        return self.X_in[idx].squeeze(), self.y_in[idx].squeeze()


class DeepMojiBatchSampler(object):
    def __init__(self, y_in, batch_size, epoch_size, seed):
        self.batch_size, self.epoch_size = batch_size, epoch_size
        np.random.seed(seed)
        self.sample_ind = np.random.choice(range(len(y_in)), epoch_size, replace=True)

    def __iter__(self):
        for i in range(int(self.epoch_size / self.batch_size)):
            start = i * self.batch_size
            yield self.sample_ind[start:min(start + self.batch_size, self.epoch_size)]

    def __len__(self):
        return (self.epoch_size + self.batch_size - 1) // self.batch_size


def get_data_loader(X_in, y_in, batch_size, extended_batch_sampler=True, epoch_size=25000, seed=42):
    dataset = DeepMojiDataset(X_in, y_in)
    if extended_batch_sampler:
        batch_sampler = DeepMojiBatchSampler(y_in, batch_size, epoch_size=epoch_size, seed=seed)
    else:
        batch_sampler = BatchSampler(SequentialSampler(y_in), batch_size, drop_last=False)
    return DataLoader(dataset, batch_sampler=batch_sampler, num_workers=0)


def finetune(model, texts, labels, nb_classes, batch_size, method, epoch_size=5000, nb_epochs=1000,
             embed_l2=1e-6, verbose=1):
    train_gen = get_data_loader(texts[0], labels[0], batch_size, extended_batch_sampler=True, epoch_size=epoch_size)
    val_gen = get_data_loader(texts[1], labels[1], batch_size, extended_batch_sampler=False)
    test_gen = get_data_loader(texts[2], labels[2], batch_size, extended_batch_sampler=False)
    checkpoint_path = "{}/torchmoji-checkpoint-{}.bin".format(WEIGHTS_DIR, str(uuid.uuid4()))
    lr = 0.001 if method in ["last", "new"] else 0.0001
    loss_op = nn.BCEWithLogitsLoss() if nb_classes <= 2 else nn.CrossEntropyLoss()
    if method == "last":
        model = freeze_layers(model, unfrozen_keyword="output_layer")
        adam = optim.Adam((p for p in model.parameters() if p.requires_grad), lr=lr)
    else:
        embed_params_id = [id(p) for p in model.embed.parameters()]
        output_layer_params_id = [id(p) for p in model.output_layer.parameters()]
        base_params = [p for p in model.parameters()
                       if id(p) not in embed_params_id and id(p) not in output_layer_params_id and p.requires_grad]
        embed_params = [p for p in model.parameters() if id(p) in embed_params_id and p.requires_grad]
        output_layer_params = [p for p in model.parameters() if id(p) in output_layer_params_id and p.requires_grad]
        adam = optim.Adam([{"params": base_params},
                           {"params": embed_params, "weight_decay": embed_l2},
                           {"params": output_layer_params, "lr": 0.001}], lr=lr)
    result = tune_trainable(model, loss_op, adam, train_gen, val_gen, test_gen, nb_epochs, checkpoint_path,
                            verbose=verbose)
    return model, result


def tune_trainable(model, loss_op, optim_op, train_gen, val_gen, test_gen, nb_epochs, checkpoint_path,
                   patience=5, verbose=2):
    if verbose:
        print("Trainable weights: {}".format([n for n, p in model.named_parameters() if p.requires_grad]))
        print("Evaluation on test set prior training:", evaluate_using_acc(model, test_gen))
    fit_model(model, loss_op, optim_op, train_gen, val_gen, nb_epochs, checkpoint_path, patience)
    model.load_state_dict(torch.load(checkpoint_path))
    return evaluate_using_acc(model, test_gen)


def evaluate_using_acc(model, test_gen):
    model.eval()
    accs = []
    with torch.no_grad():
        for x, y in test_gen:
            outs = model(x)
            if model.nb_classes > 2:
                pred = torch.max(outs, 1)[1]
                acc = accuracy_score(y.squeeze().numpy(), pred.squeeze().numpy())
            else:
                pred = (outs >= 0).long().squeeze(1)
                acc = (pred == y).double().sum().item() / len(pred)
            accs.append(acc)
    return np.mean(accs)


def calc_loss(loss_op, pred, yv):
    if type(loss_op) is nn.CrossEntropyLoss:
        return loss_op(pred.squeeze(), yv.squeeze())
    else:
        return loss_op(pred.squeeze(), yv.squeeze().float())


def fit_model(model, loss_op, optim_op, train_gen, val_gen, epochs, checkpoint_path, patience):
    torch.save(model.state_dict(), checkpoint_path)
    model.eval()
    best_loss = np.mean([calc_loss(loss_op, model(xv), yv).item() for xv, yv in val_gen])
    print("original val loss", best_loss)
    epoch_without_impr = 0
    for epoch in range(epochs):
        for i, (X_train, y_train) in enumerate(train_gen):
            model.train()
            optim_op.zero_grad()
            output = model(X_train)
            loss = calc_loss(loss_op, output, y_train)
            loss.backward()
            clip_grad_norm_(model.parameters(), 1)
            optim_op.step()
        model.eval()
        val_loss = np.mean([calc_loss(loss_op, model(xv), yv).item() for xv, yv in val_gen])
        print("== Epoch", epoch, "val loss", val_loss)
        if val_loss >= best_loss:
            epoch_without_impr += 1
        else:
            best_loss = val_loss
            torch.save(model.state_dict(), checkpoint_path)
        if epoch_without_impr >= patience:
            break


# --- the pretrained torchMoji weights (a 64-emoji model), written where scripts/download_weights.py puts them ---
PRETRAINED_PATH = os.path.join(WEIGHTS_DIR, "pytorch_model.bin")
torch.save(TorchMoji(nb_classes=NB_EMOJI_CLASSES, nb_tokens=NB_TOKENS).state_dict(), PRETRAINED_PATH)

# --- a 3-class benchmark, tokenized to maxlen 12 (zero padding after the tokens) ---
rng = np.random.RandomState(0)


def make_split(n):
    labels = rng.randint(0, 3, size=n)
    texts = np.zeros((n, 12), dtype=np.uint16)
    for i, c in enumerate(labels):
        length = rng.randint(4, 12)
        texts[i, :length] = rng.randint(1 + 40 * c, 40 * (c + 1), size=length)
    return texts, labels


splits = [make_split(n) for n in (96, 24, 24)]
data = {"texts": [s[0] for s in splits], "labels": [s[1] for s in splits], "batch_size": 8}
nb_classes = 3

model = torchmoji_transfer(nb_classes, PRETRAINED_PATH)
print(model)
# examples/finetune_youtube_last.py, 3 classes
model, acc = finetune(model, data["texts"], data["labels"], nb_classes, data["batch_size"], method="last",
                      epoch_size=96, nb_epochs=3)
print("Acc: {}".format(acc))
