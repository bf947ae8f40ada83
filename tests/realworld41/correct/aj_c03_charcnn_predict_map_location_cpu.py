"""Character-level CNN sentiment classifier (ahmedbesbes/character-based-cnn as in aj03: pandas chunked CSV loading, MyDataset one-hot encoding, CharacterLevelCNN, train.py saving the state_dict on the GPU server) with predict.py loading the GPU-written checkpoint with torch.load(args.model, map_location="cpu") on the laptop, then moving the model to CUDA only where use_cuda holds
source: https://github.com/ahmedbesbes/character-based-cnn/issues/2
reported-error: (none filed; the fixed situation of aj03, the map_location answer of character-based-cnn issue #2)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import contextlib
import math
import os
import re
import tempfile
from collections import Counter
from datetime import datetime

import numpy as np
import pandas as pd
from sklearn import metrics
from sklearn.metrics import classification_report, f1_score
from sklearn.model_selection import train_test_split
from tqdm import tqdm

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


# ---- src/utils.py
def lower(text):
    return text.lower()


def remove_hashtags(text):
    return re.sub(r"#[A-Za-z0-9_]+", "", text)


def remove_user_mentions(text):
    return re.sub(r"@[A-Za-z0-9_]+", "", text)


def remove_urls(text):
    return re.sub(r"^https?:\/\/.*[\r\n]*", "", text, flags=re.MULTILINE)


preprocessing_setps = {
    "remove_hashtags": remove_hashtags,
    "remove_urls": remove_urls,
    "remove_user_mentions": remove_user_mentions,
    "lower": lower,
}


def process_text(steps, text):
    if steps is not None:
        for step in steps:
            text = preprocessing_setps[step](text)
    return text


def get_evaluation(y_true, y_prob, list_metrics):
    y_pred = np.argmax(y_prob, -1)
    output = {}
    if "accuracy" in list_metrics:
        output["accuracy"] = metrics.accuracy_score(y_true, y_pred)
    if "f1" in list_metrics:
        output["f1"] = metrics.f1_score(y_true, y_pred, average="weighted")
    return output


class AverageMeter(object):
    def __init__(self):
        self.val = self.avg = self.sum = self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


def preprocess_input(args):
    raw_text = args.text
    for step in args.steps:
        raw_text = preprocessing_setps[step](raw_text)
    number_of_characters = args.number_of_characters + len(args.extra_characters)
    identity_mat = np.identity(number_of_characters)
    vocabulary = list(args.alphabet) + list(args.extra_characters)
    max_length = args.max_length
    processed_output = np.array([identity_mat[vocabulary.index(i)] for i in list(raw_text[::-1]) if i in vocabulary],
                                dtype=np.float32)
    if len(processed_output) > max_length:
        processed_output = processed_output[:max_length]
    elif 0 < len(processed_output) < max_length:
        processed_output = np.concatenate((processed_output, np.zeros(
            (max_length - len(processed_output), number_of_characters), dtype=np.float32)))
    elif len(processed_output) == 0:
        processed_output = np.zeros((max_length, number_of_characters), dtype=np.float32)
    return processed_output


# ---- src/data_loader.py
def get_sample_weights(labels):
    counter = dict(Counter(labels))
    for k in counter:
        counter[k] = 1 / counter[k]
    return np.array([counter[l] for l in labels])


def load_data(args):
    # chunk your dataframes in small portions
    chunks = pd.read_csv(args.data_path, usecols=[args.text_column, args.label_column], chunksize=args.chunksize,
                         encoding=args.encoding, nrows=args.max_rows, sep=args.sep)
    texts = []
    labels = []
    for df_chunk in tqdm(chunks, disable=True):
        aux_df = df_chunk.copy()
        aux_df = aux_df[~aux_df[args.text_column].isnull()]
        aux_df = aux_df[(aux_df[args.text_column].map(len) > 5) & (aux_df[args.text_column].map(len) < 600)]
        aux_df["processed_text"] = aux_df[args.text_column].map(lambda text: process_text(args.steps, text))
        texts += aux_df["processed_text"].tolist()
        labels += aux_df[args.label_column].tolist()

    number_of_classes = len(set(labels))
    if number_of_classes > 2:
        labels = [label - 1 for label in labels]
    print(f"data loaded successfully with {len(texts)} rows and {number_of_classes} labels")
    sample_weights = get_sample_weights(labels)
    return texts, labels, number_of_classes, sample_weights


class MyDataset(Dataset):
    def __init__(self, texts, labels, args):
        self.texts = texts
        self.labels = labels
        self.length = len(self.texts)
        self.vocabulary = args.alphabet + args.extra_characters
        self.number_of_characters = args.number_of_characters + len(args.extra_characters)
        self.max_length = args.max_length
        self.preprocessing_steps = args.steps
        self.identity_mat = np.identity(self.number_of_characters)

    def __len__(self):
        return self.length

    def __getitem__(self, index):
        raw_text = self.texts[index]
        data = np.array([self.identity_mat[self.vocabulary.index(i)] for i in list(raw_text)[::-1]
                         if i in self.vocabulary], dtype=np.float32)
        if len(data) > self.max_length:
            data = data[:self.max_length]
        elif 0 < len(data) < self.max_length:
            data = np.concatenate(
                (data, np.zeros((self.max_length - len(data), self.number_of_characters), dtype=np.float32)))
        elif len(data) == 0:
            data = np.zeros((self.max_length, self.number_of_characters), dtype=np.float32)
        label = self.labels[index]
        data = torch.Tensor(data)
        return data, label


# ---- src/model.py
class CharacterLevelCNN(nn.Module):
    def __init__(self, args, number_of_classes):
        super(CharacterLevelCNN, self).__init__()
        self.conv1 = nn.Sequential(nn.Conv1d(args.number_of_characters + len(args.extra_characters), 256,
                                             kernel_size=7, padding=0), nn.ReLU(), nn.MaxPool1d(3))
        self.conv2 = nn.Sequential(nn.Conv1d(256, 256, kernel_size=7, padding=0), nn.ReLU(), nn.MaxPool1d(3))
        self.conv3 = nn.Sequential(nn.Conv1d(256, 256, kernel_size=3, padding=0), nn.ReLU())
        self.conv4 = nn.Sequential(nn.Conv1d(256, 256, kernel_size=3, padding=0), nn.ReLU())
        self.conv5 = nn.Sequential(nn.Conv1d(256, 256, kernel_size=3, padding=0), nn.ReLU())
        self.conv6 = nn.Sequential(nn.Conv1d(256, 256, kernel_size=3, padding=0), nn.ReLU(), nn.MaxPool1d(3))

        input_shape = (128, args.max_length, args.number_of_characters + len(args.extra_characters))
        self.output_dimension = self._get_conv_output(input_shape)

        self.fc1 = nn.Sequential(nn.Linear(self.output_dimension, 1024), nn.ReLU(), nn.Dropout(0.5))
        self.fc2 = nn.Sequential(nn.Linear(1024, 1024), nn.ReLU(), nn.Dropout(0.5))
        self.fc3 = nn.Linear(1024, number_of_classes)
        self._create_weights()

    def _create_weights(self, mean=0.0, std=0.05):
        for module in self.modules():
            if isinstance(module, nn.Conv1d) or isinstance(module, nn.Linear):
                module.weight.data.normal_(mean, std)

    def _get_conv_output(self, shape):
        x = torch.rand(shape)
        x = x.transpose(1, 2)
        x = self.conv6(self.conv5(self.conv4(self.conv3(self.conv2(self.conv1(x))))))
        x = x.view(x.size(0), -1)
        return x.size(1)

    def forward(self, x):
        x = x.transpose(1, 2)
        x = self.conv1(x)
        x = self.conv2(x)
        x = self.conv3(x)
        x = self.conv4(x)
        x = self.conv5(x)
        x = self.conv6(x)
        x = x.view(x.size(0), -1)
        x = self.fc1(x)
        x = self.fc2(x)
        return self.fc3(x)


# ---- train.py
class SummaryWriter:
    """tensorboardX is not installed here: a stand-in that keeps the scalars."""

    def __init__(self, logdir):
        self.logdir, self.scalars = logdir, []

    def add_scalar(self, tag, value, step):
        self.scalars.append((tag, float(value), step))


def train(model, training_generator, optimizer, criterion, epoch, writer, log_file, args, print_every=25):
    model.train()
    losses = AverageMeter()
    accuracies = AverageMeter()
    num_iter_per_epoch = len(training_generator)
    y_true, y_pred = [], []
    for iter, batch in enumerate(training_generator):
        features, labels = batch
        if torch.cuda.is_available():
            features = features.cuda()
            labels = labels.cuda()
        optimizer.zero_grad()
        predictions = model(features)
        y_true += labels.cpu().numpy().tolist()
        y_pred += torch.max(predictions, 1)[1].cpu().numpy().tolist()
        loss = criterion(predictions, labels)
        loss.backward()
        optimizer.step()
        training_metrics = get_evaluation(labels.cpu().numpy(), predictions.cpu().detach().numpy(),
                                          list_metrics=["accuracy", "f1"])
        losses.update(loss.data, features.size(0))
        accuracies.update(training_metrics["accuracy"], features.size(0))
        writer.add_scalar("Train/Loss", loss.item(), epoch * num_iter_per_epoch + iter)
    f1_train = f1_score(y_true, y_pred, average="weighted")
    with open(log_file, "a") as f:
        f.write(f"Training on Epoch {epoch} \nAverage loss: {losses.avg.item()} \nF1 score: {f1_train} \n\n")
    return losses.avg.item(), accuracies.avg, f1_train


def evaluate(model, validation_generator, criterion, epoch, writer, log_file, print_every=25):
    model.eval()
    losses = AverageMeter()
    accuracies = AverageMeter()
    y_true, y_pred = [], []
    for iter, batch in enumerate(validation_generator):
        features, labels = batch
        if torch.cuda.is_available():
            features = features.cuda()
            labels = labels.cuda()
        with torch.no_grad():
            predictions = model(features)
        loss = criterion(predictions, labels)
        y_true += labels.cpu().numpy().tolist()
        y_pred += torch.max(predictions, 1)[1].cpu().numpy().tolist()
        validation_metrics = get_evaluation(labels.cpu().numpy(), predictions.cpu().detach().numpy(),
                                            list_metrics=["accuracy", "f1"])
        losses.update(loss.data, features.size(0))
        accuracies.update(validation_metrics["accuracy"], features.size(0))
    f1_test = f1_score(y_true, y_pred, average="weighted")
    print(classification_report(y_true, y_pred, zero_division=0))
    with open(log_file, "a") as f:
        f.write(f"Validation on Epoch {epoch} \nAverage loss: {losses.avg.item()} \nF1 score {f1_test} \n\n")
    return losses.avg.item(), accuracies.avg, f1_test


def run(args):
    now = datetime.now()
    logdir = args.log_path + now.strftime("%Y%m%d-%H%M%S") + "/"
    os.makedirs(logdir)
    log_file = logdir + "log.txt"
    writer = SummaryWriter(logdir)

    training_params = {"batch_size": args.batch_size, "shuffle": True, "num_workers": args.workers, "drop_last": True}
    validation_params = {"batch_size": args.batch_size, "shuffle": False, "num_workers": args.workers,
                         "drop_last": True}

    texts, labels, number_of_classes, sample_weights = load_data(args)
    print(f"5 first comments : {texts[:5]}")
    train_texts, val_texts, train_labels, val_labels, train_sample_weights, _ = train_test_split(
        texts, labels, sample_weights, test_size=args.validation_split, random_state=42, stratify=labels)
    training_set = MyDataset(train_texts, train_labels, args)
    validation_set = MyDataset(val_texts, val_labels, args)
    training_generator = DataLoader(training_set, **training_params)
    validation_generator = DataLoader(validation_set, **validation_params)

    model = CharacterLevelCNN(args, number_of_classes)
    if torch.cuda.is_available():
        model.cuda()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.learning_rate, momentum=0.9)

    best_f1 = 0
    for epoch in range(args.epochs):
        training_loss, training_accuracy, train_f1 = train(model, training_generator, optimizer, criterion, epoch,
                                                           writer, log_file, args, args.log_every)
        validation_loss, validation_accuracy, validation_f1 = evaluate(model, validation_generator, criterion, epoch,
                                                                       writer, log_file, args.log_every)
        print("[Epoch: {} / {}]\ttrain_loss: {:.4f} \ttrain_acc: {:.4f} \tval_loss: {:.4f} \tval_acc: {:.4f}".format(
            epoch + 1, args.epochs, training_loss, training_accuracy, validation_loss, validation_accuracy))
        if validation_f1 >= best_f1:
            best_f1 = validation_f1
            if args.checkpoint == 1:
                path = args.output + "model_{}_epoch_{}_maxlen_{}_lr_{}_loss_{}_acc_{}_f1_{}.pth".format(
                    args.model_name, epoch, args.max_length, optimizer.state_dict()["param_groups"][0]["lr"],
                    round(validation_loss, 4), round(validation_accuracy, 4), round(validation_f1, 4))
                torch.save(model.state_dict(), path)
    return path


def train_parser():
    parser = argparse.ArgumentParser("Character Based CNN for text classification")
    parser.add_argument("--data_path", type=str, default="./data/train.csv")
    parser.add_argument("--validation_split", type=float, default=0.2)
    parser.add_argument("--label_column", type=str, default="Sentiment")
    parser.add_argument("--text_column", type=str, default="SentimentText")
    parser.add_argument("--max_rows", type=int, default=None)
    parser.add_argument("--chunksize", type=int, default=50000)
    parser.add_argument("--encoding", type=str, default="utf-8")
    parser.add_argument("--sep", type=str, default=",")
    parser.add_argument("--steps", nargs="+", default=["lower"])
    parser.add_argument("--alphabet", type=str,
                        default="abcdefghijklmnopqrstuvwxyz0123456789-,;.!?:'\"/\\|_@#$%^&*~`+ =<>()[]{}")
    parser.add_argument("--number_of_characters", type=int, default=69)
    parser.add_argument("--extra_characters", type=str, default="")
    parser.add_argument("--max_length", type=int, default=150)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch_size", type=int, default=128)
    parser.add_argument("--learning_rate", type=float, default=0.01)
    parser.add_argument("--checkpoint", type=int, choices=[0, 1], default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--log_path", type=str, default="./logs/")
    parser.add_argument("--log_every", type=int, default=100)
    parser.add_argument("--output", type=str, default="./models/")
    parser.add_argument("--model_name", type=str, default="")
    return parser


# ---- predict.py
use_cuda = torch.cuda.is_available()


def predict(args):
    model = CharacterLevelCNN(args, args.number_of_classes)
    state = torch.load(args.model, map_location="cpu")
    model.load_state_dict(state)
    model.eval()

    processed_input = preprocess_input(args)
    processed_input = torch.tensor(processed_input)
    processed_input = processed_input.unsqueeze(0)
    if use_cuda:
        processed_input = processed_input.to("cuda")
        model = model.to("cuda")
    prediction = model(processed_input)
    probabilities = F.softmax(prediction, dim=1)
    return probabilities.detach().cpu().numpy()


def predict_parser():
    parser = argparse.ArgumentParser("Testing a pretrained Character Based CNN for text classification")
    parser.add_argument("--model", type=str, help="path for pre-trained model")
    parser.add_argument("--text", type=str, default="I love pizza!", help="text string")
    parser.add_argument("--steps", nargs="+", default=["lower"])
    parser.add_argument("--alphabet", type=str,
                        default="abcdefghijklmnopqrstuvwxyz0123456789-,;.!?:'\"/\\|_@#$%^&*~`+ =<>()[]{}")
    parser.add_argument("--number_of_characters", type=int, default=69)
    parser.add_argument("--extra_characters", type=str, default="")
    parser.add_argument("--max_length", type=int, default=150)
    parser.add_argument("--number_of_classes", type=int, default=2)
    return parser


# ---- the reporter's two machines
@contextlib.contextmanager
def storages_tagged_as_cuda():
    """What torch.save writes on the GPU server: every storage tagged 'cuda:0'."""
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        yield
    finally:
        torch.serialization.location_tag = orig


def write_tweets_csv(path, n=320, seed=0):
    rng = np.random.default_rng(seed)
    pos = ["love", "great", "awesome", "happy", "best", "good", "nice"]
    neg = ["hate", "awful", "bad", "sad", "worst", "boring", "ugly"]
    rows = []
    for i in range(n):
        label = int(rng.integers(0, 2))
        words = rng.choice(pos if label else neg, size=3).tolist() + ["pizza", "today", "@user%d" % i]
        rng.shuffle(words)
        rows.append({"ItemID": i, "Sentiment": label, "SentimentText": "I " + " ".join(words) + "!"})
    pd.DataFrame(rows).to_csv(path, index=False)


if __name__ == "__main__":
    torch.manual_seed(0)
    work = tempfile.mkdtemp()
    for sub in ("data", "logs", "models"):
        os.makedirs(os.path.join(work, sub))
    write_tweets_csv(os.path.join(work, "data", "train.csv"))

    # on the GPU server: python train.py --epochs 1
    train_args = train_parser().parse_args([
        "--data_path", os.path.join(work, "data", "train.csv"), "--epochs", "1", "--batch_size", "64",
        "--log_path", os.path.join(work, "logs") + "/", "--output", os.path.join(work, "models") + "/",
        "--model_name", "testmodel"])
    with storages_tagged_as_cuda():
        checkpoint_path = run(train_args)

    # on the laptop without a GPU: python predict.py --model=./model/testmodel.pth --text="I love the pizza"
    predict_args = predict_parser().parse_args(["--model", checkpoint_path, "--text", "I love the pizza"])
    prediction = predict(predict_args)
    print("input : {}".format(predict_args.text))
    print("prediction : {}".format(prediction))
