"""DeepSpeech2 on an AN4-style manifest (SeanNaren/deepspeech.pytorch before its Lightning port: deepspeech_pytorch/training.py's train(cfg), model.py's DeepSpeech with MaskConv/BatchRNN/SequenceWise, loader/data_loader.py's SpectrogramDataset/AudioDataLoader/DSRandomSampler, configs/train_config.py dataclasses, utils.check_loss) migrated from NVIDIA apex to torch.amp: apex's amp.initialize(opt_level=cfg.apex.opt_level) becomes model.half() for opt_level 'O3' (apex's pure-float16 level) plus a torch.amp.GradScaler, and scaler.unscale_(optimizer) before clip_grad_norm_ meets float16 gradients (the CTC loss still runs on float_out = out.float() as upstream does)
source: https://github.com/SeanNaren/deepspeech.pytorch/blob/4cb209ae0092fb23d5b487478a28cb91ee9980af/deepspeech_pytorch/training.py
reported-error: (none filed; the variant replaces the deprecated apex calls the way its docs map them: O3 -> a float16 model, amp.scale_loss -> GradScaler; warp-ctc's CTCLoss is torch.nn.CTCLoss on log-probabilities, as the later upstream uses)
outcome: ValueError: Attempting to unscale FP16 gradients. at line 586
root-cause: line 528
expect: DG014
"""
import json
import math
import os
import random
import tempfile
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import numpy as np
import scipy.io.wavfile
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.data
from torch.utils.data import Dataset, Sampler, DataLoader

WORKDIR = tempfile.mkdtemp()


# ---- librosa and soundfile stand-ins (not installed here): the STFT/magphase and int16 reading upstream uses
class librosa:
    @staticmethod
    def stft(y, n_fft, hop_length, win_length, window):
        win = {'hamming': np.hamming, 'hann': np.hanning}[window](win_length)
        y = np.pad(y, n_fft // 2, mode='reflect')
        n_frames = 1 + (len(y) - n_fft) // hop_length
        frames = np.stack([y[i * hop_length:i * hop_length + n_fft] * win for i in range(n_frames)], 1)
        return np.fft.rfft(frames, axis=0)

    @staticmethod
    def magphase(D):
        mag = np.abs(D)
        return mag, np.exp(1j * np.angle(D))


class sf:
    @staticmethod
    def read(path, dtype='int16'):
        sample_rate, sound = scipy.io.wavfile.read(path)
        return sound.astype(dtype), sample_rate


# ---- deepspeech_pytorch/enums.py
class SpectrogramWindow(Enum):
    hamming = 'hamming'
    hann = 'hann'


class RNNType(Enum):
    lstm = 'lstm'
    rnn = 'rnn'
    gru = 'gru'


# ---- deepspeech_pytorch/configs/train_config.py (omegaconf's structured configs as plain dataclasses)
@dataclass
class TrainingConfig:
    no_cuda: bool = False  # Enable CPU only training
    finetune: bool = False  # Fine-tune the model from checkpoint "continue_from"
    seed: int = 123456  # Seed for generators
    epochs: int = 70  # Number of Training Epochs


@dataclass
class SpectConfig:
    sample_rate: int = 16000  # The sample rate for the data/model features
    window_size: float = .02  # Window size for spectrogram generation (seconds)
    window_stride: float = .01  # Window stride for spectrogram generation (seconds)
    window: SpectrogramWindow = SpectrogramWindow.hamming  # Window type for spectrogram generation


@dataclass
class DataConfig:
    train_manifest: str = 'data/train_manifest.csv'
    val_manifest: str = 'data/val_manifest.csv'
    batch_size: int = 20  # Batch size for training
    num_workers: int = 4  # Number of workers used in data-loading
    labels_path: str = 'labels.json'  # Contains tokens for model output
    spect: SpectConfig = field(default_factory=SpectConfig)


@dataclass
class BiDirectionalConfig:
    rnn_type: RNNType = RNNType.lstm  # Type of RNN to use in model
    hidden_size: int = 1024  # Hidden size of RNN Layer
    hidden_layers: int = 5  # Number of RNN layers


@dataclass
class OptimConfig:
    learning_rate: float = 3e-4  # Initial Learning Rate
    learning_anneal: float = 1.1  # Annealing applied to learning rate after each epoch
    weight_decay: float = 1e-5  # Initial Weight Decay
    max_norm: float = 400  # Norm cutoff to prevent explosion of gradients


@dataclass
class SGDConfig(OptimConfig):
    momentum: float = 0.9


@dataclass
class AdamConfig(OptimConfig):
    eps: float = 1e-8  # Adam eps
    betas: tuple = (0.9, 0.999)  # Adam betas


@dataclass
class FileCheckpointConfig:
    continue_from: str = ''  # Continue training from checkpoint model
    checkpoint: bool = True  # Enables epoch checkpoint saving of model
    save_folder: str = 'models/'  # Location to save checkpoint models


@dataclass
class ApexConfig:
    opt_level: str = 'O1'  # Apex optimization level, check https://nvidia.github.io/apex/amp.html for more information
    loss_scale: int = 1  # Loss scaling used by Apex. Default is 1 due to warp-ctc not supporting scaling of gradients


@dataclass
class DeepSpeechConfig:
    optim: Any = field(default_factory=SGDConfig)
    model: Any = field(default_factory=BiDirectionalConfig)
    checkpointing: Any = field(default_factory=FileCheckpointConfig)
    training: TrainingConfig = field(default_factory=TrainingConfig)
    data: DataConfig = field(default_factory=DataConfig)
    apex: ApexConfig = field(default_factory=ApexConfig)


# ---- deepspeech_pytorch/loader/data_loader.py
def load_audio(path):
    sound, sample_rate = sf.read(path, dtype='int16')
    # TODO this should be 32768.0 to get twos-complement range.
    # TODO the difference is negligible but should be fixed for new models.
    sound = sound.astype('float32') / 32767  # normalize audio
    if len(sound.shape) > 1:
        if sound.shape[1] == 1:
            sound = sound.squeeze()
        else:
            sound = sound.mean(axis=1)  # multiple channels, average
    return sound


class SpectrogramParser(object):
    def __init__(self, audio_conf: SpectConfig, normalize: bool = False):
        super(SpectrogramParser, self).__init__()
        self.window_stride = audio_conf.window_stride
        self.window_size = audio_conf.window_size
        self.sample_rate = audio_conf.sample_rate
        self.window = audio_conf.window.value
        self.normalize = normalize

    def parse_audio(self, audio_path):
        y = load_audio(audio_path)
        n_fft = int(self.sample_rate * self.window_size)
        win_length = n_fft
        hop_length = int(self.sample_rate * self.window_stride)
        # STFT
        D = librosa.stft(y, n_fft=n_fft, hop_length=hop_length,
                         win_length=win_length, window=self.window)
        spect, phase = librosa.magphase(D)
        # S = log(S+1)
        spect = np.log1p(spect)
        spect = torch.FloatTensor(spect)
        if self.normalize:
            mean = spect.mean()
            std = spect.std()
            spect.add_(-mean)
            spect.div_(std)

        return spect

    def parse_transcript(self, transcript_path):
        raise NotImplementedError


class SpectrogramDataset(Dataset, SpectrogramParser):
    def __init__(self,
                 audio_conf: SpectConfig,
                 manifest_filepath: str,
                 labels: list,
                 normalize: bool = False):
        with open(manifest_filepath) as f:
            ids = f.readlines()
        ids = [x.strip().split(',') for x in ids]
        self.ids = ids
        self.size = len(ids)
        self.labels_map = dict([(labels[i], i) for i in range(len(labels))])
        super(SpectrogramDataset, self).__init__(audio_conf, normalize)

    def __getitem__(self, index):
        sample = self.ids[index]
        audio_path, transcript_path = sample[0], sample[1]
        spect = self.parse_audio(audio_path)
        transcript = self.parse_transcript(transcript_path)
        return spect, transcript

    def parse_transcript(self, transcript_path):
        with open(transcript_path, 'r', encoding='utf8') as transcript_file:
            transcript = transcript_file.read().replace('\n', '')
        transcript = list(filter(None, [self.labels_map.get(x) for x in list(transcript)]))
        return transcript

    def __len__(self):
        return self.size


def _collate_fn(batch):
    def func(p):
        return p[0].size(1)

    batch = sorted(batch, key=lambda sample: sample[0].size(1), reverse=True)
    longest_sample = max(batch, key=func)[0]
    freq_size = longest_sample.size(0)
    minibatch_size = len(batch)
    max_seqlength = longest_sample.size(1)
    inputs = torch.zeros(minibatch_size, 1, freq_size, max_seqlength)
    input_percentages = torch.FloatTensor(minibatch_size)
    target_sizes = torch.IntTensor(minibatch_size)
    targets = []
    for x in range(minibatch_size):
        sample = batch[x]
        tensor = sample[0]
        target = sample[1]
        seq_length = tensor.size(1)
        inputs[x][0].narrow(1, 0, seq_length).copy_(tensor)
        input_percentages[x] = seq_length / float(max_seqlength)
        target_sizes[x] = len(target)
        targets.extend(target)
    targets = torch.IntTensor(targets)
    return inputs, targets, input_percentages, target_sizes


class AudioDataLoader(DataLoader):
    def __init__(self, *args, **kwargs):
        """
        Creates a data loader for AudioDatasets.
        """
        super(AudioDataLoader, self).__init__(*args, **kwargs)
        self.collate_fn = _collate_fn


class DSRandomSampler(Sampler):
    def __init__(self, dataset, batch_size=1, start_index=0):
        super().__init__()

        self.dataset = dataset
        self.start_index = start_index
        self.batch_size = batch_size
        ids = list(range(len(self.dataset)))
        self.bins = [ids[i:i + self.batch_size] for i in range(0, len(ids), self.batch_size)]

    def __iter__(self):
        # deterministically shuffle based on epoch
        g = torch.Generator()
        g.manual_seed(self.epoch)
        indices = (
            torch.randperm(len(self.bins) - self.start_index, generator=g)
                .add(self.start_index)
                .tolist()
        )
        for x in indices:
            batch_ids = self.bins[x]
            np.random.shuffle(batch_ids)
            yield batch_ids

    def __len__(self):
        return len(self.bins) - self.start_index

    def set_epoch(self, epoch):
        self.epoch = epoch

    def reset_training_step(self, training_step):
        self.start_index = training_step


# ---- deepspeech_pytorch/model.py
supported_rnns = {
    'lstm': nn.LSTM,
    'rnn': nn.RNN,
    'gru': nn.GRU
}
supported_rnns_inv = dict((v, k) for k, v in supported_rnns.items())


class SequenceWise(nn.Module):
    def __init__(self, module):
        super(SequenceWise, self).__init__()
        self.module = module

    def forward(self, x):
        t, n = x.size(0), x.size(1)
        x = x.view(t * n, -1)
        x = self.module(x)
        x = x.view(t, n, -1)
        return x


class MaskConv(nn.Module):
    def __init__(self, seq_module):
        super(MaskConv, self).__init__()
        self.seq_module = seq_module

    def forward(self, x, lengths):
        for module in self.seq_module:
            x = module(x)
            mask = torch.BoolTensor(x.size()).fill_(0)
            if x.is_cuda:
                mask = mask.cuda()
            for i, length in enumerate(lengths):
                length = length.item()
                if (mask[i].size(2) - length) > 0:
                    mask[i].narrow(2, length, mask[i].size(2) - length).fill_(1)
            x = x.masked_fill(mask, 0)
        return x, lengths


class InferenceBatchSoftmax(nn.Module):
    def forward(self, input_):
        if not self.training:
            return F.softmax(input_, dim=-1)
        else:
            return input_


class BatchRNN(nn.Module):
    def __init__(self, input_size, hidden_size, rnn_type=nn.LSTM, bidirectional=False, batch_norm=True):
        super(BatchRNN, self).__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bidirectional = bidirectional
        self.batch_norm = SequenceWise(nn.BatchNorm1d(input_size)) if batch_norm else None
        self.rnn = rnn_type(input_size=input_size, hidden_size=hidden_size,
                            bidirectional=bidirectional, bias=True)
        self.num_directions = 2 if bidirectional else 1

    def forward(self, x, output_lengths):
        if self.batch_norm is not None:
            x = self.batch_norm(x)
        x = nn.utils.rnn.pack_padded_sequence(x, output_lengths)
        x, h = self.rnn(x)
        x, _ = nn.utils.rnn.pad_packed_sequence(x)
        if self.bidirectional:
            x = x.view(x.size(0), x.size(1), 2, -1).sum(2).view(x.size(0), x.size(1), -1)  # (TxNxH*2) -> (TxNxH) by sum
        return x


class DeepSpeech(nn.Module):
    def __init__(self, rnn_type, labels, rnn_hidden_size, nb_layers, audio_conf,
                 bidirectional, context=20):
        super(DeepSpeech, self).__init__()

        self.hidden_size = rnn_hidden_size
        self.hidden_layers = nb_layers
        self.rnn_type = rnn_type
        self.audio_conf = audio_conf
        self.labels = labels
        self.bidirectional = bidirectional

        sample_rate = self.audio_conf.sample_rate
        window_size = self.audio_conf.window_size
        num_classes = len(self.labels)

        self.conv = MaskConv(nn.Sequential(
            nn.Conv2d(1, 32, kernel_size=(41, 11), stride=(2, 2), padding=(20, 5)),
            nn.BatchNorm2d(32),
            nn.Hardtanh(0, 20, inplace=True),
            nn.Conv2d(32, 32, kernel_size=(21, 11), stride=(2, 1), padding=(10, 5)),
            nn.BatchNorm2d(32),
            nn.Hardtanh(0, 20, inplace=True)
        ))
        # Based on above convolutions and spectrogram size using conv formula (W - F + 2P)/ S+1
        rnn_input_size = int(math.floor((sample_rate * window_size) / 2) + 1)
        rnn_input_size = int(math.floor(rnn_input_size + 2 * 20 - 41) / 2 + 1)
        rnn_input_size = int(math.floor(rnn_input_size + 2 * 10 - 21) / 2 + 1)
        rnn_input_size *= 32

        rnns = []
        rnn = BatchRNN(input_size=rnn_input_size, hidden_size=rnn_hidden_size, rnn_type=rnn_type,
                       bidirectional=bidirectional, batch_norm=False)
        rnns.append(('0', rnn))
        for x in range(nb_layers - 1):
            rnn = BatchRNN(input_size=rnn_hidden_size, hidden_size=rnn_hidden_size, rnn_type=rnn_type,
                           bidirectional=bidirectional)
            rnns.append(('%d' % (x + 1), rnn))
        self.rnns = nn.Sequential(OrderedDict(rnns))

        fully_connected = nn.Sequential(
            nn.BatchNorm1d(rnn_hidden_size),
            nn.Linear(rnn_hidden_size, num_classes, bias=False)
        )
        self.fc = nn.Sequential(
            SequenceWise(fully_connected),
        )
        self.inference_softmax = InferenceBatchSoftmax()

    def forward(self, x, lengths):
        lengths = lengths.cpu().int()
        output_lengths = self.get_seq_lens(lengths)
        x, _ = self.conv(x, output_lengths)

        sizes = x.size()
        x = x.view(sizes[0], sizes[1] * sizes[2], sizes[3])  # Collapse feature dimension
        x = x.transpose(1, 2).transpose(0, 1).contiguous()  # TxNxH

        for rnn in self.rnns:
            x = rnn(x, output_lengths)

        x = self.fc(x)
        x = x.transpose(0, 1)
        # identity in training mode, softmax in eval mode
        x = self.inference_softmax(x)
        return x, output_lengths

    def get_seq_lens(self, input_length):
        seq_len = input_length
        for m in self.conv.modules():
            if type(m) == nn.modules.conv.Conv2d:
                seq_len = ((seq_len + 2 * m.padding[1] - m.dilation[1] * (m.kernel_size[1] - 1) - 1) // m.stride[1] + 1)
        return seq_len.int()

    def serialize_state(self):
        return {
            'hidden_size': self.hidden_size,
            'hidden_layers': self.hidden_layers,
            'rnn_type': supported_rnns_inv.get(self.rnn_type, self.rnn_type.__name__.lower()),
            'labels': self.labels,
            'state_dict': self.state_dict(),
            'bidirectional': self.bidirectional,
        }

    @staticmethod
    def get_param_size(model):
        params = 0
        for p in model.parameters():
            tmp = 1
            for x in p.size():
                tmp *= x
            params += tmp
        return params


# ---- deepspeech_pytorch/utils.py
def check_loss(loss, loss_value):
    """
    Check that warp-ctc loss is valid and will not break training
    :return: Return if loss is valid, and the error in case it is not
    """
    loss_valid = True
    error = ''
    if loss_value == float("inf") or loss_value == float("-inf"):
        loss_valid = False
        error = "WARNING: received an inf loss"
    elif torch.isnan(loss).sum() > 0:
        loss_valid = False
        error = 'WARNING: received a nan loss, setting loss value to 0'
    elif loss_value < 0:
        loss_valid = False
        error = "WARNING: received a negative loss"
    return loss_valid, error


# ---- deepspeech_pytorch/training.py (visdom/tensorboard, distributed training and the WER/CER evaluation left out)
class AverageMeter(object):
    """Computes and stores the average and current value"""

    def __init__(self):
        self.reset()

    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


def train(cfg):
    # Set seeds for determinism
    torch.manual_seed(cfg.training.seed)
    torch.cuda.manual_seed_all(cfg.training.seed)
    np.random.seed(cfg.training.seed)
    random.seed(cfg.training.seed)

    device = torch.device("cpu" if cfg.training.no_cuda or not torch.cuda.is_available() else "cuda")

    # Initialise new model training
    with open(cfg.data.labels_path) as label_file:
        labels = json.load(label_file)

    model = DeepSpeech(rnn_hidden_size=cfg.model.hidden_size,
                       nb_layers=cfg.model.hidden_layers,
                       labels=labels,
                       rnn_type=supported_rnns[cfg.model.rnn_type.value],
                       audio_conf=cfg.data.spect,
                       bidirectional=True)

    # Data setup
    train_dataset = SpectrogramDataset(audio_conf=model.audio_conf,
                                       manifest_filepath=cfg.data.train_manifest,
                                       labels=model.labels,
                                       normalize=True)
    train_sampler = DSRandomSampler(dataset=train_dataset,
                                    batch_size=cfg.data.batch_size,
                                    start_index=0)
    train_loader = AudioDataLoader(dataset=train_dataset,
                                   num_workers=cfg.data.num_workers,
                                   batch_sampler=train_sampler)

    model = model.to(device)
    if cfg.apex.opt_level == 'O3':  # apex O3: the whole model in float16
        model = model.half()  # root-cause
    parameters = model.parameters()
    if type(cfg.optim) is SGDConfig:
        optimizer = torch.optim.SGD(parameters,
                                    lr=cfg.optim.learning_rate,
                                    momentum=cfg.optim.momentum,
                                    nesterov=True,
                                    weight_decay=cfg.optim.weight_decay)
    elif type(cfg.optim) is AdamConfig:
        optimizer = torch.optim.AdamW(parameters,
                                      lr=cfg.optim.learning_rate,
                                      betas=cfg.optim.betas,
                                      eps=cfg.optim.eps,
                                      weight_decay=cfg.optim.weight_decay)
    else:
        raise ValueError("Optimizer has not been specified correctly.")

    # was: model, optimizer = amp.initialize(model, optimizer, opt_level=..., loss_scale=...)
    scaler = torch.amp.GradScaler(device.type, enabled=cfg.apex.opt_level != 'O0')

    print("Number of parameters: %d" % DeepSpeech.get_param_size(model))

    criterion = nn.CTCLoss(blank=labels.index('_'), reduction='sum', zero_infinity=True)
    batch_time = AverageMeter()
    data_time = AverageMeter()
    losses = AverageMeter()
    avg_loss = 0

    for epoch in range(cfg.training.epochs):
        model.train()
        end = time.time()
        start_epoch_time = time.time()
        train_sampler.set_epoch(epoch=epoch)
        train_sampler.reset_training_step(training_step=0)
        for i, (data) in enumerate(train_loader):
            inputs, targets, input_percentages, target_sizes = data
            input_sizes = input_percentages.mul_(int(inputs.size(3))).int()
            # measure data loading time
            data_time.update(time.time() - end)
            inputs = inputs.to(device)
            if cfg.apex.opt_level == 'O3':  # apex cast the inputs of a float16 model's forward
                inputs = inputs.half()

            out, output_sizes = model(inputs, input_sizes)
            out = out.transpose(0, 1)  # TxNxH

            float_out = out.float()  # ensure float32 for loss
            loss = criterion(float_out.log_softmax(-1), targets, output_sizes, target_sizes).to(device)
            loss = loss / inputs.size(0)  # average the loss by minibatch
            loss_value = loss.item()

            # Check to ensure valid loss was calculated
            valid_loss, error = check_loss(loss, loss_value)
            if valid_loss:
                optimizer.zero_grad()

                # compute gradient (was: with amp.scale_loss(loss, optimizer) as scaled_loss: scaled_loss.backward())
                scaler.scale(loss).backward()
                scaler.unscale_(optimizer)  # fails-here
                torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.optim.max_norm)
                scaler.step(optimizer)
                scaler.update()
            else:
                print(error)
                print('Skipping grad update')
                loss_value = 0

            avg_loss += loss_value
            losses.update(loss_value, inputs.size(0))

            # measure elapsed time
            batch_time.update(time.time() - end)
            end = time.time()
            print('Epoch: [{0}][{1}/{2}]\t'
                  'Time {batch_time.val:.3f} ({batch_time.avg:.3f})\t'
                  'Data {data_time.val:.3f} ({data_time.avg:.3f})\t'
                  'Loss {loss.val:.4f} ({loss.avg:.4f})\t'.format(
                (epoch + 1), (i + 1), len(train_loader), batch_time=batch_time, data_time=data_time, loss=losses))

        avg_loss /= len(train_dataset)

        epoch_time = time.time() - start_epoch_time
        print('Training Summary Epoch: [{0}]\t'
              'Time taken (s): {epoch_time:.0f}\t'
              'Average Loss {loss:.3f}\t'.format(epoch + 1, epoch_time=epoch_time, loss=avg_loss))

        if cfg.checkpointing.checkpoint:  # Save epoch checkpoint
            os.makedirs(cfg.checkpointing.save_folder, exist_ok=True)
            package = model.serialize_state()
            package['optim_dict'] = optimizer.state_dict()
            package['amp'] = scaler.state_dict()
            package['epoch'] = epoch + 1
            torch.save(package, os.path.join(cfg.checkpointing.save_folder, 'deepspeech_%d.pth' % (epoch + 1)))
        # anneal lr
        for g in optimizer.param_groups:
            g['lr'] = g['lr'] / cfg.optim.learning_anneal
        print('Learning rate annealed to: {lr:.6f}'.format(lr=g['lr']))
        avg_loss = 0


def make_an4_like_data(root, labels, n=6, seed=0):
    """wav + txt pairs and the csv manifest data/an4.py writes (tones per letter, 16 kHz int16)."""
    rng = np.random.RandomState(seed)
    os.makedirs(os.path.join(root, 'wav'), exist_ok=True)
    os.makedirs(os.path.join(root, 'txt'), exist_ok=True)
    lines = []
    for k in range(n):
        word = ''.join(rng.choice(list('ABCDEFGHIJ'), size=rng.randint(3, 6)))
        t = np.arange(1600) / 16000.
        sound = np.concatenate([0.3 * np.sin(2 * np.pi * (300 + 40 * labels.index(c)) * t) for c in word])
        sound = (sound + 0.01 * rng.randn(len(sound))) * 32767
        wav, txt = os.path.join(root, 'wav', 'an4_%d.wav' % k), os.path.join(root, 'txt', 'an4_%d.txt' % k)
        scipy.io.wavfile.write(wav, 16000, sound.astype(np.int16))
        with open(txt, 'w') as f:
            f.write(word)
        lines.append('%s,%s' % (wav, txt))
    manifest = os.path.join(root, 'an4_train_manifest.csv')
    with open(manifest, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    return manifest


if __name__ == '__main__':
    labels = ["_", "'", "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R",
              "S", "T", "U", "V", "W", "X", "Y", "Z", " "]
    with open(os.path.join(WORKDIR, 'labels.json'), 'w') as f:
        json.dump(labels, f)
    cfg = DeepSpeechConfig(
        optim=AdamConfig(learning_rate=1.5e-4),
        model=BiDirectionalConfig(hidden_size=64, hidden_layers=2),
        checkpointing=FileCheckpointConfig(save_folder=os.path.join(WORKDIR, 'models')),
        training=TrainingConfig(epochs=2),
        data=DataConfig(train_manifest=make_an4_like_data(os.path.join(WORKDIR, 'an4'), labels),
                        batch_size=3, num_workers=0, labels_path=os.path.join(WORKDIR, 'labels.json')),
        apex=ApexConfig(opt_level='O3'))
    train(cfg)
